// Models on nginx (Debian's, on 127.0.0.1, started here): opened by Range requests through the
// core's Checkpoint::open, the same model as the local file, with what moved counted from
// nginx's own access log.
#include "NginxServer.h"
#include "RemoteTestFiles.h"
#include "RemoteTestSession.h"

#include "analysis/ModelScanner.h"
#include "analysis/StatsJson.h"
#include "checkpoint/Checkpoint.h"
#include "format/HeaderParser.h"
#include "io/ReadScope.h"
#include "remote/BlockPool.h"
#include "remote/HttpByteSource.h"
#include "remote/NetworkClient.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace ts;
using namespace ts::test;

namespace {

qint64 bodyBytes(const QList<QJsonObject>& requests)
{
    qint64 sum = 0;
    for (const QJsonObject& r : requests)
        sum += r.value(QStringLiteral("body")).toInteger();
    return sum;
}

QStringList describe(const Checkpoint& c)
{
    QStringList lines;
    for (std::size_t i = 0; i < c.tensors().size(); ++i) {
        const CheckpointTensor& t = c.tensors()[i];
        QStringList shape;
        for (std::uint64_t d : t.info.shape)
            shape << QString::number(d);
        lines << QStringLiteral("%1 %2 [%3] @%4 part %5 %6")
                     .arg(t.info.name, dtypeName(t.info.dtype), shape.join(QLatin1Char(',')))
                     .arg(t.offset)
                     .arg(t.part)
                     .arg(c.parts()[static_cast<std::size_t>(t.part)].name);
    }
    if (c.metadata()) {
        for (const auto& [k, v] : c.metadata()->entries())
            lines << QStringLiteral("meta %1=%2").arg(k, v);
    }
    for (const Diagnostic& d : c.warnings())
        lines << QStringLiteral("warning %1 %2").arg(d.code, d.tensor);
    return lines;
}

QByteArray scanJson(const Checkpoint& model, const ScanResult& result)
{
    JsonWriter json;
    json.beginArray();
    for (const TensorStats& t : result.tensors)
        writeTensorStatsJson(json, t,
                             model.tensors()[static_cast<std::size_t>(model.indexOf(t.name))].info.shape);
    json.endArray();
    QByteArray out = json.data();
    for (const Diagnostic& d : result.findings)
        out += '\n' + d.code.toUtf8() + ' ' + d.tensor.toUtf8();
    return out;
}

} // namespace

class TestRemoteSource : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_root;
    QTemporaryDir m_cache;
    NginxServer m_nginx;
    std::unique_ptr<remote::RemoteSession> m_session;

    std::shared_ptr<const Checkpoint> openRemote(const QString& name)
    {
        auto opened = Checkpoint::open(m_nginx.url(name));
        if (!opened)
            qWarning("%s", qPrintable(opened.error().toString()));
        return opened ? opened.value() : nullptr;
    }

