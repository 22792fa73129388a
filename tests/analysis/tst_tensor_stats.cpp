// Per-tensor statistics and histograms: against numpy on the real fixtures, against a float64
// two-pass reference on large-mean data, and bulk (SIMD) against scalar decoding for all dtypes.
#include "AnalysisTestUtil.h"

#include "analysis/HistogramBuilder.h"
#include "analysis/SimdKernels.h"
#include "analysis/TensorAnalyzer.h"
#include "analysis/ValueAccumulator.h"
#include "checkpoint/Checkpoint.h"
#include "codec/DtypeDecoder.h"

#include <QJsonArray>
#include <QScopeGuard>
#include <QTest>

#include <hwy/targets.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <random>

using namespace ts;

namespace {

bool close(double got, double want, double rel)
{
    if (std::isnan(want))
        return std::isnan(got);
    return std::fabs(got - want) <= rel * std::max(std::fabs(want), 1e-300) || got == want;
}

std::vector<std::uint64_t> toCounts(const QJsonValue& v)
{
    std::vector<std::uint64_t> out;
    for (const QJsonValue& x : v.toArray())
        out.push_back(static_cast<std::uint64_t>(x.toDouble()));
    return out;
}

std::vector<std::uint64_t> toIndices(const QJsonValue& v)
{
    return toCounts(v);
}

TensorStats statsOf(Dtype dtype, std::vector<std::uint64_t> shape, const QByteArray& bytes)
{
    TensorInfo info;
    info.name = QStringLiteral("t");
    info.dtype = dtype;
    info.shape = std::move(shape);
    info.end = static_cast<std::uint64_t>(bytes.size());
    TensorAnalyzer analyzer(test::memoryLocation(bytes), info);
    auto r = analyzer.stats();
    if (!r)
        qFatal("stats failed: %s", qPrintable(test::errText(r)));
    return r.value();
}

} // namespace

