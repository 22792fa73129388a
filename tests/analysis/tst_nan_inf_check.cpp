// The NaN/Inf-only check (ScanOptions::nanInfOnly, `scan --nan-inf-only`): for every dtype its
// counts, recorded indices and findings equal the full scan's, which the other suites check
// against numpy and planted anomalies; plus the planted fixture, refusals and a truncated file.
#include "AnalysisTestUtil.h"

#include "analysis/ModelScanner.h"
#include "checkpoint/Checkpoint.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <hwy/targets.h>

#include <random>

#include <unistd.h>

using namespace ts;

namespace {

constexpr std::size_t kStretch = 4096; // NanInfCounter's per-element look

// Every NaN and Inf flavour of a dtype, as little-endian element bits (C64: the real part; the
// imaginary part gets them too, see mixedBytes): +Inf, -Inf, signalling and quiet NaN of both
// signs. Written out here from the formats' definitions, not taken from the code under test.
std::vector<std::uint64_t> specialEncodings(Dtype dtype)
{
    switch (dtype) {
    case Dtype::F64:
        return {0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff0000000000001ull, 0x7ff8000000000000ull,
                0xfff7ffffffffffffull};
    case Dtype::F32:
    case Dtype::C64:
        return {0x7f800000u, 0xff800000u, 0x7f800001u, 0x7fc00000u, 0xffbfffffu};
    case Dtype::F16:
        return {0x7c00u, 0xfc00u, 0x7c01u, 0x7e00u, 0xfdffu};
    case Dtype::BF16:
        return {0x7f80u, 0xff80u, 0x7f81u, 0x7fc0u, 0xffbfu};
    case Dtype::F8_E5M2:
        return {0x7cu, 0xfcu, 0x7du, 0x7eu, 0xffu};
    case Dtype::F8_E4M3:
        return {0x7fu, 0xffu};
    case Dtype::F8_E8M0:
        return {0xffu};
    case Dtype::F8_E4M3FNUZ:
    case Dtype::F8_E5M2FNUZ:
        return {0x80u};
    default:
        return {};
    }
}

// Raw bytes for `elements` of `dtype` in stretches of three kinds: random bytes (every encoding,
// NaN and Inf among them where the dtype has them), all zero bytes (none), and zeros with one
// element of a single NaN/Inf flavour (taking turns), so a check that missed any one flavour
// would miss a whole stretch.
QByteArray mixedBytes(Dtype dtype, std::uint64_t elements, std::mt19937& rng)
{
    const std::uint64_t bits = static_cast<std::uint64_t>(dtypeBits(dtype));
    QByteArray b(static_cast<qsizetype>((elements * bits + 7) / 8), '\0');
    const std::vector<std::uint64_t> specials = specialEncodings(dtype);
    const std::uint64_t elementBytes = bits / 8;
    for (std::uint64_t s = 0; s * kStretch < elements; ++s) {
        const std::uint64_t first = s * kStretch;
        const std::uint64_t count = std::min<std::uint64_t>(kStretch, elements - first);
        if (s % 3 == 0) {
            const std::uint64_t firstByte = first * bits / 8;
            const std::uint64_t bytes = std::min<std::uint64_t>(
                static_cast<std::uint64_t>(b.size()) - firstByte, (count * bits + 7) / 8);
            for (std::uint64_t i = 0; i < bytes; ++i)
                b[static_cast<qsizetype>(firstByte + i)] = static_cast<char>(rng());
        } else if (s % 3 == 2 && !specials.empty()) {
            const std::uint64_t code = specials[(s / 3) % specials.size()];
            const std::uint64_t at = first + rng() % count;
            // C64: the flavour goes in the real part on even turns, the imaginary part on odd ones.
            const std::uint64_t partOffset = dtype == Dtype::C64 && (s / 3) % 2 ? 4 : 0;
            const std::uint64_t codeBytes = dtype == Dtype::C64 ? 4 : elementBytes;
            for (std::uint64_t i = 0; i < codeBytes; ++i)
                b[static_cast<qsizetype>(at * elementBytes + partOffset + i)] =
                    static_cast<char>(code >> (8 * i));
        }
    }
    return b;
}

// Cuts the open model's file to `size` bytes under it, then runs the NaN/Inf check.
Result<ScanResult> checkAfterCut(const std::shared_ptr<const Checkpoint>& model, const QString& path,
                                 std::uint64_t size)
{
    if (::truncate(QFile::encodeName(path).constData(), static_cast<off_t>(size)) != 0)
        qFatal("cannot truncate %s", qPrintable(path));
    ScanOptions o;
    o.nanInfOnly = true;
    return ModelScanner(model, o).run();
}

ScanResult scan(const std::shared_ptr<const Checkpoint>& model, bool nanInfOnly, int threads)
{
    ScanOptions o;
    o.nanInfOnly = nanInfOnly;
    o.threads = threads;
    auto r = ModelScanner(model, o).run();
    if (!r)
        qFatal("%s", qPrintable(r.error().toString()));
    return std::move(r.value());
}

} // namespace

