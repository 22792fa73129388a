// Attacker-controlled sizes at and past their limits (see LIMITS.md): huge N, offsets near 2^64,
// shapes whose product overflows, a header of exactly 100 000 000 bytes and one byte more,
// 1 000 000 tiny tensors, deep nesting, huge metadata. Each goes through the core and the CLI;
// the CLI runs are measured (wall time and the child's peak RSS) and held to stated bounds.
#include "HostileSupport.h"

#include "format/HeaderParser.h"
#include "format/ShardIndex.h"
#include "io/MemorySource.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace ts::test;

namespace {

ts::Result<ts::Header> parse(const QByteArray& bytes)
{
    return ts::parseHeader(ts::MemorySource(bytes, QStringLiteral("crafted.safetensors")));
}

QByteArray tensor(const QByteArray& name, const QByteArray& dtype, const QByteArray& shape,
                  const QByteArray& offsets)
{
    return "\"" + name + "\":{\"dtype\":\"" + dtype + "\",\"shape\":" + shape +
           ",\"data_offsets\":" + offsets + "}";
}

// A header made of `count` one-byte U8 tensors (names t0000000...), padded with spaces to exactly
// `headerBytes`, followed by the `count` data bytes.
QByteArray manyTensors(int count, std::uint64_t headerBytes, const QByteArray& extraField = {})
{
    QByteArray h;
    h.reserve(static_cast<qsizetype>(headerBytes));
    h.append('{');
    for (int i = 0; i < count; ++i) {
        if (i)
            h.append(',');
        h.append("\"t");
        h.append(QByteArray::number(i).rightJustified(7, '0'));
        h.append("\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[");
        h.append(QByteArray::number(i));
        h.append(',');
        h.append(QByteArray::number(i + 1));
        h.append(']');
        h.append(extraField);
        h.append('}');
    }
    h.append('}');
    if (static_cast<std::uint64_t>(h.size()) < headerBytes)
        h.append(QByteArray(static_cast<qsizetype>(headerBytes) - h.size(), ' '));
    return le64(static_cast<std::uint64_t>(h.size())) + h + QByteArray(count, '\x01');
}

} // namespace