class TestTensorStats : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // On every instruction set the binary carries, the dispatcher forced to each in turn: a CPU
    // without AVX2 (or a VM hiding it) runs other kernels, and they must give the same numbers.
    void realFixturesMatchNumpy_data()
    {
        QTest::addColumn<qint64>("target");
        for (const std::int64_t target : hwy::SupportedAndGeneratedTargets())
            QTest::newRow(hwy::TargetName(target)) << static_cast<qint64>(target);
    }

    void realFixturesMatchNumpy()
    {
        QFETCH(qint64, target);
        hwy::SetSupportedTargetsForTest(target);
        const auto restore = qScopeGuard([] { hwy::SetSupportedTargetsForTest(0); });
        const QJsonObject expected = test::loadExpected();
        QVERIFY2(!expected.isEmpty(), "tests/analysis/data/expected_stats.json is missing");
        const int bins = expected.value(QStringLiteral("bins")).toInt();
        const QJsonObject files = expected.value(QStringLiteral("files")).toObject();
        QCOMPARE(files.size(), 5);
        int checked = 0;
        for (auto fit = files.begin(); fit != files.end(); ++fit) {
            const QString path = test::realFixture(fit.key());
            TS_REQUIRE_FIXTURE(path);
            auto model = Checkpoint::open(path);
            QVERIFY2(model, qPrintable(test::errText(model)));
            const QJsonObject tensors = fit.value().toObject();
            QCOMPARE(static_cast<int>((*model)->tensors().size()), tensors.size());
            for (int i = 0; i < static_cast<int>((*model)->tensors().size()); ++i) {
                const TensorInfo& info = (*model)->tensors()[static_cast<std::size_t>(i)].info;
                const QJsonObject e = tensors.value(info.name).toObject();
                const QString where = fit.key() + QStringLiteral(" / ") + info.name;
                TensorAnalyzer analyzer((*model)->location(i), info);
                auto s = analyzer.stats();
                QVERIFY2(s, qPrintable(test::errText(s)));
                const ValueStats& v = s->values;
                auto num = [&](const char* k) { return e.value(QLatin1String(k)).toDouble(); };
                QVERIFY2(v.count == static_cast<std::uint64_t>(num("count")), qPrintable(where));
                QVERIFY2(v.nan == static_cast<std::uint64_t>(num("nan")), qPrintable(where));
                QVERIFY2(v.posinf == static_cast<std::uint64_t>(num("posinf")), qPrintable(where));
                QVERIFY2(v.neginf == static_cast<std::uint64_t>(num("neginf")), qPrintable(where));
                QVERIFY2(v.zeros == static_cast<std::uint64_t>(num("zeros")), qPrintable(where));
                QVERIFY2(v.subnormals == static_cast<std::uint64_t>(num("subnormals")), qPrintable(where));
                QVERIFY2(v.f16Overflow == static_cast<std::uint64_t>(num("f16_overflow")), qPrintable(where));
                QVERIFY2(v.nanIndices == toIndices(e.value(QStringLiteral("nan_indices"))),
                         qPrintable(where));
                QVERIFY2(v.infIndices == toIndices(e.value(QStringLiteral("inf_indices"))),
                         qPrintable(where));
                QVERIFY2(v.min == num("min"), qPrintable(where));
                QVERIFY2(v.max == num("max"), qPrintable(where));
                QVERIFY2(v.absmax == num("absmax"), qPrintable(where));
                QVERIFY2(v.absmaxIndex == static_cast<std::uint64_t>(num("absmax_index")), qPrintable(where));
                QVERIFY2(close(v.mean, num("mean"), 1e-12),
                         qPrintable(where + QStringLiteral(" mean %1 vs %2")
                                                .arg(v.mean, 0, 'g', 17)
                                                .arg(num("mean"), 0, 'g', 17)));
                QVERIFY2(close(v.std, num("std"), 1e-12), qPrintable(where + QStringLiteral(" std")));
                QVERIFY2(close(v.l2, num("l2"), 1e-12), qPrintable(where + QStringLiteral(" l2")));

                auto h = analyzer.histogram(*s, bins);
                QVERIFY2(h, qPrintable(test::errText(h)));
                QVERIFY2(h->counts == toCounts(e.value(QStringLiteral("hist"))),
                         qPrintable(where + QStringLiteral(" hist")));
                const QJsonArray range = e.value(QStringLiteral("hist_range")).toArray();
                QCOMPARE(h->lo, range[0].toDouble());
                QCOMPARE(h->hi, range[1].toDouble());
                QCOMPARE(h->zeros, static_cast<std::uint64_t>(num("hist_zeros")));
                if (e.contains(QStringLiteral("log_hist"))) {
                    QVERIFY2(h->logCounts == toCounts(e.value(QStringLiteral("log_hist"))),
                             qPrintable(where + QStringLiteral(" log hist")));
                }
                // analyze(): the same in one call, plus quantiles equal to numpy's, to the bit.
                auto a = analyzer.analyze(bins, true, true);
                QVERIFY2(a, qPrintable(test::errText(a)));
                QVERIFY2(a->histogram && a->histogram->counts == h->counts, qPrintable(where));
                QCOMPARE(a->stats.values.zeroShare(), num("zero_share"));
                const QJsonArray q = e.value(QStringLiteral("quantiles")).toArray();
                QVERIFY2(a->stats.values.quantiles.has_value() == !q.isEmpty(), qPrintable(where));
                for (qsizetype l = 0; l < q.size(); ++l)
                    QVERIFY2(a->stats.values.quantiles->values[static_cast<std::size_t>(l)] ==
                                 q[l].toDouble(),
                             qPrintable(where + QStringLiteral(" quantile %1").arg(l)));
                ++checked;
            }
        }
        QCOMPARE(checked, 51 + 49 + 117 + 151 + 57);
    }

    // Float blocks are binned in SIMD with a margin around edges; doubles go through the scalar
    // numpy rule. Both must give identical histograms, linear and log, for data built to sit on
    // and next to the edges, at the top edge, and with zeros, subnormals, NaN and Inf.
    void simdBinsEqualScalarBins_data()
    {
        QTest::addColumn<int>("bins");
        QTest::addColumn<double>("scale");
        for (int bins : {1, 2, 7, 256, 4096, 65536, 200000}) {
            QTest::addRow("%d bins, weights", bins) << bins << 0.02;
            QTest::addRow("%d bins, wide", bins) << bins << 3e4;
        }
    }
    void simdBinsEqualScalarBins()
    {
        QFETCH(int, bins);
        QFETCH(double, scale);
        std::mt19937 rng(static_cast<unsigned>(bins));
        std::normal_distribution<float> dist(0.1f * static_cast<float>(scale), static_cast<float>(scale));
        std::vector<float> x(300'000);
        for (float& v : x)
            v = dist(rng);
        x[5] = 0.0f;
        x[6] = -0.0f;
        x[7] = 1e-40f; // subnormal
        x[8] = std::numeric_limits<float>::quiet_NaN();
        x[9] = std::numeric_limits<float>::infinity();
        x[10] = -std::numeric_limits<float>::infinity();
        ValueStats st = ValueStats::empty();
        st.finite = 0;
        st.min = std::numeric_limits<double>::infinity();
        st.max = -st.min;
        st.minAbsNonzero = st.min;
        for (float v : x) {
            if (!std::isfinite(v))
                continue;
            ++st.finite;
            st.min = std::min<double>(st.min, v);
            st.max = std::max<double>(st.max, v);
            if (v != 0)
                st.minAbsNonzero = std::min<double>(st.minAbsNonzero, std::fabs(v));
        }
        st.absmax = std::max(-st.min, st.max);
        // Values on the linear edges and one float step either side of them.
        const double step = (st.max - st.min) / bins;
        for (int k = 0; k < std::min(bins, 20000); ++k) {
            const auto edge = static_cast<float>(static_cast<double>(k) * step + st.min);
            const std::size_t at = 20 + 3 * static_cast<std::size_t>(k);
            x[at] = edge;
            x[at + 1] = std::nextafter(edge, -INFINITY);
            x[at + 2] = std::nextafter(edge, INFINITY);
        }
        // ... and on the log edges (|x| = 10^edge), with both signs.
        const double logLo = std::log10(st.minAbsNonzero), logStep = (std::log10(st.absmax) - logLo) / bins;
        for (int k = 0; k < std::min(bins, 20000); ++k) {
            const auto edge = static_cast<float>(std::pow(10.0, static_cast<double>(k) * logStep + logLo));
            const std::size_t at = 100'000 + 3 * static_cast<std::size_t>(k);
            if (!(edge > st.minAbsNonzero && edge < st.absmax))
                continue;
            x[at] = k % 2 ? edge : -edge;
            x[at + 1] = std::nextafter(edge, 0.0f);
            x[at + 2] = std::nextafter(edge, INFINITY);
        }
        std::vector<double> wide(x.begin(), x.end());
        HistogramBuilder simd(st, bins), scalar(st, bins);
        for (std::size_t i = 0; i < x.size(); i += 4096) { // blocks, as the analyzer hands them over
            const std::size_t n = std::min<std::size_t>(4096, x.size() - i);
            simd.add(x.data() + i, n);
            scalar.add(wide.data() + i, n);
        }
        QVERIFY(simd.histogram().counts == scalar.histogram().counts);
        QVERIFY(simd.histogram().logCounts == scalar.histogram().logCounts);
        QCOMPARE(simd.histogram().zeros, scalar.histogram().zeros);
        std::uint64_t total = 0;
        for (auto c : simd.histogram().counts)
            total += c;
        QCOMPARE(total, st.finite);
    }

    void stdIsStableForLargeMean_data()
    {
        QTest::addColumn<int>("shape");
        QTest::newRow("steady") << 0;
        QTest::newRow("opens with an outlier") << 1; // the first block's pivot is far off
        QTest::newRow("jumps mid-tensor") << 2;      // the previous block's mean is a bad pivot
    }

    void stdIsStableForLargeMean()
    {
        // 3M values around 1e4 with spread ~1e-2: a one-pass sum of squares loses every digit here.
        QFETCH(int, shape);
        std::mt19937 rng(42);
        std::normal_distribution<float> noise(0.0f, 0.01f);
        std::vector<float> x(3'000'001);
        for (std::size_t i = 0; i < x.size(); ++i)
            x[i] = (shape == 2 && i >= 1'500'000 ? 20000.0f : 10000.0f) + noise(rng);
        if (shape == 1)
            x[0] = 11000.0f;
        x[12345] = std::numeric_limits<float>::quiet_NaN();
        long double sum = 0;
        std::size_t n = 0;
        for (float v : x) {
            if (std::isfinite(v)) {
                sum += v;
                ++n;
            }
        }
        const long double mean = sum / n;
        long double m2 = 0;
        for (float v : x) {
            if (std::isfinite(v))
                m2 += (v - mean) * (v - mean);
        }
        const double refStd = static_cast<double>(std::sqrt(m2 / n));
        const TensorStats s = statsOf(Dtype::F32, {x.size()}, test::bytesOf(x));
        QCOMPARE(s.values.nan, std::uint64_t(1));
        QVERIFY2(close(s.values.mean, static_cast<double>(mean), 1e-14), "mean");
        QVERIFY2(
            close(s.values.std, refStd, 1e-12),
            qPrintable(QStringLiteral("std %1 vs %2").arg(s.values.std, 0, 'g', 17).arg(refStd, 0, 'g', 17)));
    }

    void everyDtypeBulkMatchesScalarDecoding()
    {
        // Random bytes hit every code (NaN, Inf, subnormals) across several blocks and a ragged tail.
        std::mt19937 rng(7);
        const std::uint64_t n = 3 * 4096 + 77;
        for (Dtype d : allDtypes()) {
            const std::uint64_t bytes = (n * static_cast<std::uint64_t>(dtypeBits(d)) + 7) / 8;
            QByteArray raw(static_cast<qsizetype>(bytes), Qt::Uninitialized);
            for (char& c : raw)
                c = static_cast<char>(rng() & 0xff);
            const TensorStats s = statsOf(d, {n}, raw);
            const auto span =
                std::span<const std::byte>(reinterpret_cast<const std::byte*>(raw.constData()), bytes);
            const ValueStats& v = d == Dtype::C64 ? *s.real : s.values;
            std::uint64_t nan = 0, inf = 0, zeros = 0;
            double mn = std::numeric_limits<double>::infinity(), mx = -mn;
            std::optional<std::uint64_t> firstNan;
            for (std::uint64_t i = 0; i < n; ++i) {
                const double x = decode::element(d, span, i);
                if (std::isnan(x)) {
                    if (!firstNan)
                        firstNan = i;
                    ++nan;
                } else if (std::isinf(x)) {
                    ++inf;
                } else {
                    zeros += x == 0;
                    mn = std::min(mn, x);
                    mx = std::max(mx, x);
                }
            }
            const QString what = dtypeName(d);
            QVERIFY2(v.count == n, qPrintable(what));
            QVERIFY2(v.nan == nan, qPrintable(what));
            QVERIFY2(v.posinf + v.neginf == inf, qPrintable(what));
            QVERIFY2(v.zeros == zeros, qPrintable(what));
            QVERIFY2(v.firstNan() == firstNan, qPrintable(what));
            if (v.finite > 0) {
                QVERIFY2(v.min == mn, qPrintable(what + QStringLiteral(" min %1 vs %2").arg(v.min).arg(mn)));
                QVERIFY2(v.max == mx, qPrintable(what + QStringLiteral(" max")));
            }
        }
    }

    // Real F16 weights hold zeros and F16 subnormals in nearly every 4096-value block. Expecting
    // them, the kernel still summarises such a block in one pass (m2 included) with the counts the
    // full pass gives; not expecting them, it leaves m2 to a second pass.
    void zerosAndSubnormalsSummarisedInOnePass_data()
    {
        QTest::addColumn<qint64>("target");
        for (const std::int64_t target : hwy::SupportedAndGeneratedTargets())
            QTest::newRow(hwy::TargetName(target)) << static_cast<qint64>(target);
    }
    void zerosAndSubnormalsSummarisedInOnePass()
    {
        QFETCH(qint64, target);
        hwy::SetSupportedTargetsForTest(target);
        const auto restore = qScopeGuard([] { hwy::SetSupportedTargetsForTest(0); });
        const std::uint32_t f16MinNormal = std::bit_cast<std::uint32_t>(0x1p-14f);
        std::mt19937 rng(5);
        std::normal_distribution<float> weight(0.001f, 0.02f);
        std::vector<float> x(4093); // a ragged tail after the vector loop, on every lane width
        for (std::size_t i = 0; i < x.size(); ++i)
            x[i] = i % 5 == 0 ? 0.0f : i % 97 == 0 ? -0x1p-20f : weight(rng);
        x.back() = 0.0f;
        x[x.size() - 2] = 0x1p-24f; // the smallest F16 subnormal, in the tail
        std::uint64_t zeros = 0, below = 0;
        long double sum = 0;
        for (float v : x) {
            zeros += v == 0;
            below += std::fabs(v) < 0x1p-14f;
            sum += v;
        }
        const long double mean = sum / x.size();
        long double m2 = 0;
        for (float v : x)
            m2 += (v - mean) * (v - mean);

        simd::FloatBlockSummary one;
        simd::summarizeFloats(x.data(), x.size(), f16MinNormal, 0.001, one, true);
        simd::FloatBlockSummary full;
        simd::summarizeFloats(x.data(), x.size(), f16MinNormal, 0.001, full, false);
        // The one-lane fallback has no one-pass kernel: every block takes the full pass there.
        const bool onePass = target != HWY_SCALAR;
        QVERIFY2(!onePass || one.m2 >= 0, "a block of zeros and subnormals took the full pass");
        QCOMPARE(full.m2, -1.0);
        for (const simd::FloatBlockSummary* s : {&one, &full}) {
            QCOMPARE(s->finite, std::uint64_t(x.size()));
            QCOMPARE(s->zeros, zeros);
            QCOMPARE(s->belowNormal, below);
            QCOMPARE(s->nan + s->inf + s->aboveF16 + s->f16Underflow + s->bf16Underflow, std::uint64_t(0));
            QCOMPARE(s->min, *std::min_element(x.begin(), x.end()));
            QCOMPARE(s->max, *std::max_element(x.begin(), x.end()));
            QCOMPARE(s->minAbsNonzeroBits, std::bit_cast<std::uint32_t>(0x1p-24f));
            QVERIFY2(
                close(s->pivot + s->sum / static_cast<double>(x.size()), static_cast<double>(mean), 1e-12),
                "mean");
        }
        if (onePass)
            QVERIFY2(close(one.m2, static_cast<double>(m2), 1e-12), "m2");
    }

    void complexPartsAndMagnitude()
    {
        const std::vector<float> z = {3, 4, 0, -2, std::numeric_limits<float>::quiet_NaN(), 1, 6, 8};
        const TensorStats s = statsOf(Dtype::C64, {4}, test::bytesOf(z));
        QVERIFY(s.real && s.imag);
        QCOMPARE(s.elements, std::uint64_t(4));
        QCOMPARE(s.real->nan, std::uint64_t(1));
        QCOMPARE(s.real->max, 6.0);
        QCOMPARE(s.imag->min, -2.0);
        QCOMPARE(s.imag->max, 8.0);
        QCOMPARE(s.values.nan, std::uint64_t(1)); // |NaN + 1i| is NaN, not Inf
        QCOMPARE(s.values.min, 2.0);
        QCOMPARE(s.values.max, 10.0);
        QCOMPARE(s.values.mean, (5.0 + 2.0 + 10.0) / 3);
    }

    void boolBytesOtherThanZeroOrOne()
    {
        const QByteArray b("\x00\x01\x02\x01\xff", 5);
        const TensorStats s = statsOf(Dtype::BOOL, {5}, b);
        QCOMPARE(s.nonBinaryBool, std::uint64_t(2));
        QCOMPARE(s.firstNonBinaryBool, std::optional<std::uint64_t>(2));
        QCOMPARE(s.values.zeros, std::uint64_t(1));
        QCOMPARE(s.values.max, 1.0);
    }

    void f16AndBf16RangeCounts()
    {
        const float inf = std::numeric_limits<float>::infinity();
        const std::vector<float> x = {65504.0f, 65505.0f, 70000.0f,  -1e5f,     inf,       0x1p-25f, 0x1p-26f,
                                      0x1p-24f, 0.0f,     0x1p-134f, 0x1p-135f, 0x1p-149f, 1.0f,     -0.0f};
        const TensorStats s = statsOf(Dtype::F32, {x.size()}, test::bytesOf(x));
        QCOMPARE(s.values.f16Overflow, std::uint64_t(3));
        QCOMPARE(s.values.f16Underflow, std::uint64_t(5));
        QCOMPARE(s.values.bf16Underflow, std::uint64_t(3));
        QCOMPARE(s.values.subnormals, std::uint64_t(3));
        QCOMPARE(s.values.zeros, std::uint64_t(2));
        QCOMPARE(s.values.posinf, std::uint64_t(1));
        QCOMPARE(s.values.minAbsNonzero, static_cast<double>(0x1p-149f));
    }

    void subnormalsCountInTheSourceDtype()
    {
        // F16 0x0001 and 0x03ff are F16 subnormals although they are normal floats once decoded.
        const std::vector<std::uint16_t> h = {0x0001, 0x03ff, 0x0400, 0x3c00, 0x8001};
        QCOMPARE(statsOf(Dtype::F16, {h.size()}, test::bytesOf(h)).values.subnormals, std::uint64_t(3));
        const QByteArray e4m3("\x01\x07\x08\x38\x81", 5);
        QCOMPARE(statsOf(Dtype::F8_E4M3, {5}, e4m3).values.subnormals, std::uint64_t(3));
        const QByteArray e8m0("\x00\x01\x7f", 3);
        QCOMPARE(statsOf(Dtype::F8_E8M0, {3}, e8m0).values.subnormals, std::uint64_t(0));
    }

    void histogramFollowsNumpy()
    {
        // np.histogram(np.arange(11.), 10) -> [1]*9 + [2]: the last bin is closed.
        std::vector<float> x;
        for (int i = 0; i <= 10; ++i)
            x.push_back(static_cast<float>(i));
        const TensorStats s = statsOf(Dtype::F32, {x.size()}, test::bytesOf(x));
        HistogramBuilder b(s.values, 10);
        b.add(x.data(), x.size());
        const std::vector<std::uint64_t> want = {1, 1, 1, 1, 1, 1, 1, 1, 1, 2};
        QCOMPARE(b.histogram().counts, want);
        QCOMPARE(b.histogram().zeros, std::uint64_t(1));
        // A constant tensor: numpy widens the range to [v - 0.5, v + 0.5].
        const std::vector<float> c(7, 3.0f);
        const TensorStats cs = statsOf(Dtype::F32, {c.size()}, test::bytesOf(c));
        HistogramBuilder cb(cs.values, 4);
        cb.add(c.data(), c.size());
        QCOMPARE(cb.histogram().lo, 2.5);
        QCOMPARE(cb.histogram().hi, 3.5);
        QCOMPARE(cb.histogram().counts, (std::vector<std::uint64_t>{0, 0, 7, 0}));
    }

    void histogramOfDegenerateRanges()
    {
        // Found by fuzz_scan. A constant beyond 2^53 loses numpy's half-unit widening to rounding
        // (numpy refuses: "Too many bins for data range"): the range used to stay zero wide, every
        // bin index was computed from 0 * inf, and charts divided by a zero width.
        const std::vector<std::uint64_t> big(5, std::uint64_t{1} << 61);
        const TensorStats bs = statsOf(Dtype::U64, {big.size()}, test::bytesOf(big));
        std::vector<double> asDouble(big.begin(), big.end());
        HistogramBuilder bb(bs.values, 8);
        bb.add(asDouble.data(), asDouble.size());
        QVERIFY(bb.histogram().lo < bb.histogram().hi);
        QVERIFY(bb.histogram().lo <= 0x1p61 && bb.histogram().hi >= 0x1p61);
        QCOMPARE(bb.histogram().total(), std::uint64_t(5));
        const std::vector<std::uint64_t>& counts = bb.histogram().counts;
        QCOMPARE(*std::max_element(counts.begin(), counts.end()), std::uint64_t(5));
        // F64 values of both signs whose range is wider than the largest double: max - min is Inf.
        // The bins must still split the range in the middle (they all went to bin 0).
        const double m = std::numeric_limits<double>::max();
        const std::vector<double> wide = {-m, -m / 2, 0.0, m / 4, m};
        const TensorStats ws = statsOf(Dtype::F64, {wide.size()}, test::bytesOf(wide));
        HistogramBuilder wb(ws.values, 2);
        wb.add(wide.data(), wide.size());
        QCOMPARE(wb.histogram().lo, -m);
        QCOMPARE(wb.histogram().hi, m);
        QCOMPARE(wb.histogram().counts, (std::vector<std::uint64_t>{2, 3}));
    }

    void binCountIsBounded()
    {
        const std::vector<float> x = {1, 2, 3};
        const TensorStats s = statsOf(Dtype::F32, {3}, test::bytesOf(x));
        HistogramBuilder huge(s.values, 2'000'000'000);
        QCOMPARE(huge.histogram().counts.size(), std::size_t(HistogramBuilder::kMaxBins));
        HistogramBuilder none(s.values, -5);
        QCOMPARE(none.histogram().counts.size(), std::size_t(1));
    }

    void rangesMergeToTheWhole()
    {
        std::mt19937 rng(3);
        std::vector<std::uint16_t> h(100'000);
        for (auto& v : h)
            v = static_cast<std::uint16_t>(rng());
        const QByteArray bytes = test::bytesOf(h);
        TensorInfo info;
        info.name = QStringLiteral("bf");
        info.dtype = Dtype::BF16;
        info.shape = {h.size()};
        info.end = static_cast<std::uint64_t>(bytes.size());
        TensorAnalyzer whole(test::memoryLocation(bytes), info);
        auto all = whole.stats();
        QVERIFY(all);
        TensorStats merged;
        for (std::uint64_t first = 0; first < h.size(); first += 8192) {
            auto part = whole.statsOfRange(first, std::min<std::uint64_t>(8192, h.size() - first), {});
            QVERIFY(part);
            if (first == 0)
                merged = part.value();
            else
                merged.mergeFollowing(part.value());
        }
        merged.finalize();
        QCOMPARE(merged.values.nan, all->values.nan);
        QCOMPARE(merged.values.nanIndices, all->values.nanIndices);
        QCOMPARE(merged.values.infIndices, all->values.infIndices);
        QCOMPARE(merged.values.zeros, all->values.zeros);
        QCOMPARE(merged.values.subnormals, all->values.subnormals);
        QCOMPARE(merged.values.min, all->values.min);
        QCOMPARE(merged.values.max, all->values.max);
        QCOMPARE(merged.values.absmaxIndex, all->values.absmaxIndex);
        QVERIFY(close(merged.values.mean, all->values.mean, 1e-13));
    }

    // Dtypes of 16 bits or fewer take their histograms from code counts, in the statistics pass:
    // each must equal numpy's rule applied to every decoded element (the float64 builder), for
    // random bytes (every code: NaN, Inf, zeros, subnormals) over several reads' worth of data.
    void codedHistogramsEqualDecodedHistograms()
    {
        std::mt19937 rng(19);
        const std::uint64_t n = 3 * 1024 * 1024 + 77; // a 16-bit tensor spans two 4 MiB reads
        for (Dtype d : allDtypes()) {
            if (!decode::isCoded(d))
                continue;
            const std::uint64_t bytes = TensorBlockReader::bytesFor(d, n);
            QByteArray raw(static_cast<qsizetype>(bytes), Qt::Uninitialized);
            for (char& c : raw)
                c = static_cast<char>(rng() & 0xff);
            TensorInfo info;
            info.name = QStringLiteral("t");
            info.dtype = d;
            info.shape = {n};
            info.end = bytes;
            TensorAnalyzer analyzer(test::memoryLocation(raw), info);
            auto a = analyzer.analyze(97, true, false);
            QVERIFY2(a, qPrintable(test::errText(a)));
            QVERIFY(a->histogram);
            const auto span =
                std::span<const std::byte>(reinterpret_cast<const std::byte*>(raw.constData()), bytes);
            std::vector<double> decoded(n);
            for (std::uint64_t i = 0; i < n; ++i)
                decoded[i] = decode::element(d, span, i);
            HistogramBuilder reference(a->stats.values, 97, true);
            reference.add(decoded.data(), decoded.size());
            const QString what = dtypeName(d);
            QVERIFY2(a->histogram->counts == reference.histogram().counts, qPrintable(what));
            QVERIFY2(a->histogram->logCounts == reference.histogram().logCounts, qPrintable(what));
            QVERIFY2(a->histogram->zeros == reference.histogram().zeros, qPrintable(what));
            QVERIFY2(a->histogram->total() == a->stats.values.finite, qPrintable(what));
            // stats() then histogram() (the two calls the statistics panel made) reads the data once
            // and gives the same histogram from the counts it kept.
            auto s = analyzer.stats();
            QVERIFY(s);
            auto h = analyzer.histogram(*s, 97);
            QVERIFY(h);
            QVERIFY2(h->counts == a->histogram->counts && h->logCounts == a->histogram->logCounts,
                     qPrintable(what));
        }
    }

    void shortTensorIsAnError()
    {
        TensorInfo info;
        info.name = QStringLiteral("short");
        info.dtype = Dtype::F32;
        info.shape = {10};
        const QByteArray bytes(8, '\0');
        TensorAnalyzer analyzer(test::memoryLocation(bytes), info);
        auto r = analyzer.stats();
        QVERIFY(!r);
        QVERIFY(r.error().message.contains(QStringLiteral("short")));
    }
};

QTEST_GUILESS_MAIN(TestTensorStats)
#include "tst_tensor_stats.moc"