class TestNanInfCheck : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyDtypeMatchesTheFullScan()
    {
        QTemporaryDir dir;
        std::mt19937 rng(23);
        std::vector<WriterTensor> tensors;
        for (Dtype dtype : allDtypes()) {
            const std::uint64_t n = 5 * kStretch + 80; // the last stretch short; whole bytes for F4/F6
            tensors.push_back(test::memoryTensor(QStringLiteral("small.") + dtypeName(dtype), dtype, {n},
                                                 mixedBytes(dtype, n, rng)));
        }
        // Past one 4 MiB read and one 8 MiB scan chunk: pieces and chunks are merged in order.
        for (Dtype dtype : {Dtype::F32, Dtype::BF16, Dtype::F8_E5M2}) {
            const std::uint64_t n = (9u << 20) / static_cast<std::uint64_t>(dtypeBits(dtype) / 8);
            tensors.push_back(test::memoryTensor(QStringLiteral("big.") + dtypeName(dtype), dtype, {n},
                                                 mixedBytes(dtype, n, rng)));
        }
        const QString path = dir.path() + QStringLiteral("/all.safetensors");
        auto written = SafetensorsWriter::write(path, std::move(tensors), std::nullopt);
        QVERIFY2(written, qPrintable(test::errText(written)));
        auto model = Checkpoint::open(path);
        QVERIFY2(model, qPrintable(test::errText(model)));

        // On every instruction set the binary carries (the dispatcher forced to each in turn):
        // both the check's pattern test and the full statistics' decoders are SIMD kernels.
        std::uint64_t special = 0;
        for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
            hwy::SetSupportedTargetsForTest(target);
            const QByteArray where = QByteArray(hwy::TargetName(target)) + ": ";
            compareWithFullScan(*model, where, special);
            hwy::SetSupportedTargetsForTest(0);
            if (QTest::currentTestFailed())
                return;
        }
        QVERIFY2(special > 10000, "the data must hold NaN and Inf for the comparison to mean anything");
    }

private:
    // The NaN/Inf check against the full scan on `model`: counts, indices, findings; adds the
    // number of NaN/Inf values seen to `special`.
    void compareWithFullScan(const std::shared_ptr<const Checkpoint>& model, const QByteArray& where,
                             std::uint64_t& special)
    {
        const ScanResult full = scan(model, false, 2);
        for (int threads : {1, 2}) {
            const ScanResult quick = scan(model, true, threads);
            QCOMPARE(quick.tensors.size(), full.tensors.size());
            for (std::size_t i = 0; i < full.tensors.size(); ++i) {
                const ValueStats& a = full.tensors[i].values;
                const ValueStats& b = quick.tensors[i].values;
                const QByteArray what = where + full.tensors[i].name.toUtf8();
                QVERIFY(quick.tensors[i].nanInfOnly);
                QVERIFY2(b.count == a.count && b.finite == a.finite, what.constData());
                QVERIFY2(b.nan == a.nan && b.posinf == a.posinf && b.neginf == a.neginf, what.constData());
                QVERIFY2(b.nanIndices == a.nanIndices && b.infIndices == a.infIndices, what.constData());
                if (threads == 1)
                    special += a.nan + a.posinf + a.neginf;
            }
            // The same NaN/Inf findings, in the same order, at the same byte offsets; nothing else.
            std::vector<Diagnostic> want;
            for (const Diagnostic& d : full.findings) {
                if (d.code == QLatin1String("NanValues") || d.code == QLatin1String("InfValues"))
                    want.push_back(d);
            }
            QCOMPARE(quick.findings.size(), want.size());
            for (std::size_t i = 0; i < want.size(); ++i) {
                QCOMPARE(quick.findings[i].code, want[i].code);
                QCOMPARE(quick.findings[i].tensor, want[i].tensor);
                QCOMPARE(quick.findings[i].message, want[i].message);
                QCOMPARE(quick.findings[i].offset, want[i].offset);
            }
        }
    }

