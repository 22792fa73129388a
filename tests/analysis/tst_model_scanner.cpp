// The whole-model scan: planted anomalies, thread-count independence, cancellation, a file
// truncated under the scan, progress reports.
#include "AnalysisTestUtil.h"

#include "analysis/ModelScanner.h"
#include "checkpoint/Checkpoint.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <chrono>
#include <memory>
#include <random>
#include <thread>
#include <utility>

#include <unistd.h>

using namespace ts;

namespace {

// A model with one big F32 tensor (many chunks) and many small ones, from a fixed seed.
QString writeBigModel(const QString& dir, std::size_t bigElements)
{
    std::mt19937 rng(11);
    std::normal_distribution<float> dist(0.5f, 2.0f);
    std::vector<WriterTensor> tensors;
    std::vector<float> big(bigElements);
    for (float& v : big)
        v = dist(rng);
    big[bigElements / 2 + 3] = std::numeric_limits<float>::quiet_NaN();
    big[bigElements - 1] = -std::numeric_limits<float>::infinity();
    tensors.push_back(
        test::memoryTensor(QStringLiteral("big"), Dtype::F32, {bigElements}, test::bytesOf(big)));
    for (int i = 0; i < 200; ++i) {
        std::vector<std::uint16_t> small(257 + static_cast<std::size_t>(i));
        for (auto& v : small)
            v = static_cast<std::uint16_t>(rng());
        tensors.push_back(test::memoryTensor(QStringLiteral("small.%1").arg(i), Dtype::F16, {small.size()},
                                             test::bytesOf(small)));
    }
    const QString path = dir + QStringLiteral("/big.safetensors");
    auto ok = SafetensorsWriter::write(path, std::move(tensors), std::nullopt);
    if (!ok)
        qFatal("%s", qPrintable(ok.error().toString()));
    return path;
}

const Diagnostic* findingFor(const ScanResult& r, const QString& code, const QString& tensor)
{
    for (const Diagnostic& d : r.findings) {
        if (d.code == code && d.tensor == tensor)
            return &d;
    }
    return nullptr;
}

// Runs a scan that cancels itself once `cancelAt` bytes were read. Interval 0: the sink reports
// every read, so the cancel lands right after that many bytes.
Result<ScanResult> runCancelledAfter(std::shared_ptr<const Checkpoint> model, const ScanOptions& options,
                                     std::uint64_t cancelAt)
{
    ModelScanner scanner(std::move(model), options);
    JobControl control;
    control.progress = ProgressSink(
        [&control, cancelAt](const Progress& p) {
            if (p.bytesDone >= cancelAt)
                control.cancel.cancel();
        },
        std::chrono::milliseconds(0));
    scanner.setControl(control);
    return scanner.run();
}

} // namespace

