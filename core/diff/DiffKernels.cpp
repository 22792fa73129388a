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
    const auto small = hn::Set(df, static_cast<float>(PairSummary::kSmall));
    const auto smallF8 = hn::Set(df, static_cast<float>(PairSummary::kSmallF8));
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

    std::size_t i = 0;
    for (; i + N <= n; i += N) {
        const auto va = hn::LoadU(df, a + i);
        const auto vb = hn::LoadU(df, b + i);
        const auto ba = hn::BitCast(di, va);
        const auto bb = hn::BitCast(di, vb);
        const auto ia = hn::And(ba, absMask);
        const auto ib = hn::And(bb, absMask);
        const auto finA = hn::Lt(ia, infBits);
        const auto finB = hn::Lt(ib, infBits);
        const auto both = hn::And(finA, finB);
        const auto bothF = hn::RebindMask(df, both);
        if (!hn::AllTrue(di, both)) { // rare: NaN or Inf on either side
            const auto nanA = hn::Gt(ia, infBits), nanB = hn::Gt(ib, infBits);
            cNanA = hn::Add(cNanA, hn::VecFromMask(di, nanA));
            cInfA = hn::Add(cInfA, hn::VecFromMask(di, hn::Eq(ia, infBits)));
            cNanB = hn::Add(cNanB, hn::VecFromMask(di, nanB));
            cInfB = hn::Add(cInfB, hn::VecFromMask(di, hn::Eq(ib, infBits)));
            cIntroduced = hn::Add(cIntroduced, hn::VecFromMask(di, hn::AndNot(finB, finA)));
            cRemoved = hn::Add(cRemoved, hn::VecFromMask(di, hn::AndNot(finA, finB)));
            // Among lanes not both finite: a change unless both are NaN or both the same Inf.
            const auto same = hn::Or(hn::And(nanA, nanB), hn::RebindMask(di, hn::Eq(va, vb)));
            const auto notBoth = hn::Not(both);
            cChanged = hn::Add(cChanged, hn::VecFromMask(di, hn::AndNot(same, notBoth)));
        }
        cCompared = hn::Add(cCompared, hn::VecFromMask(di, both));
        cChanged = hn::Add(cChanged, hn::VecFromMask(di, hn::And(both, hn::RebindMask(di, hn::Ne(va, vb)))));
        const auto xa = hn::IfThenElseZero(bothF, va);
        const auto xb = hn::IfThenElseZero(bothF, vb);
        vMinA = hn::Min(vMinA, hn::IfThenElse(bothF, va, posInf));
        vMaxA = hn::Max(vMaxA, hn::IfThenElse(bothF, va, negInf));
        vMinB = hn::Min(vMinB, hn::IfThenElse(bothF, vb, posInf));
        vMaxB = hn::Max(vMaxB, hn::IfThenElse(bothF, vb, negInf));
        const auto absA = hn::Abs(xa), absB = hn::Abs(xb);
        mA = hn::Or(mA, hn::IfThenElseZero(hn::RebindMask(di, hn::Ge(absA, small)),
                                           hn::And(hn::BitCast(di, xa), mantMask)));
        mB = hn::Or(mB, hn::IfThenElseZero(hn::RebindMask(di, hn::Ge(absB, small)),
                                           hn::And(hn::BitCast(di, xb), mantMask)));
        // The relative error in float: exact where it matters (a rounding of a to b is within a
        // factor of two, where float subtraction is exact).
        const auto adf = hn::Abs(hn::Sub(xb, xa));
        const auto den = hn::Max(absA, absB);
        vMaxRel = hn::Max(vMaxRel, hn::Div(adf, hn::Max(den, small)));
        vMaxRelF8 = hn::Max(vMaxRelF8, hn::Div(adf, hn::Max(den, smallF8)));
        // Sums and the signed and absolute extremes of d in double, as the scalar pass has them.
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
        const auto df32 = hn::Sub(xb, xa);
        vMinD = hn::Min(vMinD, hn::IfThenElse(bothF, df32, posInf));
        vMaxD = hn::Max(vMaxD, hn::IfThenElse(bothF, df32, negInf));
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