class TestHostileLimits : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void crafted_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("error"); // empty: valid
        const QByteArray one = "\x01";
        QTest::newRow("N = 2^64-1") << (le64(~0ULL) + "{}") << QStringLiteral("HeaderTooLarge");
        QTest::newRow("N = 2^63") << (le64(1ULL << 63) + "{}") << QStringLiteral("HeaderTooLarge");
        QTest::newRow("N = 2^32") << (le64(1ULL << 32) + "{}") << QStringLiteral("HeaderTooLarge");
        QTest::newRow("N = 1e8+1") << (le64(100'000'001) + "{}") << QStringLiteral("HeaderTooLarge");
        QTest::newRow("N = 1e8, short")
            << (le64(100'000'000) + "{}") << QStringLiteral("InvalidHeaderLength");
        QTest::newRow("N = 2^64-8 wraps 8+N") << (le64(~0ULL - 7) + "{}") << QStringLiteral("HeaderTooLarge");
        // One tensor cannot span more than 2^61 bytes (its bit count must fit 64 bits)...
        QTest::newRow("offsets [0, 2^64-1]")
            << rawSafetensors(
                   "{" + tensor("a", "U8", "[18446744073709551615]", "[0,18446744073709551615]") + "}", one)
            << QStringLiteral("ValidationOverflow");
        // ...but eight can end at 2^64-8, where 8 + N + end wraps past 2^64.
        QByteArray eight = "{";
        const std::uint64_t span = (1ULL << 61) - 1;
        for (std::uint64_t i = 0; i < 8; ++i) {
            eight +=
                (i ? "," : "") +
                tensor("t" + QByteArray::number(i), "U8", "[" + QByteArray::number(span) + "]",
                       "[" + QByteArray::number(i * span) + "," + QByteArray::number((i + 1) * span) + "]");
        }
        QTest::newRow("offsets end at 2^64-8, sum wraps")
            << rawSafetensors(eight + "}", one) << QStringLiteral("MetadataIncompleteBuffer");
        QTest::newRow("offsets [2^64-1, 0]")
            << rawSafetensors("{" + tensor("a", "U8", "[1]", "[18446744073709551615,0]") + "}", one)
            << QStringLiteral("InvalidOffset");
        QTest::newRow("offset 2^64") << rawSafetensors(
                                            "{" + tensor("a", "U8", "[1]", "[0,18446744073709551616]") + "}",
                                            one)
                                     << QStringLiteral("InvalidHeaderDeserialization");
        QTest::newRow("shape 2^32 x 2^32")
            << rawSafetensors("{" + tensor("a", "U8", "[4294967296,4294967296]", "[0,1]") + "}", one)
            << QStringLiteral("ValidationOverflow");
        QTest::newRow("shape x bits overflows")
            << rawSafetensors("{" + tensor("a", "F32", "[4611686018427387904]", "[0,1]") + "}", one)
            << QStringLiteral("ValidationOverflow");
        QTest::newRow("shape [0, u64 max]")
            << rawSafetensors("{" + tensor("a", "F64", "[0,18446744073709551615]", "[0,0]") + "}")
            << QString();
        QTest::newRow("negative dim") << rawSafetensors("{" + tensor("a", "U8", "[-1]", "[0,1]") + "}", one)
                                      << QStringLiteral("InvalidHeaderDeserialization");
        QByteArray rank("[1");
        for (int i = 1; i < 1'000'000; ++i)
            rank.append(",1");
        rank.append(']');
        QTest::newRow("rank 1 000 000")
            << rawSafetensors("{" + tensor("a", "U8", rank, "[0,1]") + "}", one) << QString();
        QTest::newRow("nesting 1 000 000")
            << rawSafetensors(QByteArray(1'000'000, '[') + QByteArray(1'000'000, ']'))
            << QStringLiteral("InvalidHeaderDeserialization");
        QTest::newRow("nesting 127 (serde's limit - 1)")
            << rawSafetensors("{" + tensor("a", "U8", "[1]", "[0,1]").chopped(1) +
                                  ",\"x\":" + QByteArray(125, '[') + QByteArray(125, ']') + "}}",
                              one)
            << QString();
        QTest::newRow("nesting 128") << rawSafetensors("{" + tensor("a", "U8", "[1]", "[0,1]").chopped(1) +
                                                           ",\"x\":" + QByteArray(126, '[') +
                                                           QByteArray(126, ']') + "}}",
                                                       one)
                                     << QStringLiteral("InvalidHeaderDeserialization");
        QTest::newRow("name of 10 MB")
            << rawSafetensors("{" + tensor(QByteArray(10'000'000, 'n'), "U8", "[1]", "[0,1]") + "}", one)
            << QString();
    }

    void crafted()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, error);
        auto r = parse(bytes);
        QVERIFY2(r.ok() == error.isEmpty(), r.ok() ? "accepted" : qPrintable(r.error().toString().left(300)));
        if (!r.ok())
            QCOMPARE(ts::errorCodeName(r.error().code), error);
        const QString path = m_tmp.filePath(QStringLiteral("crafted.safetensors"));
        QVERIFY(writeFile(path, bytes));
        for (const char* command : {"validate", "info"}) {
            const ProcessRun run = runCli({QLatin1String(command), path});
            HOSTILE_EXPECT_EXIT(run, error.isEmpty() ? 0 : 1);
            if (!error.isEmpty())
                QVERIFY2(run.out.contains(error.toUtf8()) || run.err.contains(error.toUtf8()),
                         qPrintable(run.describe()));
        }
    }

    // The biggest header the format allows, holding a million tensors, and the same plus one byte.
    // Bound (see LIMITS.md): under 1 GiB peak RSS each (measured 655 MiB).
    void header100MbMillionTensors()
    {
        const QString path = m_tmp.filePath(QStringLiteral("limit.safetensors"));
        {
            const QByteArray bytes = manyTensors(1'000'000, ts::kMaxHeaderSize);
            QCOMPARE(bytes.size(), qsizetype(8 + ts::kMaxHeaderSize + 1'000'000));
            QVERIFY(writeFile(path, bytes));
        } // freed before forking, or the child's peak RSS would include this copy
        for (const char* command : {"validate", "info"}) {
            const ProcessRun run = runCli({QLatin1String(command), path}, withTimeout(120'000));
            HOSTILE_EXPECT_EXIT(run, 0);
            qInfo("%s, 100 MB header, 1 000 000 tensors: %lld ms, peak RSS %ld MiB", command, run.elapsedMs,
                  run.peakRssKb / 1024);
            HOSTILE_EXPECT_RSS_BELOW(run, kRssBoundKb);
        }
        // One byte over the limit: refused from the prefix alone, without reading the header.
        QVERIFY(writeFile(path, manyTensors(1'000'000, ts::kMaxHeaderSize + 1)));
        const ProcessRun run = runCli({QStringLiteral("validate"), path});
        HOSTILE_EXPECT_EXIT(run, 1);
        QVERIFY2(run.out.contains("HeaderTooLarge"), qPrintable(run.describe()));
        qInfo("validate, N = 100 000 001: %lld ms, peak RSS %ld MiB", run.elapsedMs, run.peakRssKb / 1024);
        HOSTILE_EXPECT_RSS_BELOW(run, 64 * 1024);
        QFile::remove(path);
    }

    // A million tensors that each earn a warning (an unknown field): the warnings are capped, so
    // memory does not grow by a sentence per tensor.
    void millionWarnings()
    {
        const QString path = m_tmp.filePath(QStringLiteral("warnings.safetensors"));
        QVERIFY(writeFile(path, manyTensors(1'000'000, 0, ",\"x\":0")));
        const ProcessRun run = runCli({QStringLiteral("validate"), path}, withTimeout(120'000));
        HOSTILE_EXPECT_EXIT(run, 0);
        qInfo("validate, 1 000 000 tensors with an extra field: %lld ms, peak RSS %ld MiB", run.elapsedMs,
              run.peakRssKb / 1024);
        QVERIFY2(run.out.count('\n') < 200, "the warnings are not capped");
        HOSTILE_EXPECT_RSS_BELOW(run, kRssBoundKb);
        QFile::remove(path);
    }

    // Metadata at the size limit: one 99 MB value, and a million keys (the duplicate-key check
    // must not be quadratic).
    void hugeMetadata_data()
    {
        QTest::addColumn<int>("keys");
        QTest::newRow("one 99 MB value") << 1;
        QTest::newRow("1 000 000 keys") << 1'000'000;
    }
    void hugeMetadata()
    {
        QFETCH(int, keys);
        QByteArray meta = "{";
        if (keys == 1) {
            meta += "\"big\":\"" + QByteArray(99'000'000, 'v') + "\"";
        } else {
            for (int i = 0; i < keys; ++i) {
                if (i)
                    meta += ',';
                meta += "\"key" + QByteArray::number(i) + "\":\"value\"";
            }
        }
        meta += "}";
        const QString path = m_tmp.filePath(QStringLiteral("meta.safetensors"));
        QVERIFY(writeFile(path, u8Safetensors({{QStringLiteral("w"), 4}}, meta)));
        const qsizetype metaBytes = meta.size();
        meta = QByteArray(); // freed before forking
        for (const char* command : {"validate", "info"}) {
            const ProcessRun run = runCli({QLatin1String(command), path}, withTimeout(60'000));
            HOSTILE_EXPECT_EXIT(run, 0);
            qInfo("%s, metadata with %d key(s), %lld-byte header: %lld ms, peak RSS %ld MiB", command, keys,
                  qlonglong(metaBytes), run.elapsedMs, run.peakRssKb / 1024);
            HOSTILE_EXPECT_RSS_BELOW(run, kRssBoundKb);
        }
        QFile::remove(path);
    }

    // The worst case for memory: simdjson's DOM costs about 16 bytes per number, so a 100 MB
    // header that is one 50-million-dimension shape peaks near 1.8 GiB. The bound for any file.
    void hugeShapeRank()
    {
        const QString path = m_tmp.filePath(QStringLiteral("rank.safetensors"));
        {
            QByteArray shape;
            shape.reserve(100'000'000);
            shape.append("[1");
            const qsizetype fixed =
                qsizetype(sizeof("{\"a\":{\"dtype\":\"U8\",\"shape\":],\"data_offsets\":[0,1]}}")) - 1;
            while (shape.size() + 2 + fixed <= qsizetype(ts::kMaxHeaderSize))
                shape.append(",1");
            shape.append(']');
            QVERIFY(writeFile(path, rawSafetensors(QByteArray("{\"a\":{\"dtype\":\"U8\",\"shape\":") + shape +
                                                       ",\"data_offsets\":[0,1]}}",
                                                   "\x01", 1)));
        }
        const ProcessRun run = runCli({QStringLiteral("validate"), path}, withTimeout(120'000));
        HOSTILE_EXPECT_EXIT(run, 0);
        qInfo("validate, shape of rank %lld in a %lld-byte header: %lld ms, peak RSS %ld MiB",
              qlonglong((QFileInfo(path).size() - 60) / 2), qlonglong(QFileInfo(path).size() - 9),
              run.elapsedMs, run.peakRssKb / 1024);
        HOSTILE_EXPECT_RSS_BELOW(run, kWorstCaseBoundKb);
        QFile::remove(path);
    }

    // A shard index may name at most kMaxShardFiles files: each would hold a descriptor.
    void shardCount()
    {
        auto indexWith = [](std::size_t shards) -> QByteArray {
            QByteArray json = "{\"weight_map\":{";
            for (std::size_t i = 0; i < shards; ++i)
                json += QByteArray(i ? "," : "") + "\"t" + QByteArray::number(qulonglong(i)) + "\":\"s" +
                        QByteArray::number(qulonglong(i)) + ".safetensors\"";
            return json + "}}";
        };
        auto atLimit = ts::ShardIndex::parse(indexWith(ts::kMaxShardFiles), QStringLiteral("index.json"));
        QVERIFY(atLimit);
        QCOMPARE(atLimit->shardFiles.size(), ts::kMaxShardFiles);
        auto over = ts::ShardIndex::parse(indexWith(ts::kMaxShardFiles + 1), QStringLiteral("index.json"));
        QVERIFY(!over);
        QCOMPARE(over.error().code, ts::ErrorCode::LimitExceeded);
    }

private:
    static constexpr long kRssBoundKb = 1024L * 1024;       // headers of tensors and metadata
    static constexpr long kWorstCaseBoundKb = 2048L * 1024; // any file
    QTemporaryDir m_tmp;
};

QTEST_GUILESS_MAIN(TestHostileLimits)
#include "tst_hostile_limits.moc"