class TestModelScanner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void plantedAnomaliesAreFoundAndNothingElse()
    {
        const QString name = QStringLiteral("age_gender_anomalies_f32.safetensors");
        const QString path = test::realFixture(name);
        TS_REQUIRE_FIXTURE(path);
        QFile plantedFile(test::realFixture(QStringLiteral("age_gender_anomalies_f32.planted.json")));
        QVERIFY2(plantedFile.open(QIODevice::ReadOnly), "planted.json missing from the shared fixtures");
        const QJsonObject planted = QJsonDocument::fromJson(plantedFile.readAll()).object();
        QCOMPARE(planted.size(), 4);

        auto model = Checkpoint::open(path);
        QVERIFY2(model, qPrintable(test::errText(model)));
        ModelScanner scanner(*model, ScanOptions{});
        auto result = scanner.run();
        QVERIFY2(result, qPrintable(test::errText(result)));

        auto statsOf = [&](const QString& tensor) -> const TensorStats& {
            for (const TensorStats& t : result->tensors) {
                if (t.name == tensor)
                    return t;
            }
            qFatal("no stats for %s", qPrintable(tensor));
        };
        for (auto it = planted.begin(); it != planted.end(); ++it) {
            const QString tensor = it.key();
            const QString kind = it.value()[QStringLiteral("kind")].toString();
            std::vector<std::uint64_t> indices;
            for (const QJsonValue& v : it.value()[QStringLiteral("flat_indices")].toArray())
                indices.push_back(static_cast<std::uint64_t>(v.toInt()));
            const TensorStats& s = statsOf(tensor);
            const std::uint64_t elementBytes = 4;
            const std::uint64_t base = (*model)->location((*model)->indexOf(tensor)).offset;
            if (kind == QLatin1String("nan")) {
                QCOMPARE(s.values.nanIndices, indices);
                const Diagnostic* d = findingFor(*result, QStringLiteral("NanValues"), tensor);
                QVERIFY(d);
                QCOMPARE(d->severity, Severity::Error);
                QVERIFY(d->message.contains(tensor));
                QCOMPARE(d->offset, std::optional<std::uint64_t>(base + indices.front() * elementBytes));
            } else if (kind == QLatin1String("+inf")) {
                QCOMPARE(s.values.infIndices, indices);
                QCOMPARE(s.values.posinf, std::uint64_t(indices.size()));
                const Diagnostic* d = findingFor(*result, QStringLiteral("InfValues"), tensor);
                QVERIFY(d);
                QCOMPARE(d->severity, Severity::Error);
                QCOMPARE(d->offset, std::optional<std::uint64_t>(base + indices.front() * elementBytes));
            } else if (kind == QLatin1String("zero_all")) {
                QVERIFY(findingFor(*result, QStringLiteral("AllZero"), tensor));
            } else if (kind == QLatin1String("big")) {
                QCOMPARE(s.values.absmaxIndex, std::optional<std::uint64_t>(indices.front()));
                const Diagnostic* d = findingFor(*result, QStringLiteral("ExtremeOutlier"), tensor);
                QVERIFY(d);
                QCOMPARE(d->offset, std::optional<std::uint64_t>(base + indices.front() * elementBytes));
                QVERIFY(findingFor(*result, QStringLiteral("F16Overflow"), tensor));
            } else {
                QFAIL(qPrintable(QStringLiteral("unknown planted kind ") + kind));
            }
        }
        // Nothing else: NaN/Inf only where planted, and no other warnings or errors at all.
        for (const Diagnostic& d : result->findings) {
            if (d.severity == Severity::Info && d.code == QLatin1String("F16Overflow"))
                continue;
            QVERIFY2(planted.contains(d.tensor),
                     qPrintable(QStringLiteral("unexpected finding: ") + d.message));
        }
        int nanInf = 0;
        for (const TensorStats& t : result->tensors)
            nanInf += (t.values.nan + t.values.posinf + t.values.neginf) > 0;
        QCOMPARE(nanInf, 2);
    }

    void cleanRealModelsHaveNoErrors()
    {
        for (const QString& name : {QStringLiteral("face_recognition_f16.safetensors"),
                                    QStringLiteral("ssd_mobilenetv1_bf16.safetensors"),
                                    QStringLiteral("face_landmark_68_f32.safetensors")}) {
            const QString path = test::realFixture(name);
            TS_REQUIRE_FIXTURE(path);
            auto model = Checkpoint::open(path);
            QVERIFY(model);
            auto result = ModelScanner(*model).run();
            QVERIFY2(result, qPrintable(test::errText(result)));
            for (const Diagnostic& d : result->findings)
                QVERIFY2(d.severity != Severity::Error, qPrintable(d.message));
        }
    }

    void shardedModelScansEveryShard()
    {
        const QString dir = test::realFixture(QStringLiteral("face_recognition_sharded"));
        TS_REQUIRE_FIXTURE(dir);
        auto model = Checkpoint::open(dir);
        QVERIFY2(model, qPrintable(test::errText(model)));
        auto result = ModelScanner(*model).run();
        QVERIFY2(result, qPrintable(test::errText(result)));
        QCOMPARE(result->tensors.size(), (*model)->tensors().size());
        QCOMPARE(result->bytes, (*model)->totalTensorBytes());
    }

    void threadedEqualsSingleThreaded()
    {
        QTemporaryDir dir;
        const QString path = writeBigModel(dir.path(), 3'000'000);
        auto model = Checkpoint::open(path);
        QVERIFY(model);
        auto scan = [&](int threads, std::uint64_t chunk, int bins) {
            ScanOptions o;
            o.threads = threads;
            o.chunkBytes = chunk;
            o.histogramBins = bins;
            auto r = ModelScanner(*model, o).run();
            if (!r)
                qFatal("%s", qPrintable(r.error().toString()));
            return std::move(r.value());
        };
        const ScanResult one = scan(1, 1 << 20, 100);
        const ScanResult many = scan(4, 1 << 20, 100);
        const ScanResult coarse = scan(2, 64 << 20, 100); // one chunk per tensor: a different split
        QCOMPARE(one.tensors.size(), std::size_t(201));
        for (const ScanResult* other : {&many, &coarse}) {
            for (std::size_t i = 0; i < one.tensors.size(); ++i) {
                const ValueStats& a = one.tensors[i].values;
                const ValueStats& b = other->tensors[i].values;
                QCOMPARE(b.count, a.count);
                QCOMPARE(b.nan, a.nan);
                QCOMPARE(b.posinf, a.posinf);
                QCOMPARE(b.neginf, a.neginf);
                QCOMPARE(b.zeros, a.zeros);
                QCOMPARE(b.subnormals, a.subnormals);
                QCOMPARE(b.nanIndices, a.nanIndices);
                QCOMPARE(b.infIndices, a.infIndices);
                QCOMPARE(b.min, a.min);
                QCOMPARE(b.max, a.max);
                QCOMPARE(b.absmaxIndex, a.absmaxIndex);
                QCOMPARE(other->histograms[i]->counts, one.histograms[i]->counts);
                QVERIFY(std::fabs(b.std - a.std) <= 1e-12 * a.std);
            }
        }
        // Same chunking, different thread counts: bit-identical, mean and std included.
        for (std::size_t i = 0; i < one.tensors.size(); ++i) {
            QCOMPARE(many.tensors[i].values.mean, one.tensors[i].values.mean);
            QCOMPARE(many.tensors[i].values.std, one.tensors[i].values.std);
        }
        QCOMPARE(one.tensors[0].values.nanIndices, (std::vector<std::uint64_t>{1'500'003}));
        QCOMPARE(one.tensors[0].values.infIndices, (std::vector<std::uint64_t>{2'999'999}));
        QCOMPARE(one.findings.size(), many.findings.size());
    }

    void cancelReturnsQuickly()
    {
        QTemporaryDir dir;
        const QString path = writeBigModel(dir.path(), 60'000'000); // 240 MB
        auto model = Checkpoint::open(path);
        QVERIFY(model);
        ScanOptions o;
        o.threads = 2;
        o.histogramBins = 256;
        ModelScanner scanner(*model, o);
        std::atomic<int> reports{0};
        std::atomic<std::uint64_t> lastDone{0};
        scanner.setProgressCallback(
            [&](const ScanProgress& p) {
                ++reports;
                lastDone = p.bytesDone;
                lastDone.notify_all();
            },
            10);
        std::chrono::steady_clock::time_point cancelledAt;
        // Cancels once the scan has read something: it waits on the progress, not on a clock.
        std::thread canceller([&] {
            lastDone.wait(0);
            cancelledAt = std::chrono::steady_clock::now();
            scanner.cancel();
        });
        auto result = scanner.run();
        const auto returnedAt = std::chrono::steady_clock::now();
        if (lastDone.load() == 0) { // a scan that never reported: release the canceller (and fail below)
            lastDone = ~0ull;
            lastDone.notify_all();
        }
        canceller.join();
        QVERIFY(!result);
        QCOMPARE(result.error().code, ErrorCode::Cancelled);
        QVERIFY(reports.load() >= 1);
        const auto ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(returnedAt - cancelledAt).count();
        qInfo("cancel returned after %lld ms", static_cast<long long>(ms));
        // The 100 ms goal is measured in tests/bench/analysis; here only "it stops, promptly".
        QVERIFY2(ms < 1000, qPrintable(QStringLiteral("cancel took %1 ms").arg(ms)));
    }

    void progressIsMonotonicAndComplete()
    {
        QTemporaryDir dir;
        const QString path = writeBigModel(dir.path(), 8'000'000);
        auto model = Checkpoint::open(path);
        QVERIFY(model);
        ModelScanner scanner(*model);
        std::vector<ScanProgress> seen;
        scanner.setProgressCallback([&](const ScanProgress& p) { seen.push_back(p); }, 5);
        auto result = scanner.run();
        QVERIFY(result);
        QVERIFY(!seen.empty());
        for (std::size_t i = 1; i < seen.size(); ++i)
            QVERIFY(seen[i].bytesDone >= seen[i - 1].bytesDone);
        QCOMPARE(seen.back().bytesDone, seen.back().bytesTotal); // the final report says "done"
        QCOMPARE(seen.back().bytesTotal, (*model)->totalTensorBytes());
    }

    void truncatedFileEndsWithAnErrorNamingTheTensor()
    {
        QTemporaryDir dir;
        const QString path = writeBigModel(dir.path(), 4'000'000);
        auto model = Checkpoint::open(path);
        QVERIFY(model);
        // Shrink the file under the open model: the mapping is still there, so touching it would
        // be SIGBUS; the scan reads through the guarded mapping and must report instead.
        const auto& big =
            (*model)->tensors()[static_cast<std::size_t>((*model)->indexOf(QStringLiteral("big")))];
        const std::uint64_t cut =
            (*model)->location((*model)->indexOf(QStringLiteral("big"))).offset + big.info.byteSize() / 2;
        QVERIFY(::truncate(QFile::encodeName(path).constData(), static_cast<off_t>(cut)) == 0);
        auto result = ModelScanner(*model).run();
        QVERIFY(!result);
        QVERIFY2(result.error().message.contains(QStringLiteral("\"big\"")),
                 qPrintable(result.error().toString()));
        QCOMPARE(result.error().tensor, QStringLiteral("big"));
    }

    // The file shrinks while the workers are reading the mapping (truncated from the progress
    // callback, at a different point each round): the scan ends with FileChanged naming a tensor,
    // and the process is still alive to say so.
    void truncatedWhileScanning_data()
    {
        QTest::addColumn<int>("cutPercent");
        QTest::newRow("cut to 10%") << 10;
        QTest::newRow("cut to 50%") << 50;
        QTest::newRow("cut to 90%") << 90;
    }
    void truncatedWhileScanning()
    {
        QFETCH(int, cutPercent);
        QTemporaryDir dir;
        // 2 GiB of zeros in a sparse file (no disk used): long enough to scan that the cut always
        // lands while most of it is still unread, even on a busy machine.
        const QString path = dir.filePath(QStringLiteral("sparse.safetensors"));
        {
            const std::uint64_t bytes = 2ull << 30;
            QByteArray header = "{\"x\":{\"dtype\":\"F32\",\"shape\":[" + QByteArray::number(bytes / 4) +
                                "],\"data_offsets\":[0," + QByteArray::number(bytes) + "]}}";
            while (header.size() % 8)
                header += ' ';
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            const quint64 n = static_cast<quint64>(header.size());
            QVERIFY(f.write(reinterpret_cast<const char*>(&n), 8) == 8 && f.write(header) == header.size());
            QVERIFY(f.resize(8 + header.size() + static_cast<qint64>(bytes)));
        }
        auto model = Checkpoint::open(path);
        QVERIFY(model);
        const auto size = static_cast<off_t>(QFileInfo(path).size());
        ScanOptions o;
        o.threads = 2;
        o.chunkBytes = 1 << 20;
        ModelScanner scanner(*model, o);
        bool cut = false;
        std::uint64_t doneAtCut = 0, total = 0;
        scanner.setProgressCallback(
            [&](const ScanProgress& p) {
                if (!cut) {
                    cut = ::truncate(QFile::encodeName(path).constData(), size * cutPercent / 100) == 0;
                    doneAtCut = p.bytesDone;
                    total = p.bytesTotal;
                }
            },
            1);
        auto result = scanner.run();
        QVERIFY(cut);
        // Pieces are taken in file order, so while the end of the file is still unread, some
        // read past the cut is still to come and must fail.
        QVERIFY2(doneAtCut < total, "the scan had read everything before the first progress report");
        QVERIFY(!result);
        QCOMPARE(result.error().code, ErrorCode::FileChanged);
        QVERIFY2(!result.error().tensor.isEmpty(), qPrintable(result.error().toString()));
    }

    void cancelledScanKeepsWhatItFinished()
    {
        // 16 tensors of 4 MiB, one read item each; the first holds a NaN and two are identical, so
        // a whole scan also reports a duplicate, which a partial one must not claim.
        QTemporaryDir dir;
        constexpr std::size_t kElements = 1u << 20;
        constexpr int kTensors = 16;
        std::mt19937 rng(5);
        std::normal_distribution<float> dist(0.0f, 1.0f);
        std::vector<WriterTensor> tensors;
        std::vector<float> values(kElements);
        for (int i = 0; i < kTensors; ++i) {
            if (i != 9) // layers.9 repeats layers.8
                for (float& v : values)
                    v = dist(rng);
            if (i == 0)
                values[7] = std::numeric_limits<float>::quiet_NaN();
            else if (i == 1)
                values[7] = 0.5f;
            tensors.push_back(test::memoryTensor(QStringLiteral("layers.%1.w").arg(i), Dtype::F32,
                                                 {kElements}, test::bytesOf(values)));
        }
        const QString path = dir.path() + QStringLiteral("/m.safetensors");
        QVERIFY(SafetensorsWriter::write(path, std::move(tensors), std::nullopt));
        auto model = Checkpoint::open(path);
        QVERIFY(model);
        ScanOptions o;
        o.threads = 1;
        o.chunkBytes = 4u << 20;
        auto whole = ModelScanner(*model, o).run();
        QVERIFY(whole);
        QVERIFY(whole->complete);
        QVERIFY(findingFor(*whole, QStringLiteral("DuplicateTensor"), QStringLiteral("layers.9.w")) ||
                findingFor(*whole, QStringLiteral("DuplicateTensor"), QStringLiteral("layers.8.w")));

        o.partialOnCancel = true;
        const std::uint64_t cancelAt = 4ull * kElements * sizeof(float);
        auto partial = runCancelledAfter(*model, o, cancelAt);
        QVERIFY2(partial, partial ? "" : qPrintable(partial.error().toString()));
        QVERIFY(!partial->complete);
        QCOMPARE(partial->planned, std::size_t(kTensors));
        QVERIFY(partial->tensors.size() >= 4);
        QVERIFY(partial->tensors.size() < std::size_t(kTensors));
        for (std::size_t i = 0; i < partial->tensors.size(); ++i) {
            // One thread reads in order: the finished ones are the first, with the whole scan's numbers.
            QCOMPARE(partial->tensors[i].name, whole->tensors[i].name);
            QCOMPARE(partial->tensors[i].values.mean, whole->tensors[i].values.mean);
            QCOMPARE(partial->tensors[i].values.nan, whole->tensors[i].values.nan);
        }
        QVERIFY(findingFor(*partial, QStringLiteral("NanValues"), QStringLiteral("layers.0.w")));
        for (const Diagnostic& d : partial->findings)
            QVERIFY2(d.code != QLatin1String("DuplicateTensor") && d.code != QLatin1String("LayerOutlier"),
                     qPrintable(d.code));
        QCOMPARE(partial->bytes, std::uint64_t(partial->tensors.size()) * kElements * sizeof(float));

        // Two threads may finish a later tensor before an earlier one: the finished ones are
        // gathered in model order, each still carrying its own statistics.
        o.threads = 2;
        auto partial2 = runCancelledAfter(*model, o, cancelAt);
        QVERIFY2(partial2, partial2 ? "" : qPrintable(partial2.error().toString()));
        QVERIFY(!partial2->complete);
        int previous = -1;
        int gaps = 0;
        for (const TensorStats& t : partial2->tensors) {
            const int index = (*model)->indexOf(t.name);
            QVERIFY2(index > previous, qPrintable(t.name));
            gaps += index > previous + 1;
            previous = index;
            QCOMPARE(t.values.mean, whole->tensors[static_cast<std::size_t>(index)].values.mean);
            QCOMPARE(t.values.count, std::uint64_t(kElements));
        }
        qInfo("two threads: %zu of %d tensors finished, %d gap(s) before a finished one",
              partial2->tensors.size(), kTensors, gaps);
    }

    void selectedTensorsOnly()
    {
        const QString path = test::realFixture(QStringLiteral("ssd_mobilenetv1_bf16.safetensors"));
        TS_REQUIRE_FIXTURE(path);
        auto model = Checkpoint::open(path);
        QVERIFY(model);
        ScanOptions o;
        o.tensors = {3, 1};
        auto r = ModelScanner(*model, o).run();
        QVERIFY(r);
        QCOMPARE(r->tensors.size(), std::size_t(2));
        QCOMPARE(r->tensors[0].name, (*model)->tensors()[3].info.name);
        QCOMPARE(r->tensors[1].name, (*model)->tensors()[1].info.name);
        o.tensors = {100000};
        QVERIFY(!ModelScanner(*model, o).run());
    }
};

QTEST_GUILESS_MAIN(TestModelScanner)
#include "tst_model_scanner.moc"