private Q_SLOTS:
    void plantedAnomaliesAreFoundAndNothingElse()
    {
        const QString path = test::realFixture(QStringLiteral("age_gender_anomalies_f32.safetensors"));
        TS_REQUIRE_FIXTURE(path);
        auto model = Checkpoint::open(path);
        QVERIFY2(model, qPrintable(test::errText(model)));
        const ScanResult r = scan(*model, true, 2);
        QStringList codes;
        for (const Diagnostic& d : r.findings)
            codes << d.code + QLatin1Char(':') + d.tensor;
        QCOMPARE(codes, (QStringList{QStringLiteral("NanValues:fc.age.weights"),
                                     QStringLiteral("InfValues:fc.gender.bias")}));
        for (const TensorStats& t : r.tensors) {
            if (t.name == QLatin1String("fc.age.weights"))
                QCOMPARE(t.values.nanIndices, (std::vector<std::uint64_t>{5, 77}));
        }
    }

    void histogramsAreRefused()
    {
        const QString path = test::realFixture(QStringLiteral("face_landmark_68_f32.safetensors"));
        TS_REQUIRE_FIXTURE(path);
        auto model = Checkpoint::open(path);
        QVERIFY(model);
        ScanOptions o;
        o.nanInfOnly = true;
        o.histogramBins = 16;
        auto r = ModelScanner(*model, o).run();
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::InvalidArgument);
    }

    // An integer tensor has no NaN/Inf code: the check reads none of it and counts only what it
    // read, but a file that lost its bytes is still an error, as a read would have made it.
    void dtypesWithoutNanInfAreNotReadButStillChecked()
    {
        QTemporaryDir dir;
        std::vector<float> f(1000, 1.0f);
        std::vector<std::int32_t> ints(3'000'000, 7);
        const QString path = dir.path() + QStringLiteral("/mixed.safetensors");
        auto written = SafetensorsWriter::write(
            path,
            {test::memoryTensor(QStringLiteral("f"), Dtype::F32, {f.size()}, test::bytesOf(f)),
             test::memoryTensor(QStringLiteral("i"), Dtype::I32, {ints.size()}, test::bytesOf(ints))},
            std::nullopt);
        QVERIFY(written);
        auto model = Checkpoint::open(path);
        QVERIFY(model);
        QCOMPARE(scan(*model, false, 2).bytes, std::uint64_t(4000 + 12'000'000));
        const ScanResult quick = scan(*model, true, 2);
        QCOMPARE(quick.bytes, std::uint64_t(4000));
        QCOMPARE(quick.tensors.size(), std::size_t(2));
        for (const TensorStats& t : quick.tensors)
            QCOMPARE(t.values.finite, t.values.count);

        // Cut a file that holds only the integer tensor: no other read could notice the change.
        const QString alone = dir.path() + QStringLiteral("/ints.safetensors");
        QVERIFY(SafetensorsWriter::write(
            alone, {test::memoryTensor(QStringLiteral("i"), Dtype::I32, {ints.size()}, test::bytesOf(ints))},
            std::nullopt));
        auto intsOnly = Checkpoint::open(alone);
        QVERIFY(intsOnly);
        QVERIFY(scan(*intsOnly, true, 1).tensors.size() == 1);
        const auto r = checkAfterCut(*intsOnly, alone, (*intsOnly)->location(0).offset + 4'000'000);
        QVERIFY2(!r, "an integer tensor cut under the check must not pass as checked");
        QCOMPARE(r.error().tensor, QStringLiteral("i"));
    }

    void truncatedFileEndsWithAnErrorNamingTheTensor()
    {
        QTemporaryDir dir;
        std::vector<float> values(3'000'000, 0.25f);
        const QString path = dir.path() + QStringLiteral("/w.safetensors");
        auto written = SafetensorsWriter::write(
            path,
            {test::memoryTensor(QStringLiteral("w"), Dtype::F32, {values.size()}, test::bytesOf(values))},
            std::nullopt);
        QVERIFY(written);
        auto model = Checkpoint::open(path);
        QVERIFY(model);
        const auto r = checkAfterCut(*model, path, (*model)->location(0).offset + values.size() * 2);
        QVERIFY2(!r, "a file cut under the check must not read as zeros");
        QCOMPARE(r.error().tensor, QStringLiteral("w"));
    }
};

QTEST_GUILESS_MAIN(TestNanInfCheck)
#include "tst_nan_inf_check.moc"
