// The SIMD pair kernel against the portable pass, on every instruction set the binary carries (the
// dispatcher forced to each in turn), with NaN, Inf, zeros of both signs, subnormals, values that
// only round, and blocks of every length up to the kernel's limit.

#include "diff/ChangeMetrics.h"
#include "diff/DiffKernels.h"

#include <hwy/targets.h>

#include <QTest>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace ts::diff;

namespace {

struct Block {
    std::vector<float> a, b;
};

Block makeBlock(std::size_t n, std::uint64_t seed)
{
    std::mt19937_64 random(seed);
    std::normal_distribution<float> g(0.0f, 1.0f);
    std::uniform_int_distribution<int> pick(0, 15);
    Block block{std::vector<float>(n), std::vector<float>(n)};
    constexpr float nan = std::numeric_limits<float>::quiet_NaN();
    constexpr float inf = std::numeric_limits<float>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
        const float x = g(random);
        float a = x, b = x;
        switch (pick(random)) {
        case 0:
            b = x + g(random); // a real change
            break;
        case 1:
            b = std::bit_cast<float>(std::bit_cast<std::uint32_t>(x) & 0xffff0000u); // BF16-like rounding
            break;
        case 2:
            b = nan; // introduced
            break;
        case 3:
            a = -inf; // removed
            b = 1;
            break;
        case 4:
            a = b = nan; // NaN against NaN: no change
            break;
        case 5:
            a = 0.0f;
            b = -0.0f; // no change either
            break;
        case 6:
            b = x * 1e-30f; // tiny values
            break;
        case 7:
            a = x * 1e-39f; // a subnormal against zero
            b = 0;
            break;
        case 8:
            a = inf;
            b = -inf; // a change among the non-finite
            break;
        default:
            break;
        }
        block.a[i] = a;
        block.b[i] = b;
    }
    return block;
}

bool sameSummary(const PairSummary& x, const PairSummary& y, QString& why)
{
    const auto close = [](double p, double q) {
        return std::fabs(p - q) <= 1e-12 * std::max(std::fabs(p), std::fabs(q));
    };
#define TS_SAME(field, ok)                                                                                   \
    if (!(ok)) {                                                                                             \
        why = QStringLiteral(#field ": %1 against %2")                                                       \
                  .arg(double(x.field), 0, 'g', 17)                                                          \
                  .arg(double(y.field), 0, 'g', 17);                                                         \
        return false;                                                                                        \
    }
    TS_SAME(compared, x.compared == y.compared)
    TS_SAME(changed, x.changed == y.changed)
    TS_SAME(nanA, x.nanA == y.nanA)
    TS_SAME(infA, x.infA == y.infA)
    TS_SAME(nanB, x.nanB == y.nanB)
    TS_SAME(infB, x.infB == y.infB)
    TS_SAME(introduced, x.introduced == y.introduced)
    TS_SAME(removed, x.removed == y.removed)
    TS_SAME(firstIntroduced, x.firstIntroduced == y.firstIntroduced)
    TS_SAME(firstRemoved, x.firstRemoved == y.firstRemoved)
    TS_SAME(maxAbs, x.maxAbs == y.maxAbs)
    TS_SAME(maxAbsAt, x.maxAbsAt == y.maxAbsAt)
    TS_SAME(aAtMax, x.aAtMax == y.aAtMax)
    TS_SAME(bAtMax, x.bAtMax == y.bAtMax)
    TS_SAME(minDiff, x.minDiff == y.minDiff)
    TS_SAME(maxDiff, x.maxDiff == y.maxDiff)
    TS_SAME(minA, x.minA == y.minA)
    TS_SAME(maxA, x.maxA == y.maxA)
    TS_SAME(minB, x.minB == y.minB)
    TS_SAME(maxB, x.maxB == y.maxB)
    TS_SAME(maxRelative, x.maxRelative == y.maxRelative)
    TS_SAME(maxRelativeF8, x.maxRelativeF8 == y.maxRelativeF8)
    TS_SAME(mantissaA, x.mantissaA == y.mantissaA)
    TS_SAME(mantissaB, x.mantissaB == y.mantissaB)
    TS_SAME(sumAbs, close(x.sumAbs, y.sumAbs))
    TS_SAME(sumSq, close(x.sumSq, y.sumSq))
    TS_SAME(sumSqA, close(x.sumSqA, y.sumSqA))
    TS_SAME(sumSqB, close(x.sumSqB, y.sumSqB))
#undef TS_SAME
    return true;
}

} // namespace

class TestDiffKernels : public QObject {
    Q_OBJECT
private slots:
    void kernelMatchesScalarOnEveryTarget()
    {
        const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
        QVERIFY2(targets.size() >= 2, "expected the best target and at least the scalar fallback");
        for (const std::int64_t target : targets) {
            hwy::SetSupportedTargetsForTest(target);
            const QString name = QString::fromLatin1(hwy::TargetName(target));
            for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(16),
                                  std::size_t(33), std::size_t(1000), std::size_t(4096)}) {
                const Block block = makeBlock(n, 100 + n);
                PairSummary simd, scalar;
                summarizeFloatPairs(block.a.data(), block.b.data(), n, 0, simd);
                summarizePairScalar(block.a.data(), block.b.data(), n, scalar);
                QString why;
                QVERIFY2(sameSummary(simd, scalar, why),
                         qPrintable(QStringLiteral("%1, %2 pairs: %3").arg(name).arg(n).arg(why)));
            }
            hwy::SetSupportedTargetsForTest(0);
        }
    }

    // A block whose maximum does not beat the one before it gets no position: the lookup is skipped.
    void positionOnlyWhenTheMaximumGrows()
    {
        std::vector<float> a(64, 1.0f), b(64, 1.0f);
        b[40] = 3.0f;
        PairSummary s;
        summarizeFloatPairs(a.data(), b.data(), a.size(), 0, s);
        QCOMPARE(s.maxAbsAt, 40u);
        QCOMPARE(s.maxAbs, 2.0);
        summarizeFloatPairs(a.data(), b.data(), a.size(), 5, s);
        QCOMPARE(s.maxAbs, 2.0);
        ChangeMetrics m = ChangeMetrics::empty();
        PairSummary first;
        summarizeFloatPairs(a.data(), b.data(), a.size(), 0, first);
        m.add(first, 0, a.size());
        m.add(s, 64, a.size()); // an equal maximum later keeps the first position
        QCOMPARE(m.maxAbsIndex, std::optional<std::uint64_t>(40));
    }

    void significandBitsOfRoundedValues()
    {
        std::vector<float> a(256), b(256);
        for (std::size_t i = 0; i < a.size(); ++i) {
            a[i] = 1.0f + static_cast<float>(i) * 0.0137f;
            b[i] = std::bit_cast<float>(std::bit_cast<std::uint32_t>(a[i]) & 0xffff0000u);
        }
        PairSummary s;
        summarizeFloatPairs(a.data(), b.data(), a.size(), 0, s);
        ChangeMetrics m = ChangeMetrics::empty();
        m.add(s, 0, a.size());
        QCOMPARE(m.significandBitsB(), 7);
        QVERIFY(m.significandBitsA() > 7);
        QVERIFY(m.maxRelative <= 0x1p-7);
    }
};

QTEST_GUILESS_MAIN(TestDiffKernels)
#include "tst_diff_kernels.moc"
