// Compiled once per SIMD target by Highway's foreach_target; HWY_DYNAMIC_DISPATCH picks the best
// one for the running CPU, so no -march flag is needed.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "diff/DiffKernels.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include <hwy/highway.h>

#include "diff/DiffKernels.h"

#include <cmath>
#include <limits>

HWY_BEFORE_NAMESPACE();
namespace ts::diff {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Where, among the first `n` pairs, |b - a| (in double, as the sums take it) first equals `max`.
std::uint32_t PositionOfMax(const float* a, const float* b, std::size_t n, double max)
{
    for (std::size_t i = 0; i < n; ++i) {
        if (std::isfinite(a[i]) && std::isfinite(b[i]) &&
            std::fabs(static_cast<double>(b[i]) - static_cast<double>(a[i])) == max)
            return static_cast<std::uint32_t>(i);
    }
    return PairSummary::kNone;
}

std::uint32_t FirstWhere(const float* a, const float* b, std::size_t n, bool finiteA)
{
    for (std::size_t i = 0; i < n; ++i) {
        if (std::isfinite(a[i]) == finiteA && std::isfinite(b[i]) != finiteA)
            return static_cast<std::uint32_t>(i);
    }
    return PairSummary::kNone;
}

void SummarizeFloatPairs(const float* HWY_RESTRICT a, const float* HWY_RESTRICT b, std::size_t n,
                         double maxSoFar, PairSummary* HWY_RESTRICT out)
{
    PairSummary s;
#if HWY_TARGET == HWY_SCALAR
    // The one-lane target has no half vectors; plain C++ is as fast there.
    (void)maxSoFar;
    summarizePairScalar(a, b, n, s);
#else
    const hn::ScalableTag<float> df;
    const hn::RebindToSigned<decltype(df)> di;
    const hn::Half<decltype(df)> dh;
    const hn::Rebind<double, decltype(dh)> dd;
    const std::size_t N = hn::Lanes(df);

    const auto absMask = hn::Set(di, 0x7fffffff);
    const auto infBits = hn::Set(di, 0x7f800000);
    const auto mantMask = hn::Set(di, 0x007fffff);
    const auto belowSmall =
        hn::Set(di, ((127 - 14) << 23) - 1); // the largest float under PairSummary::kSmall
    const auto posInf = hn::Set(df, std::numeric_limits<float>::infinity());
    const auto negInf = hn::Set(df, -std::numeric_limits<float>::infinity());

    // Counters hold minus the count (a true mask is -1); blocks are short enough for int32 lanes.
    auto cCompared = hn::Zero(di), cChanged = hn::Zero(di);
    auto cNanA = hn::Zero(di), cInfA = hn::Zero(di), cNanB = hn::Zero(di), cInfB = hn::Zero(di);
    auto cIntroduced = hn::Zero(di), cRemoved = hn::Zero(di);
    auto mA = hn::Zero(di), mB = hn::Zero(di);
    auto vMinA = posInf, vMaxA = negInf, vMinB = posInf, vMaxB = negInf;
    auto vMaxRel = hn::Zero(df), vMaxRelF8 = hn::Zero(df);
    auto sAbs = hn::Zero(dd), sSq = hn::Zero(dd), sSqA = hn::Zero(dd), sSqB = hn::Zero(dd);
    auto vMaxAbs = hn::Zero(dd);
    // The signed range of d in float (it only sets histogram bins); |d| in double, as it is reported.
    auto vMinD = posInf, vMaxD = negInf;

    // The relative error against a power of two, not a division: |d| * 2^-e, e the exponent of
    // max(|a|, |b|, floor). Half a unit in the last place of w significand bits is then 2^-(w+1)
    // exactly, for every value of a binade (round to nearest, even ties, stays within it).
    const auto floorExp = hn::Set(di, 127 - 14);
    const auto floorExpF8 = hn::Set(di, 127 - 6);
    const auto topExp = hn::Set(di, 253);
    const auto bias2 = hn::Set(di, 254);
    const auto scaleBy = [&](auto adf, auto denExp, auto floor) {
        const auto e = hn::Min(hn::Max(denExp, floor), topExp);
        return hn::Mul(adf, hn::BitCast(df, hn::ShiftLeft<23>(hn::Sub(bias2, e))));
    };
    // What every lane adds, once its non-compared lanes are zeros.
    const auto accumulate = [&](auto xa, auto xb, auto bothF) {
        const auto ia = hn::And(hn::BitCast(di, xa), absMask);
        const auto ib = hn::And(hn::BitCast(di, xb), absMask);
        mA = hn::Or(mA, hn::IfThenElseZero(hn::Gt(ia, belowSmall), hn::And(ia, mantMask)));
        mB = hn::Or(mB, hn::IfThenElseZero(hn::Gt(ib, belowSmall), hn::And(ib, mantMask)));
        // The relative error in float: exact where it matters (a rounding of a to b is within a
        // factor of two, where float subtraction is exact).
        const auto dF = hn::Sub(xb, xa);
        const auto adf = hn::Abs(dF);
        const auto denExp = hn::ShiftRight<23>(hn::Max(ia, ib));
        vMaxRel = hn::Max(vMaxRel, scaleBy(adf, denExp, floorExp));
        vMaxRelF8 = hn::Max(vMaxRelF8, scaleBy(adf, denExp, floorExpF8));
        vMinD = hn::Min(vMinD, hn::IfThenElse(bothF, dF, posInf));
        vMaxD = hn::Max(vMaxD, hn::IfThenElse(bothF, dF, negInf));
        // Sums and the absolute extreme of d in double, as the scalar pass has them.
        const auto aLo = hn::PromoteTo(dd, hn::LowerHalf(dh, xa));
        const auto aHi = hn::PromoteTo(dd, hn::UpperHalf(dh, xa));
        const auto bLo = hn::PromoteTo(dd, hn::LowerHalf(dh, xb));
        const auto bHi = hn::PromoteTo(dd, hn::UpperHalf(dh, xb));
        const auto dLo = hn::Sub(bLo, aLo);
        const auto dHi = hn::Sub(bHi, aHi);
        sSqA = hn::MulAdd(aLo, aLo, hn::MulAdd(aHi, aHi, sSqA));
        sSqB = hn::MulAdd(bLo, bLo, hn::MulAdd(bHi, bHi, sSqB));
        sSq = hn::MulAdd(dLo, dLo, hn::MulAdd(dHi, dHi, sSq));
        const auto adLo = hn::Abs(dLo), adHi = hn::Abs(dHi);
        sAbs = hn::Add(sAbs, hn::Add(adLo, adHi));
        vMaxAbs = hn::Max(vMaxAbs, hn::Max(adLo, adHi));
    };

    std::size_t i = 0;
    for (; i + N <= n; i += N) {
        const auto va = hn::LoadU(df, a + i);
        const auto vb = hn::LoadU(df, b + i);
        const auto ia = hn::And(hn::BitCast(di, va), absMask);
        const auto ib = hn::And(hn::BitCast(di, vb), absMask);
        const auto finA = hn::Lt(ia, infBits);
        const auto finB = hn::Lt(ib, infBits);
        const auto both = hn::And(finA, finB);
        // Not(Eq): x86's float Ne is ordered, false when either side is NaN.
        cChanged = hn::Add(cChanged, hn::VecFromMask(di, hn::RebindMask(di, hn::Not(hn::Eq(va, vb)))));
        if (hn::AllTrue(di, both)) { // the common case: every lane compared
            cCompared = hn::Sub(cCompared, hn::Set(di, 1));
            vMinA = hn::Min(vMinA, va);
            vMaxA = hn::Max(vMaxA, va);
            vMinB = hn::Min(vMinB, vb);
            vMaxB = hn::Max(vMaxB, vb);
            accumulate(va, vb, hn::RebindMask(df, both));
            continue;
        }
        // NaN or Inf on either side.
        const auto nanA = hn::Gt(ia, infBits), nanB = hn::Gt(ib, infBits);
        cNanA = hn::Add(cNanA, hn::VecFromMask(di, nanA));
        cInfA = hn::Add(cInfA, hn::VecFromMask(di, hn::Eq(ia, infBits)));
        cNanB = hn::Add(cNanB, hn::VecFromMask(di, nanB));
        cInfB = hn::Add(cInfB, hn::VecFromMask(di, hn::Eq(ib, infBits)));
        cIntroduced = hn::Add(cIntroduced, hn::VecFromMask(di, hn::AndNot(finB, finA)));
        cRemoved = hn::Add(cRemoved, hn::VecFromMask(di, hn::AndNot(finA, finB)));
        // Ne counted every lane that is not equal; NaN against NaN is no change: take them back.
        cChanged = hn::Sub(cChanged, hn::VecFromMask(di, hn::And(nanA, nanB)));
        cCompared = hn::Add(cCompared, hn::VecFromMask(di, both));
        const auto bothF = hn::RebindMask(df, both);
        vMinA = hn::Min(vMinA, hn::IfThenElse(bothF, va, posInf));
        vMaxA = hn::Max(vMaxA, hn::IfThenElse(bothF, va, negInf));
        vMinB = hn::Min(vMinB, hn::IfThenElse(bothF, vb, posInf));
        vMaxB = hn::Max(vMaxB, hn::IfThenElse(bothF, vb, negInf));
        accumulate(hn::IfThenElseZero(bothF, va), hn::IfThenElseZero(bothF, vb), bothF);
    }
    const auto count = [&](auto v) {
        return static_cast<std::uint64_t>(-static_cast<std::int64_t>(hn::GetLane(hn::SumOfLanes(di, v))));
    };
    s.compared = count(cCompared);
    s.changed = count(cChanged);
    s.nanA = count(cNanA);
    s.infA = count(cInfA);
    s.nanB = count(cNanB);
    s.infB = count(cInfB);
    s.introduced = count(cIntroduced);
    s.removed = count(cRemoved);
    s.sumAbs = hn::GetLane(hn::SumOfLanes(dd, sAbs));
    s.sumSq = hn::GetLane(hn::SumOfLanes(dd, sSq));
    s.sumSqA = hn::GetLane(hn::SumOfLanes(dd, sSqA));
    s.sumSqB = hn::GetLane(hn::SumOfLanes(dd, sSqB));
    s.maxAbs = hn::GetLane(hn::MaxOfLanes(dd, vMaxAbs));
    s.minDiff = hn::GetLane(hn::MinOfLanes(df, vMinD));
    s.maxDiff = hn::GetLane(hn::MaxOfLanes(df, vMaxD));
    s.minA = hn::GetLane(hn::MinOfLanes(df, vMinA));
    s.maxA = hn::GetLane(hn::MaxOfLanes(df, vMaxA));
    s.minB = hn::GetLane(hn::MinOfLanes(df, vMinB));
    s.maxB = hn::GetLane(hn::MaxOfLanes(df, vMaxB));
    s.maxRelative = hn::GetLane(hn::MaxOfLanes(df, vMaxRel));
    s.maxRelativeF8 = hn::GetLane(hn::MaxOfLanes(df, vMaxRelF8));
    // OR of the lanes: fold in memory, the block is short.
    std::int32_t lanes[2][64] = {};
    hn::StoreU(mA, di, lanes[0]);
    hn::StoreU(mB, di, lanes[1]);
    std::uint32_t orA = 0, orB = 0;
    for (std::size_t k = 0; k < N; ++k) {
        orA |= static_cast<std::uint32_t>(lanes[0][k]);
        orB |= static_cast<std::uint32_t>(lanes[1][k]);
    }
    s.mantissaA = static_cast<std::uint64_t>(orA) << 29;
    s.mantissaB = static_cast<std::uint64_t>(orB) << 29;
    if (s.maxAbs > maxSoFar && s.maxAbs > 0) {
        s.maxAbsAt = PositionOfMax(a, b, i, s.maxAbs);
        if (s.maxAbsAt != PairSummary::kNone) {
            s.aAtMax = a[s.maxAbsAt];
            s.bAtMax = b[s.maxAbsAt];
        }
    }
    if (s.introduced > 0)
        s.firstIntroduced = FirstWhere(a, b, i, true);
    if (s.removed > 0)
        s.firstRemoved = FirstWhere(a, b, i, false);
    summarizePairScalar(a + i, b + i, n - i, s, static_cast<std::uint32_t>(i));
#endif
    *out = s;
}

const char* TargetName()
{
    return hwy::TargetName(HWY_TARGET);
}

} // namespace HWY_NAMESPACE
} // namespace ts::diff
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ts::diff {

HWY_EXPORT(SummarizeFloatPairs);
HWY_EXPORT(TargetName);

void summarizeFloatPairs(const float* a, const float* b, std::size_t n, double maxSoFar, PairSummary& out)
{
    HWY_DYNAMIC_DISPATCH(SummarizeFloatPairs)(a, b, n, maxSoFar, &out);
}

const char* kernelTarget()
{
    return HWY_DYNAMIC_DISPATCH(TargetName)();
}

} // namespace ts::diff
#endif