private slots:
    void initTestCase()
    {
        for (const char* name : {"face_recognition_f16.safetensors", "age_gender_anomalies_f32.safetensors",
                                 "face_recognition_sharded", "tiny_face_detector_u8.safetensors"}) {
            if (!RemoteTestFiles::copyFixture(QString::fromLatin1(name), m_root.path()))
                QFAIL(qPrintable(QStringLiteral("the shared fixture %1 is missing (../shared/fixtures/real)")
                                     .arg(QString::fromLatin1(name))));
        }
        // The folder is served by nginx: it must be able to read it whoever it runs as.
        QFile::setPermissions(m_root.path(), QFile::permissions(m_root.path()) | QFileDevice::ReadOther |
                                                 QFileDevice::ExeOther);
        NginxServer::Options options;
        options.root = m_root.path();
        QVERIFY2(m_nginx.start(options), qPrintable(m_nginx.error()));
        m_session = std::make_unique<remote::RemoteSession>(testSettings(m_cache.path(), 0));
    }

    void cleanupTestCase() { m_session.reset(); }

    void init() { m_nginx.clearLog(); }

    void opensTheSameModelAsTheLocalFile_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("f16") << QStringLiteral("face_recognition_f16.safetensors");
        QTest::newRow("u8 with metadata") << QStringLiteral("tiny_face_detector_u8.safetensors");
    }

    void opensTheSameModelAsTheLocalFile()
    {
        QFETCH(QString, name);
        const auto remote = openRemote(name);
        QVERIFY(remote);
        const auto local = Checkpoint::open(QDir(m_root.path()).filePath(name));
        QVERIFY(local);
        QCOMPARE(describe(*remote), describe(**local));
        QCOMPARE(remote->path(), m_nginx.url(name));
        QCOMPARE(remote->displayName(), name);
        QCOMPARE(remote->parts().front().name, name);
        QVERIFY(remote->parts().front().localPath.isEmpty()); // nothing on this machine to watch or save
        QVERIFY(remote->files().isEmpty());
        QVERIFY(!remote->capabilities().editMetadata);
        QVERIFY(remote->capabilities().convertFrom);
        QCOMPARE(remote->rawHeader(1 << 20).bytes, (*local)->rawHeader(1 << 20).bytes);
        // One request: the prefix and the header came with the 100 KiB probe.
        const QList<QJsonObject> requests = m_nginx.waitForRequests(1);
        QCOMPARE(requests.size(), 1);
        QCOMPARE(requests[0].value(QStringLiteral("status")).toInt(), 206);
        QCOMPARE(requests[0].value(QStringLiteral("range")).toString(), QStringLiteral("bytes=0-102399"));
    }

    void aLongHeaderTakesOneMoreExactRequest()
    {
        const std::uint64_t n = RemoteTestFiles::writeWideModel(
            QDir(m_root.path()).filePath(QStringLiteral("wide.safetensors")), 3000);
        QVERIFY(n > remote::HttpByteSource::kProbeBytes);
        const auto model = openRemote(QStringLiteral("wide.safetensors"));
        QVERIFY(model);
        QCOMPARE(model->tensors().size(), std::size_t(3000));
        const QList<QJsonObject> requests = m_nginx.waitForRequests(2);
        QCOMPARE(requests.size(), 2);
        // The rest of the header, to its last byte and not one byte of tensor data more.
        QCOMPARE(requests[1].value(QStringLiteral("range")).toString(),
                 QStringLiteral("bytes=102400-%1").arg(8 + n - 1));
        QCOMPARE(bodyBytes(requests), qint64(8 + n));
        // Showing the raw header reads nothing more.
        QVERIFY(model->rawHeader(8 << 20).bytes.size() > 0);
        QCOMPARE(m_nginx.requests().size(), 2);
    }

    void aHeaderPastTheCapIsRefusedBeforeItIsDownloaded()
    {
        QVERIFY(RemoteTestFiles::writeHugeHeaderPrefix(
            QDir(m_root.path()).filePath(QStringLiteral("huge.safetensors")), 200'000'000, 300'000'000));
        const auto opened = Checkpoint::open(m_nginx.url(QStringLiteral("huge.safetensors")));
        QVERIFY(!opened);
        QCOMPARE(opened.error().code, ErrorCode::HeaderTooLarge);
        QCOMPARE(opened.error().file, m_nginx.url(QStringLiteral("huge.safetensors")));
        const QList<QJsonObject> requests = m_nginx.waitForRequests(1);
        QCOMPARE(requests.size(), 1);
        QVERIFY(bodyBytes(requests) <= qint64(remote::HttpByteSource::kProbeBytes));
    }

    void scansGiveWhatTheLocalScanGives()
    {
        const QString name = QStringLiteral("age_gender_anomalies_f32.safetensors");
        const auto remote = openRemote(name);
        QVERIFY(remote);
        const auto local = Checkpoint::open(QDir(m_root.path()).filePath(name));
        QVERIFY(local);
        ScanOptions options;
        options.histogramBins = 16;
        auto remoteScan = ModelScanner(remote, options).run();
        QVERIFY2(remoteScan, qPrintable(remoteScan ? QString() : remoteScan.error().toString()));
        auto localScan = ModelScanner(*local, options).run();
        QVERIFY(localScan);
        QCOMPARE(scanJson(*remote, *remoteScan), scanJson(**local, *localScan));
        QVERIFY(scanJson(*remote, *remoteScan).contains("NanValues"));
        // Tensor bytes came in aligned ranges of whole blocks (the last one ends with the file).
        const QFileInfo file(QDir(m_root.path()).filePath(name));
        for (const QJsonObject& r : m_nginx.waitForRequests(2).mid(1)) {
            const QStringList range =
                r.value(QStringLiteral("range")).toString().mid(6).split(QLatin1Char('-'));
            QCOMPARE(range[0].toULongLong() % remote::HttpByteSource::kBlockBytes, 0u);
            const std::uint64_t last = range[1].toULongLong();
            QVERIFY((last + 1) % remote::HttpByteSource::kBlockBytes == 0 ||
                    last + 1 == static_cast<std::uint64_t>(file.size()));
        }
    }

    void anIndexUrlReadsItsShardsFromBesideIt()
    {
        const QString index = QStringLiteral("face_recognition_sharded/model.safetensors.index.json");
        const auto remote = openRemote(index);
        QVERIFY(remote);
        const auto local = Checkpoint::open(QDir(m_root.path()).filePath(index));
        QVERIFY(local);
        QCOMPARE(remote->kind(), Checkpoint::Kind::IndexedShards);
        QCOMPARE(remote->parts().size(), std::size_t(2));
        QCOMPARE(describe(*remote), describe(**local));
        QVERIFY(remote->shardIndex());
        QCOMPARE(remote->displayName(),
                 QStringLiteral("face_recognition_sharded/model.safetensors.index.json"));
        QVERIFY(remote->files().isEmpty());
        // The index, then one probe per shard.
        const QList<QJsonObject> requests = m_nginx.waitForRequests(3);
        QCOMPARE(requests.size(), 3);
        QVERIFY(requests[0].value(QStringLiteral("uri")).toString().endsWith(QStringLiteral(".index.json")));
    }

    void aMissingShardIsNamed()
    {
        QDir(m_root.path()).mkpath(QStringLiteral("broken"));
        QFile::copy(QDir(m_root.path())
                        .filePath(QStringLiteral("face_recognition_sharded/model.safetensors.index.json")),
                    QDir(m_root.path()).filePath(QStringLiteral("broken/model.safetensors.index.json")));
        const auto opened =
            Checkpoint::open(m_nginx.url(QStringLiteral("broken/model.safetensors.index.json")));
        QVERIFY(!opened);
        QCOMPARE(opened.error().code, ErrorCode::NotFound);
        QVERIFY2(opened.error().file.contains(QStringLiteral("/broken/model-0000")),
                 qPrintable(opened.error().file));
    }

    void aFolderUrlIsRefusedWithASentence()
    {
        const auto opened = Checkpoint::open(m_nginx.url(QStringLiteral("face_recognition_sharded/")));
        QVERIFY(!opened);
        QCOMPARE(opened.error().code, ErrorCode::NotAFile);
        QVERIFY(opened.error().message.contains(QStringLiteral("index.json")));
    }

    void bytesFromTheCacheAreNotAskedForAgain()
    {
        QTemporaryDir cache;
        m_session->setSettings(testSettings(cache.path()));
        // A session's cache folder is fixed: a session of its own for this test.
        m_session.reset();
        m_session = std::make_unique<remote::RemoteSession>(testSettings(cache.path()));
        const QString name = QStringLiteral("age_gender_anomalies_f32.safetensors");
        QByteArray first;
        int before = 0;
        {
            const auto model = openRemote(name);
            QVERIFY(model);
            auto scan = ModelScanner(model, {}).run();
            QVERIFY(scan);
            first = scanJson(*model, *scan);
            before = static_cast<int>(
                dynamic_cast<const remote::HttpByteSource&>(*model->parts().front().source).stats().requests);
        }
        m_session->client().settle();
        QCOMPARE(m_nginx.waitForRequests(before).size(), before);
        const auto model = openRemote(name);
        QVERIFY(model);
        auto scan = ModelScanner(model, {}).run();
        QVERIFY(scan);
        QCOMPARE(scanJson(*model, *scan), first);
        // The second open asked for the probe (it says whether the file is still the same), and
        // nothing else: every block came from the disk cache.
        const QList<QJsonObject> requests = m_nginx.waitForRequests(before + 1);
        QCOMPARE(requests.size(), before + 1);
        const auto* source = dynamic_cast<const remote::HttpByteSource*>(model->parts().front().source.get());
        QVERIFY(source);
        QVERIFY(source->stats().fromCache > 0);
        m_session.reset();
        m_session = std::make_unique<remote::RemoteSession>(testSettings(m_cache.path(), 0));
    }

    void aForwardWalkIsReadAheadInLargeRanges()
    {
        const QString path = QDir(m_root.path()).filePath(QStringLiteral("long.safetensors"));
        QVERIFY(RemoteTestFiles::writeSingleTensor(path, 12u << 20, 5'000'000)); // 48 MiB of F32
        const auto model = openRemote(QStringLiteral("long.safetensors"));
        QVERIFY(model);
        ScanOptions options;
        options.threads = 2;
        auto scan = ModelScanner(model, options).run();
        QVERIFY(scan);
        QCOMPARE(scan->tensors.front().values.nan, 1u);
        QCOMPARE(scan->tensors.front().values.firstNan(), std::optional<std::uint64_t>(5'000'000));
        QList<QJsonObject> requests = m_nginx.waitForRequests(2);
        requests.removeFirst(); // the probe
        // 48 MiB in requests of up to 16 MiB: a handful, not one per 4 MiB piece read.
        QVERIFY2(requests.size() <= 8, qPrintable(QString::number(requests.size())));
        qint64 largest = 0;
        for (const QJsonObject& r : requests)
            largest = std::max<qint64>(largest, r.value(QStringLiteral("body")).toInteger());
        QCOMPARE(largest, qint64(remote::HttpByteSource::kMaxSpanBytes));
        // Nothing was fetched twice.
        QVERIFY(bodyBytes(requests) <= QFileInfo(path).size());
        // The pieces inside a read-ahead transfer were scanned where they arrived, not copied.
        const auto* http = dynamic_cast<const remote::HttpByteSource*>(model->parts().front().source.get());
        QVERIFY(http);
        QVERIFY2(http->stats().lent >= (16u << 20), qPrintable(QString::number(http->stats().lent)));
    }

    // A scan of a file larger than the memory pool reads each byte once: the spans it has passed
    // leave the pool at once (their buffers serve the spans ahead) instead of filling the whole
    // budget with bytes nobody reads again. Kept, the 256 MiB were fresh pages faulted in for
    // every remote scan (tests/bench/remote/RESULTS.md).
    void aScanLargerThanThePoolLetsGoOfWhatItPassed()
    {
        remote::BlockPool& pool = m_session->client().pool();
        const QString path = QDir(m_root.path()).filePath(QStringLiteral("past-the-pool.safetensors"));
        const std::uint64_t elements = (pool.budget() + (64u << 20)) / 4; // 64 MiB past the budget
        QVERIFY(RemoteTestFiles::writeSingleTensor(path, elements, elements - 3));
        const std::uint64_t before = pool.heldBytes();
        const auto model = openRemote(QStringLiteral("past-the-pool.safetensors"));
        QVERIFY(model);
        ScanOptions options;
        options.threads = 2;
        options.nanInfOnly = true;
        auto scan = ModelScanner(model, options).run();
        QVERIFY(scan);
        QCOMPARE(scan->tensors.front().values.nan, 1u);
        // What it holds now: the last spans of the walk (its lag behind the end), not the budget.
        const std::uint64_t added = pool.heldBytes() > before ? pool.heldBytes() - before : 0;
        QVERIFY2(added <= 4 * remote::HttpByteSource::kMaxSpanBytes,
                 qPrintable(QStringLiteral("%1 MiB held after the scan").arg(added >> 20)));
        // And nothing was fetched twice for it.
        QList<QJsonObject> requests = m_nginx.waitForRequests(2);
        QVERIFY(bodyBytes(requests) <= QFileInfo(path).size() + qint64(remote::HttpByteSource::kProbeBytes));
        QFile::remove(path);
    }

    void aReaderBehindTheWalkStillFindsItsPiece_data()
    {
        QTest::addColumn<quint64>("lagBytes");
        // Three and a half spans: within the read-ahead window.
        QTest::newRow("within the read-ahead window") << quint64(56u << 20);
        // Further back than the window, as a worker fell under AddressSanitizer in CI (its
        // piece 4-8 MiB read when the walk was at 80): the walk starts over at the late piece and
        // comes back, and what it had asked for until then used to stay in the pool for good.
        QTest::newRow("past the read-ahead window") << quint64(80u << 20);
    }

    void aReaderBehindTheWalkStillFindsItsPiece()
    {
        // What a scan worker descheduled between two pieces of its chunk does: the other worker
        // walks on far past the span, then this one reads its piece. Under load this re-fetched
        // it (the span had been let go of as soon as the walk was two spans past it).
        QFETCH(quint64, lagBytes);
        remote::BlockPool& pool = m_session->client().pool();
        const QString path = QDir(m_root.path()).filePath(QStringLiteral("slow-reader.safetensors"));
        const std::uint64_t elements = (pool.budget() + (64u << 20)) / 4;
        QVERIFY(RemoteTestFiles::writeSingleTensor(path, elements, 17));
        QFile local(path);
        QVERIFY(local.open(QIODevice::ReadOnly));
        const std::uint64_t before = pool.heldBytes();
        const auto model = openRemote(QStringLiteral("slow-reader.safetensors"));
        QVERIFY(model);
        const ByteSource& source = *model->parts().front().source;
        const TensorLocation where = model->location(0);
        constexpr std::uint64_t kPiece = 4u << 20;
        const std::uint64_t pieces = (where.length + kPiece - 1) / kPiece;
        std::vector<std::byte> buffer(kPiece);
        const auto readPiece = [&](std::uint64_t i) -> bool {
            const std::uint64_t at = where.offset + i * kPiece;
            const std::uint64_t n = std::min(kPiece, where.offset + where.length - at);
            ByteSource::HeldBytes held = source.hold(at, n); // as TensorBlockReader reads
            std::span<const std::byte> bytes = held.bytes;
            if (bytes.empty()) {
                if (!source.read(at, std::span<std::byte>(buffer.data(), n)))
                    return false;
                bytes = std::span<const std::byte>(buffer.data(), n);
            }
            local.seek(qint64(at));
            const QByteArray expected = local.read(qint64(n));
            return std::memcmp(bytes.data(), expected.constData(), n) == 0;
        };
        // Piece 9 is in the walk's second and third spans; the walk goes on lagBytes past it.
        constexpr std::uint64_t kLate = 9;
        const std::uint64_t kFarAhead = kLate + lagBytes / kPiece;
        QVERIFY(pieces > kFarAhead + 4);
        for (std::uint64_t i = 0; i < kFarAhead; ++i) {
            if (i != kLate)
                QVERIFY(readPiece(i));
        }
        QVERIFY(readPiece(kLate));
        for (std::uint64_t i = kFarAhead; i < pieces; ++i)
            QVERIFY(readPiece(i));
        // Nothing fetched twice, and the span went once its last piece was read.
        const QList<QJsonObject> requests = m_nginx.waitForRequests(2);
        QVERIFY2(bodyBytes(requests) <= QFileInfo(path).size() + qint64(remote::HttpByteSource::kProbeBytes),
                 qPrintable(QStringLiteral("%1 bytes moved for a %2-byte file")
                                .arg(bodyBytes(requests))
                                .arg(QFileInfo(path).size())));
        const std::uint64_t added = pool.heldBytes() > before ? pool.heldBytes() - before : 0;
        QVERIFY2(added <= 4 * remote::HttpByteSource::kMaxSpanBytes,
                 qPrintable(QStringLiteral("%1 MiB held after the walk").arg(added >> 20)));
        QFile::remove(path);
    }

    void readsWithoutWaitingSaysWhereTheNetworkWouldBeNeeded()
    {
        const auto model = openRemote(QStringLiteral("face_recognition_f16.safetensors"));
        QVERIFY(model);
        const ByteSource& source = *model->parts().front().source;
        const TensorLocation where = model->location(static_cast<int>(model->tensors().size()) - 1);
        QVERIFY(source.readsWithoutWaiting(0, 8)); // in the probe
        QVERIFY(!source.readsWithoutWaiting(where.offset, where.length));
        std::vector<std::byte> bytes(where.length);
        QVERIFY(source.read(where.offset, bytes));
        QVERIFY(source.readsWithoutWaiting(where.offset, where.length));
    }

    void arrivedBytesAreLentWithoutACopy()
    {
        // 48 MiB of F32: past the probe, the file is fetched in 16 MiB transfers.
        const QString path = QDir(m_root.path()).filePath(QStringLiteral("held.safetensors"));
        QVERIFY(RemoteTestFiles::writeSingleTensor(path, 12u << 20, 5'000'000));
        QFile local(path);
        QVERIFY(local.open(QIODevice::ReadOnly));
        const QByteArray file = local.readAll();
        const auto model = openRemote(QStringLiteral("held.safetensors"));
        QVERIFY(model);
        const ByteSource& source = *model->parts().front().source;
        constexpr std::uint64_t kSpan = remote::HttpByteSource::kMaxSpanBytes;
        const std::uint64_t at = kSpan + 4096; // inside the second 16 MiB span
        // Nothing asked for there yet: nothing to lend (read() asks).
        QVERIFY(source.hold(at, 1 << 20).bytes.empty());
        std::vector<std::byte> piece(4u << 20);
        QVERIFY(source.read(at, piece)); // one transfer of the 1 MiB blocks [16 MiB, 21 MiB)
        ByteSource::HeldBytes held = source.hold(at, 4u << 20);
        QCOMPARE(held.bytes.size(), std::size_t(4u << 20));
        QVERIFY(held.keep);
        QVERIFY(std::memcmp(held.bytes.data(), file.constData() + at, held.bytes.size()) == 0);
        // The same bytes twice are the same memory: lent, not copied.
        QCOMPARE(source.hold(at, 16).bytes.data(), held.bytes.data());
        // A range running past the end of that transfer is not lent (it would need another).
        QVERIFY(source.hold(at, 8u << 20).bytes.empty());
        // The head (prefix and header) is read() from its own buffer.
        QVERIFY(source.hold(0, 8).bytes.empty());
    }

    void transferredBytesAreCountedForTheReader()
    {
        const ProgressSink count{ProgressSink::Listener{}};
        {
            const ReadScope scope(std::nullopt, count);
            QVERIFY(openRemote(QStringLiteral("tiny_face_detector_u8.safetensors")));
        }
        // This file's lines only: nginx logs a response after sending it, so the previous test's
        // last read (of another file) may land in this test's log.
        QList<QJsonObject> requests = m_nginx.waitForRequests(1);
        requests.removeIf([](const QJsonObject& r) {
            return !r.value(QStringLiteral("uri"))
                        .toString()
                        .endsWith(QLatin1String("/tiny_face_detector_u8.safetensors"));
        });
        QVERIFY(!requests.isEmpty());
        QCOMPARE(count.progress().bytesDone, static_cast<std::uint64_t>(bodyBytes(requests)));
    }
};

QTEST_GUILESS_MAIN(TestRemoteSource)
#include "tst_remote_source.moc"
