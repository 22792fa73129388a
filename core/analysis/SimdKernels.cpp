// Compiled once per SIMD target by Highway's foreach_target; HWY_DYNAMIC_DISPATCH picks the best
// one for the running CPU, so no -march flag is needed.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "analysis/SimdKernels.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include <hwy/highway.h>

#include "analysis/SimdKernels.h"
#include "codec/DtypeDecoder.h"
#include "codec/HalfLanes-inl.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

HWY_BEFORE_NAMESPACE();
namespace ts::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using ts::codec::HWY_NAMESPACE::PrefetchAhead;

constexpr std::int32_t kAbsMask = 0x7fffffff;
constexpr std::int32_t kInfBits = 0x7f800000;
constexpr std::int32_t kNegInfBits = static_cast<std::int32_t>(0xff800000u);
constexpr std::int32_t kF16MaxBits = 0x477fe000;        // 65504
constexpr std::int32_t kF16UnderBits = 0x33000000 + 1;  // |x| <= 2^-25
constexpr std::int32_t kBf16UnderBits = 0x00008000 + 1; // |x| <= 2^-134

void ScalarTail(const float* p, std::size_t n, std::int32_t minNormalBits, FloatBlockSummary& s)
{
    for (std::size_t i = 0; i < n; ++i) {
        std::uint32_t u;
        std::memcpy(&u, &p[i], 4);
        const auto a = static_cast<std::int32_t>(u & 0x7fffffffu);
        s.nan += a > kInfBits;
        s.inf += a == kInfBits;
        s.negInf += u == 0xff800000u;
        s.zeros += a == 0;
        s.belowNormal += a < minNormalBits;
        s.aboveF16 += a > kF16MaxBits;
        s.f16Underflow += a != 0 && a < kF16UnderBits;
        s.bf16Underflow += a != 0 && a < kBf16UnderBits;
        if (a < kInfBits) {
            s.min = std::min(s.min, p[i]);
            s.max = std::max(s.max, p[i]);
            s.sum += p[i];
            if (a != 0)
                s.minAbsNonzeroBits = std::min(s.minAbsNonzeroBits, static_cast<std::uint32_t>(a));
        }
    }
}

// Every count, for blocks that hold something unusual (zeros, NaN, Inf, tiny or huge values).
void SummarizeFloatsFull(const float* HWY_RESTRICT p, std::size_t n, std::uint32_t minNormalBits,
                         FloatBlockSummary* HWY_RESTRICT out)
{
#if HWY_TARGET == HWY_SCALAR
    // The one-lane target has no half vectors; plain C++ is as fast there.
    FloatBlockSummary s;
    s.min = std::numeric_limits<float>::infinity();
    s.max = -s.min;
    s.minAbsNonzeroBits = 0x7fffffffu;
    ScalarTail(p, n, static_cast<std::int32_t>(minNormalBits), s);
    s.finite = n - s.nan - s.inf;
    *out = s;
#else
    const hn::ScalableTag<float> df;
    const hn::RebindToSigned<decltype(df)> di;
    const hn::Half<decltype(df)> dh;
    const hn::Rebind<double, decltype(dh)> dd;
    const std::size_t N = hn::Lanes(df);

    const auto absMask = hn::Set(di, kAbsMask);
    const auto infBits = hn::Set(di, kInfBits);
    const auto negInfBits = hn::Set(di, kNegInfBits);
    const auto normalBits = hn::Set(di, static_cast<std::int32_t>(minNormalBits));
    const auto f16Max = hn::Set(di, kF16MaxBits);
    const auto f16Under = hn::Set(di, kF16UnderBits);
    const auto bf16Under = hn::Set(di, kBf16UnderBits);
    const auto posInf = hn::Set(df, std::numeric_limits<float>::infinity());
    const auto negInf = hn::Set(df, -std::numeric_limits<float>::infinity());

    // Counters hold minus the count (a true mask is -1); blocks are short enough for int32 lanes.
    auto cNan = hn::Zero(di), cInf = hn::Zero(di), cNegInf = hn::Zero(di), cZero = hn::Zero(di);
    auto cBelowNormal = hn::Zero(di), cAboveF16 = hn::Zero(di), cF16Under = hn::Zero(di),
         cBf16Under = hn::Zero(di);
    auto vMin = posInf, vMax = negInf;
    auto vAbsMin = absMask;
    auto sumLo = hn::Zero(dd), sumHi = hn::Zero(dd);

    std::size_t i = 0;
    for (; i + N <= n; i += N) {
        PrefetchAhead(p + i, N * sizeof(float));
        const auto v = hn::LoadU(df, p + i);
        const auto b = hn::BitCast(di, v);
        const auto a = hn::And(b, absMask);
        const auto zero = hn::Eq(a, hn::Zero(di));
        cZero = hn::Add(cZero, hn::VecFromMask(di, zero));
        cBelowNormal = hn::Add(cBelowNormal, hn::VecFromMask(di, hn::Lt(a, normalBits)));
        // Non-negative float bit patterns order like the floats, so an integer min finds min |x|.
        vAbsMin = hn::Min(vAbsMin, hn::IfThenElse(zero, absMask, a));
        // Zeros and subnormals are common (pruned weights, F8/F4 codes); NaN, Inf and values
        // outside F16's range are rare, so the counters for those run only when a lane has one.
        const auto rare = hn::Or(hn::Gt(a, f16Max), hn::AndNot(zero, hn::Lt(a, f16Under)));
        if (hn::AllFalse(di, rare)) {
            vMin = hn::Min(vMin, v);
            vMax = hn::Max(vMax, v);
            sumLo = hn::Add(sumLo, hn::PromoteTo(dd, hn::LowerHalf(dh, v)));
            sumHi = hn::Add(sumHi, hn::PromoteTo(dd, hn::UpperHalf(dh, v)));
            continue;
        }
        cNan = hn::Add(cNan, hn::VecFromMask(di, hn::Gt(a, infBits)));
        cInf = hn::Add(cInf, hn::VecFromMask(di, hn::Eq(a, infBits)));
        cNegInf = hn::Add(cNegInf, hn::VecFromMask(di, hn::Eq(b, negInfBits)));
        cAboveF16 = hn::Add(cAboveF16, hn::VecFromMask(di, hn::Gt(a, f16Max)));
        cF16Under = hn::Add(cF16Under, hn::VecFromMask(di, hn::AndNot(zero, hn::Lt(a, f16Under))));
        cBf16Under = hn::Add(cBf16Under, hn::VecFromMask(di, hn::AndNot(zero, hn::Lt(a, bf16Under))));
        const auto finite = hn::RebindMask(df, hn::Lt(a, infBits));
        vMin = hn::Min(vMin, hn::IfThenElse(finite, v, posInf));
        vMax = hn::Max(vMax, hn::IfThenElse(finite, v, negInf));
        const auto vf = hn::IfThenElseZero(finite, v);
        sumLo = hn::Add(sumLo, hn::PromoteTo(dd, hn::LowerHalf(dh, vf)));
        sumHi = hn::Add(sumHi, hn::PromoteTo(dd, hn::UpperHalf(dh, vf)));
    }
    FloatBlockSummary s;
    const auto count = [&](auto v) {
        return static_cast<std::uint64_t>(-hn::GetLane(hn::SumOfLanes(di, v)));
    };
    s.nan = count(cNan);
    s.inf = count(cInf);
    s.negInf = count(cNegInf);
    s.zeros = count(cZero);
    s.belowNormal = count(cBelowNormal);
    s.aboveF16 = count(cAboveF16);
    s.f16Underflow = count(cF16Under);
    s.bf16Underflow = count(cBf16Under);
    s.min = hn::GetLane(hn::MinOfLanes(df, vMin));
    s.max = hn::GetLane(hn::MaxOfLanes(df, vMax));
    s.minAbsNonzeroBits = static_cast<std::uint32_t>(hn::GetLane(hn::MinOfLanes(di, vAbsMin)));
    s.sum = hn::GetLane(hn::SumOfLanes(dd, hn::Add(sumLo, sumHi)));
    ScalarTail(p + i, n - i, static_cast<std::int32_t>(minNormalBits), s);
    s.finite = n - s.nan - s.inf;
    *out = s;
#endif
}

// The common case first: a block of ordinary weights (every |x| in (2^-25, 65504], so no zero,
// NaN, Inf, subnormal or F16 over/underflow) needs only min, max and sum. One pass tracks the
// smallest |x| bit pattern, min and max; only a block that leaves that range is re-read by the
// full counting pass (it is in L1 by then). This halves the work per element on typical tensors.
// `load(i, v0, v1)` gives elements [i, i + 2N) as two float vectors and `at(i)` one element.
// Returns false, with `out` untouched, when the block is not ordinary.
// kZeros also admits zeros and values below the dtype's smallest normal (down to 2^-25), counting
// them: real F16 tensors have both in nearly every block (a face-recognition model's F16 weights:
// 20% zeros, 1% subnormals, 97% of blocks), and without it each such block took the full pass
// and a second one for m2, at half the speed.
#if HWY_TARGET != HWY_SCALAR
template <bool kZeros, class Load, class At>
bool SummarizeOrdinary(const Load& load, const At& at, std::size_t n, std::uint32_t minNormalBits,
                       double pivot, FloatBlockSummary* HWY_RESTRICT out)
{
    const hn::ScalableTag<float> df;
    const hn::RebindToSigned<decltype(df)> di;
    const hn::Half<decltype(df)> dh;
    const hn::Rebind<double, decltype(dh)> dd;
    const std::size_t N = hn::Lanes(df);
    const std::int32_t lowest =
        kZeros ? kF16UnderBits
               : std::max<std::int32_t>(static_cast<std::int32_t>(minNormalBits), kF16UnderBits);
    const auto absMask = hn::Set(di, kAbsMask);
    const auto normalBits = hn::Set(di, static_cast<std::int32_t>(minNormalBits));
    // kZeros: minus the zeros and minus the values below normal (zeros included), per lane.
    auto cZero = hn::Zero(di), cBelow = hn::Zero(di);
    const auto k = hn::Set(dd, pivot);
    // Only the smallest magnitude is tracked in integer lanes (zeros, subnormals, F16 underflow).
    // The largest needs no chain of its own: |x| <= 65504 is max <= 65504 and min >= -65504, and
    // a NaN, which min/max may skip, makes the sums NaN.
    auto aMin = hn::Set(di, kAbsMask);
    auto vMin = hn::Set(df, std::numeric_limits<float>::infinity());
    auto vMax = hn::Set(df, -std::numeric_limits<float>::infinity());
    // Four independent sum chains and four square chains: the adds' latency is hidden.
    auto s0 = hn::Zero(dd), s1 = hn::Zero(dd), s2 = hn::Zero(dd), s3 = hn::Zero(dd);
    auto q0 = hn::Zero(dd), q1 = hn::Zero(dd), q2 = hn::Zero(dd), q3 = hn::Zero(dd);
    std::size_t i = 0;
    for (; i + 2 * N <= n; i += 2 * N) {
        hn::Vec<decltype(df)> v0, v1;
        load(i, v0, v1);
        const auto a0 = hn::And(hn::BitCast(di, v0), absMask);
        const auto a1 = hn::And(hn::BitCast(di, v1), absMask);
        if constexpr (kZeros) {
            const auto z0 = hn::Eq(a0, hn::Zero(di));
            const auto z1 = hn::Eq(a1, hn::Zero(di));
            cZero = hn::Add(cZero, hn::Add(hn::VecFromMask(di, z0), hn::VecFromMask(di, z1)));
            cBelow = hn::Add(cBelow, hn::Add(hn::VecFromMask(di, hn::Lt(a0, normalBits)),
                                             hn::VecFromMask(di, hn::Lt(a1, normalBits))));
            // The smallest non-zero |x|: a zero lane counts as the largest pattern.
            aMin = hn::Min(aMin, hn::Min(hn::IfThenElse(z0, absMask, a0), hn::IfThenElse(z1, absMask, a1)));
        } else {
            aMin = hn::Min(aMin, hn::Min(a0, a1));
        }
        vMin = hn::Min(vMin, hn::Min(v0, v1));
        vMax = hn::Max(vMax, hn::Max(v0, v1));
        const auto d0 = hn::Sub(hn::PromoteTo(dd, hn::LowerHalf(dh, v0)), k);
        const auto d1 = hn::Sub(hn::PromoteTo(dd, hn::UpperHalf(dh, v0)), k);
        const auto d2 = hn::Sub(hn::PromoteTo(dd, hn::LowerHalf(dh, v1)), k);
        const auto d3 = hn::Sub(hn::PromoteTo(dd, hn::UpperHalf(dh, v1)), k);
        s0 = hn::Add(s0, d0);
        s1 = hn::Add(s1, d1);
        s2 = hn::Add(s2, d2);
        s3 = hn::Add(s3, d3);
        q0 = hn::MulAdd(d0, d0, q0);
        q1 = hn::MulAdd(d1, d1, q1);
        q2 = hn::MulAdd(d2, d2, q2);
        q3 = hn::MulAdd(d3, d3, q3);
    }
    const std::int32_t lo = i == 0 ? kAbsMask : hn::GetLane(hn::MinOfLanes(di, aMin));
    const float f16Max = std::bit_cast<float>(kF16MaxBits);
    const float vecMin = hn::GetLane(hn::MinOfLanes(df, vMin));
    const float vecMax = hn::GetLane(hn::MaxOfLanes(df, vMax));
    double sum = hn::GetLane(hn::SumOfLanes(dd, hn::Add(hn::Add(s0, s1), hn::Add(s2, s3))));
    double squares = hn::GetLane(hn::SumOfLanes(dd, hn::Add(hn::Add(q0, q1), hn::Add(q2, q3))));
    bool ordinary = i > 0 && lo >= lowest && vecMax <= f16Max && vecMin >= -f16Max && std::isfinite(sum) &&
                    std::isfinite(squares);
    for (std::size_t t = i; t < n && ordinary; ++t) {
        const auto a = static_cast<std::int32_t>(std::bit_cast<std::uint32_t>(at(t)) & 0x7fffffffu);
        ordinary = (a >= lowest || (kZeros && a == 0)) && a <= kF16MaxBits;
    }
    if (!ordinary)
        return false;
    FloatBlockSummary s;
    s.finite = n;
    s.min = vecMin;
    s.max = vecMax;
    s.minAbsNonzeroBits = static_cast<std::uint32_t>(lo);
    s.pivot = pivot;
    if constexpr (kZeros) {
        s.zeros = static_cast<std::uint64_t>(-hn::GetLane(hn::SumOfLanes(di, cZero)));
        s.belowNormal = static_cast<std::uint64_t>(-hn::GetLane(hn::SumOfLanes(di, cBelow)));
    }
    for (; i < n; ++i) {
        const float x = at(i);
        const std::uint32_t a = std::bit_cast<std::uint32_t>(x) & 0x7fffffffu;
        s.min = std::min(s.min, x);
        s.max = std::max(s.max, x);
        const double d = static_cast<double>(x) - pivot;
        sum += d;
        squares += d * d;
        if (a != 0)
            s.minAbsNonzeroBits = std::min(s.minAbsNonzeroBits, a);
        s.zeros += a == 0;
        s.belowNormal += a < minNormalBits;
    }
    s.sum = sum;
    // S2 - S1^2/n loses about log10(S2 / m2) digits. With a pivot far from this block's mean (the
    // values jumped since the last block, or the first block opens with an outlier) leave m2 to
    // the exact two-pass path, from L1; within a factor 1000 the error stays below 1e-13.
    const double m2 = squares - sum * (sum / static_cast<double>(n));
    s.m2 = m2 >= squares * 1e-3 ? m2 : -1.0;
    *out = s;
    return true;
}
#endif

void SummarizeFloats(const float* HWY_RESTRICT p, std::size_t n, std::uint32_t minNormalBits, double pivot,
                     bool zerosLikely, FloatBlockSummary* HWY_RESTRICT out)
{
#if HWY_TARGET == HWY_SCALAR
    (void)pivot;
    (void)zerosLikely;
    SummarizeFloatsFull(p, n, minNormalBits, out);
#else
    const hn::ScalableTag<float> df;
    const std::size_t N = hn::Lanes(df);
    const auto load = [&](std::size_t i, hn::Vec<decltype(df)>& v0, hn::Vec<decltype(df)>& v1) {
        PrefetchAhead(p + i, 2 * N * sizeof(float));
        v0 = hn::LoadU(df, p + i);
        v1 = hn::LoadU(df, p + i + N);
    };
    const auto at = [&](std::size_t i) { return p[i]; };
    const bool done = zerosLikely ? SummarizeOrdinary<true>(load, at, n, minNormalBits, pivot, out)
                                  : SummarizeOrdinary<false>(load, at, n, minNormalBits, pivot, out);
    if (!done)
        SummarizeFloatsFull(p, n, minNormalBits, out);
#endif
}

double SumSquaredDeviations(const float* HWY_RESTRICT p, std::size_t n, double mean)
{
#if HWY_TARGET == HWY_SCALAR
    double total = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double d = static_cast<double>(p[i]) - mean;
        total += d * d;
    }
    return total;
#else
    const hn::ScalableTag<float> df;
    const hn::Half<decltype(df)> dh;
    const hn::Rebind<double, decltype(dh)> dd;
    const std::size_t N = hn::Lanes(df);
    const auto m = hn::Set(dd, mean);
    auto acc0 = hn::Zero(dd), acc1 = hn::Zero(dd), acc2 = hn::Zero(dd), acc3 = hn::Zero(dd);
    std::size_t i = 0;
    // Two vectors per iteration, four accumulators: hides the add latency.
    for (; i + 2 * N <= n; i += 2 * N) {
        const auto v0 = hn::LoadU(df, p + i);
        const auto v1 = hn::LoadU(df, p + i + N);
        const auto d0 = hn::Sub(hn::PromoteTo(dd, hn::LowerHalf(dh, v0)), m);
        const auto d1 = hn::Sub(hn::PromoteTo(dd, hn::UpperHalf(dh, v0)), m);
        const auto d2 = hn::Sub(hn::PromoteTo(dd, hn::LowerHalf(dh, v1)), m);
        const auto d3 = hn::Sub(hn::PromoteTo(dd, hn::UpperHalf(dh, v1)), m);
        acc0 = hn::MulAdd(d0, d0, acc0);
        acc1 = hn::MulAdd(d1, d1, acc1);
        acc2 = hn::MulAdd(d2, d2, acc2);
        acc3 = hn::MulAdd(d3, d3, acc3);
    }
    double total = hn::GetLane(hn::SumOfLanes(dd, hn::Add(hn::Add(acc0, acc1), hn::Add(acc2, acc3))));
    for (; i < n; ++i) {
        const double d = static_cast<double>(p[i]) - mean;
        total += d * d;
    }
    return total;
#endif
}

// The scalar twin of the vector bodies below, for the tail and the one-lane target.
std::uint32_t BinOf(double f, std::uint32_t bins, double margin)
{
    if (!(f >= 0) || !(f < static_cast<double>(bins)))
        return kNoBin;
    const double whole = std::floor(f);
    const double frac = f - whole;
    if (frac < margin || frac > 1 - margin)
        return kNoBin;
    return static_cast<std::uint32_t>(whole);
}

#if HWY_TARGET != HWY_SCALAR
// Stores the bins of one vector of coordinates f: floor(f) where f is in [0, bins) and at least
// `margin` from an edge, kNoBin (-1 as int32) elsewhere; a NaN f fails every comparison.
// Float lanes: twice the lanes of double, and the margin covers float's rounding.
// The positions of kNoBin lanes are appended to `missed` (rare: the caller fixes only those).
template <class DF, class VF>
HWY_INLINE void StoreBins(DF df, VF f, VF top, VF lowMargin, VF highMargin, std::size_t at,
                          std::uint32_t* HWY_RESTRICT out, std::uint32_t* HWY_RESTRICT missed,
                          std::size_t& missing)
{
    const hn::RebindToSigned<DF> di;
    const auto whole = hn::Floor(f);
    const auto frac = hn::Sub(f, whole);
    const auto ok = hn::And(hn::And(hn::Ge(f, hn::Zero(df)), hn::Lt(f, top)),
                            hn::And(hn::Ge(frac, lowMargin), hn::Le(frac, highMargin)));
    const auto index = hn::ConvertTo(di, hn::IfThenElse(ok, whole, hn::Set(df, -1.0f)));
    hn::StoreU(index, di, reinterpret_cast<std::int32_t*>(out + at));
    if (!hn::AllTrue(df, ok)) {
        for (std::size_t lane = 0; lane < hn::Lanes(df); ++lane) {
            if (out[at + lane] == kNoBin)
                missed[missing++] = static_cast<std::uint32_t>(at + lane);
        }
    }
}
#endif

std::size_t LinearBins(const float* HWY_RESTRICT p, std::size_t n, double lo, double norm, std::uint32_t bins,
                       double margin, std::uint32_t* HWY_RESTRICT out, std::uint32_t* HWY_RESTRICT missed)
{
    std::size_t i = 0, missing = 0;
#if HWY_TARGET != HWY_SCALAR
    const hn::ScalableTag<float> df;
    const std::size_t N = hn::Lanes(df);
    const auto vLo = hn::Set(df, static_cast<float>(lo));
    const auto vNorm = hn::Set(df, static_cast<float>(norm));
    const auto top = hn::Set(df, static_cast<float>(bins));
    const auto lowMargin = hn::Set(df, static_cast<float>(margin));
    const auto highMargin = hn::Set(df, static_cast<float>(1 - margin));
    for (; i + N <= n; i += N) {
        PrefetchAhead(p + i, N * sizeof(float));
        const auto f = hn::Mul(hn::Sub(hn::LoadU(df, p + i), vLo), vNorm);
        StoreBins(df, f, top, lowMargin, highMargin, i, out, missed, missing);
    }
#endif
    for (; i < n; ++i) {
        out[i] = BinOf((static_cast<double>(p[i]) - lo) * norm, bins, margin);
        if (out[i] == kNoBin)
            missed[missing++] = static_cast<std::uint32_t>(i);
    }
    return missing;
}

// log10 of a normal float's magnitude: exponent e and mantissa m in [sqrt(1/2), sqrt(2)),
// log(m) = 2 atanh(t) with t = (m - 1) / (m + 1), |t| < 0.172; the series to t^11 leaves
// < 4e-11. Zero, subnormal, Inf and NaN give NaN (the caller's kNoBin).
double Log10Scalar(float x)
{
    std::uint32_t u;
    std::memcpy(&u, &x, 4);
    const std::uint32_t a = u & 0x7fffffffu;
    if (a < 0x00800000u || a >= 0x7f800000u)
        return std::numeric_limits<double>::quiet_NaN();
    int e = static_cast<int>(a >> 23) - 127;
    std::uint32_t mBits = (a & 0x007fffffu) | 0x3f800000u;
    if (mBits > 0x3fb504f3u) { // m > sqrt(2): use m / 2 and e + 1
        mBits -= 0x00800000u;
        ++e;
    }
    float m;
    std::memcpy(&m, &mBits, 4);
    const double t = (static_cast<double>(m) - 1) / (static_cast<double>(m) + 1);
    const double t2 = t * t;
    const double series =
        t * (1 + t2 * (1.0 / 3 + t2 * (1.0 / 5 + t2 * (1.0 / 7 + t2 * (1.0 / 9 + t2 / 11)))));
    return static_cast<double>(e) * 0.30102999566398120 + series * 0.86858896380650366; // 2 / ln 10
}

std::size_t LogBins(const float* HWY_RESTRICT p, std::size_t n, double lo, double norm, std::uint32_t bins,
                    double margin, std::uint32_t* HWY_RESTRICT out, std::uint32_t* HWY_RESTRICT missed)
{
    std::size_t i = 0, missing = 0;
#if HWY_TARGET != HWY_SCALAR
    const hn::ScalableTag<float> df;
    const hn::RebindToSigned<decltype(df)> di;
    const std::size_t N = hn::Lanes(df);
    const auto absMask = hn::Set(di, 0x7fffffff);
    const auto belowNormal = hn::Set(di, 0x007fffff); // a > this: not zero, not subnormal
    const auto infBits = hn::Set(di, 0x7f800000);
    const auto mantMask = hn::Set(di, 0x007fffff);
    const auto oneBits = hn::Set(di, 0x3f800000);
    const auto nanBits = hn::Set(di, 0x7fc00000);
    const auto sqrt2Bits = hn::Set(di, 0x3fb504f3);
    const auto expStep = hn::Set(di, 0x00800000);
    const auto bias = hn::Set(di, 127);
    const auto oneI = hn::Set(di, 1);
    const auto one = hn::Set(df, 1.0f);
    // The series to t^9 in float: the next term is below 2e-9, far under float's own rounding.
    const auto c3 = hn::Set(df, 1.0f / 3), c5 = hn::Set(df, 1.0f / 5), c7 = hn::Set(df, 1.0f / 7),
               c9 = hn::Set(df, 1.0f / 9);
    const auto log10of2 = hn::Set(df, 0.30102999566398120f);
    const auto twoOverLn10 = hn::Set(df, 0.86858896380650366f);
    const auto vLo = hn::Set(df, static_cast<float>(lo));
    const auto vNorm = hn::Set(df, static_cast<float>(norm));
    const auto top = hn::Set(df, static_cast<float>(bins));
    const auto lowMargin = hn::Set(df, static_cast<float>(margin));
    const auto highMargin = hn::Set(df, static_cast<float>(1 - margin));
    for (; i + N <= n; i += N) {
        const auto a = hn::And(hn::BitCast(di, hn::LoadU(df, p + i)), absMask);
        const auto normal = hn::And(hn::Gt(a, belowNormal), hn::Lt(a, infBits));
        auto mBits = hn::Or(hn::And(a, mantMask), oneBits);
        auto e = hn::Sub(hn::ShiftRight<23>(a), bias);
        const auto big = hn::Gt(mBits, sqrt2Bits); // m > sqrt(2): use m / 2 and e + 1
        mBits = hn::IfThenElse(big, hn::Sub(mBits, expStep), mBits);
        e = hn::IfThenElse(big, hn::Add(e, oneI), e);
        // Zero, subnormal, Inf, NaN: a NaN mantissa makes the coordinate NaN, hence kNoBin.
        mBits = hn::IfThenElse(normal, mBits, nanBits);
        const auto m = hn::BitCast(df, mBits);
        const auto t = hn::Div(hn::Sub(m, one), hn::Add(m, one));
        const auto t2 = hn::Mul(t, t);
        auto poly = hn::MulAdd(t2, c9, c7);
        poly = hn::MulAdd(t2, poly, c5);
        poly = hn::MulAdd(t2, poly, c3);
        poly = hn::MulAdd(t2, poly, one);
        const auto log10 = hn::MulAdd(hn::ConvertTo(df, e), log10of2, hn::Mul(hn::Mul(t, poly), twoOverLn10));
        StoreBins(df, hn::Mul(hn::Sub(log10, vLo), vNorm), top, lowMargin, highMargin, i, out, missed,
                  missing);
    }
#endif
    for (; i < n; ++i) {
        out[i] = BinOf((Log10Scalar(p[i]) - lo) * norm, bins, margin);
        if (out[i] == kNoBin)
            missed[missing++] = static_cast<std::uint32_t>(i);
    }
    return missing;
}

// Whether any lane of `bytes` (lanes of 1, 2, 4 or 8 bytes) has (lane & mask) == value. The NaN/Inf
// check: one AND and one compare per vector, ORed together; nothing leaves the loop early, so the
// loads stream at memory speed.
template <typename T> bool AnyMaskedLanes(const std::uint8_t* HWY_RESTRICT p, std::size_t n, T mask, T value)
{
    std::size_t i = 0;
    bool found = false;
#if HWY_TARGET != HWY_SCALAR
    const hn::ScalableTag<T> d;
    const std::size_t N = hn::Lanes(d);
    const auto* lanes = reinterpret_cast<const T*>(p);
    const auto m = hn::Set(d, mask);
    const auto v = hn::Set(d, value);
    auto hit0 = hn::Zero(d), hit1 = hn::Zero(d);
    for (; i + 4 * N <= n; i += 4 * N) {
        PrefetchAhead(lanes + i, 4 * N * sizeof(T));
        const auto a = hn::Eq(hn::And(hn::LoadU(d, lanes + i), m), v);
        const auto b = hn::Eq(hn::And(hn::LoadU(d, lanes + i + N), m), v);
        const auto c = hn::Eq(hn::And(hn::LoadU(d, lanes + i + 2 * N), m), v);
        const auto e = hn::Eq(hn::And(hn::LoadU(d, lanes + i + 3 * N), m), v);
        hit0 = hn::Or(hit0, hn::VecFromMask(d, hn::Or(a, b)));
        hit1 = hn::Or(hit1, hn::VecFromMask(d, hn::Or(c, e)));
    }
    found = !hn::AllTrue(d, hn::Eq(hn::Or(hit0, hit1), hn::Zero(d)));
#endif
    for (; i < n && !found; ++i) {
        T lane;
        std::memcpy(&lane, p + i * sizeof(T), sizeof(T));
        found = (lane & mask) == value;
    }
    return found;
}

bool AnyMasked(const void* HWY_RESTRICT p, std::size_t lanes, int laneBytes, std::uint64_t mask,
               std::uint64_t value)
{
    const auto* bytes = static_cast<const std::uint8_t*>(p);
    switch (laneBytes) {
    case 1:
        return AnyMaskedLanes<std::uint8_t>(bytes, lanes, static_cast<std::uint8_t>(mask),
                                            static_cast<std::uint8_t>(value));
    case 2:
        return AnyMaskedLanes<std::uint16_t>(bytes, lanes, static_cast<std::uint16_t>(mask),
                                             static_cast<std::uint16_t>(value));
    case 4:
        return AnyMaskedLanes<std::uint32_t>(bytes, lanes, static_cast<std::uint32_t>(mask),
                                             static_cast<std::uint32_t>(value));
    default:
        return AnyMaskedLanes<std::uint64_t>(bytes, lanes, mask, value);
    }
}

template <typename T> std::size_t FindEitherLanes(const T* HWY_RESTRICT p, std::size_t n, T a, T b)
{
    std::size_t i = 0;
#if HWY_TARGET != HWY_SCALAR
    const hn::ScalableTag<T> d;
    const std::size_t N = hn::Lanes(d);
    const auto va = hn::Set(d, a), vb = hn::Set(d, b);
    for (; i + N <= n; i += N) {
        const auto v = hn::LoadU(d, p + i);
        const intptr_t at = hn::FindFirstTrue(d, hn::Or(hn::Eq(v, va), hn::Eq(v, vb)));
        if (at >= 0)
            return i + static_cast<std::size_t>(at);
    }
#endif
    for (; i < n; ++i) {
        if (p[i] == a || p[i] == b)
            return i;
    }
    return n;
}

std::size_t FindEither(const void* HWY_RESTRICT p, std::size_t lanes, int laneBytes, std::uint32_t a,
                       std::uint32_t b)
{
    if (laneBytes == 1)
        return FindEitherLanes(static_cast<const std::uint8_t*>(p), lanes, static_cast<std::uint8_t>(a),
                               static_cast<std::uint8_t>(b));
    return FindEitherLanes(static_cast<const std::uint16_t*>(p), lanes, static_cast<std::uint16_t>(a),
                           static_cast<std::uint16_t>(b));
}

std::uint32_t OrderKeyScalar(float x)
{
    const auto u = std::bit_cast<std::uint32_t>(x);
    return u & 0x80000000u ? ~u : u | 0x80000000u;
}

#if HWY_TARGET != HWY_SCALAR
// Order keys of float bits in lanes, as OrderKeyScalar: negative values flipped whole, the others
// given the sign bit.
template <class DU, class VU> HWY_INLINE VU OrderKeys(DU du, VU u)
{
    const hn::RebindToSigned<DU> di;
    const auto flip =
        hn::Or(hn::BitCast(du, hn::BroadcastSignBit(hn::BitCast(di, u))), hn::Set(du, 0x80000000u));
    return hn::Xor(u, flip);
}
#endif

// The top 16 bits of each value's order key (CodeCounter::orderKey), as 32-bit indices for the
// caller's count: the key of every value, NaN and Inf included, in one XOR per lane.
void KeyPrefixes(const float* HWY_RESTRICT p, std::size_t n, std::uint32_t* HWY_RESTRICT out)
{
    std::size_t i = 0;
#if HWY_TARGET != HWY_SCALAR
    const hn::ScalableTag<std::uint32_t> du;
    const std::size_t N = hn::Lanes(du);
    for (; i + N <= n; i += N) {
        PrefetchAhead(p + i, N * 4);
        const auto u = hn::LoadU(du, reinterpret_cast<const std::uint32_t*>(p + i));
        hn::StoreU(hn::ShiftRight<16>(OrderKeys(du, u)), du, out + i);
    }
#endif
    for (; i < n; ++i)
        out[i] = OrderKeyScalar(p[i]) >> 16;
}

// Order keys in lanes (CodeCounter's orderKey: negative floats flipped whole, positive ones get
// the sign bit), compared 16 lanes at a time with each target; the rare matching lanes are then
// listed one by one. About 2% of a weight tensor's values sit in the buckets of its 7 quantiles.
std::size_t MatchKeyPrefixes(const float* HWY_RESTRICT p, std::size_t n,
                             const std::uint32_t* HWY_RESTRICT targets, std::size_t count,
                             std::uint32_t* HWY_RESTRICT out)
{
    std::size_t i = 0, found = 0;
    const auto append = [&](std::size_t at) {
        const std::uint32_t key = OrderKeyScalar(p[at]);
        for (std::size_t t = 0; t < count; ++t) {
            if (targets[t] == key >> 16) {
                out[found++] = static_cast<std::uint32_t>(t << 16) | (key & 0xffffu);
                return;
            }
        }
    };
#if HWY_TARGET != HWY_SCALAR
    const hn::ScalableTag<std::uint32_t> du;
    const std::size_t N = hn::Lanes(du);
    hn::Vec<decltype(du)> wanted[8];
    for (std::size_t t = 0; t < count && t < 8; ++t)
        wanted[t] = hn::Set(du, targets[t]);
    for (; i + N <= n; i += N) {
        PrefetchAhead(p + i, N * 4);
        const auto u = hn::LoadU(du, reinterpret_cast<const std::uint32_t*>(p + i));
        const auto prefix = hn::ShiftRight<16>(OrderKeys(du, u));
        auto hit = hn::Eq(prefix, wanted[0]);
        for (std::size_t t = 1; t < count; ++t)
            hit = hn::Or(hit, hn::Eq(prefix, wanted[t]));
        if (HWY_UNLIKELY(!hn::AllFalse(du, hit))) {
            for (std::size_t lane = 0; lane < N; ++lane)
                append(i + lane);
        }
    }
#endif
    for (; i < n; ++i)
        append(i);
    return found;
}

const char* TargetName()
{
    return hwy::TargetName(HWY_TARGET);
}

bool SummingHalfsBeatsCounting()
{
#if HWY_ARCH_X86
    return HWY_TARGET <= HWY_AVX2;
#else
    return HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128;
#endif
}

} // namespace HWY_NAMESPACE
} // namespace ts::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ts::simd {

HWY_EXPORT(SummarizeFloats);
HWY_EXPORT(SumSquaredDeviations);
HWY_EXPORT(LinearBins);
HWY_EXPORT(LogBins);
HWY_EXPORT(AnyMasked);
HWY_EXPORT(FindEither);
HWY_EXPORT(MatchKeyPrefixes);
HWY_EXPORT(KeyPrefixes);
HWY_EXPORT(TargetName);
HWY_EXPORT(SummingHalfsBeatsCounting);

void summarizeFloats(const float* p, std::size_t n, std::uint32_t minNormalBits, double pivot,
                     FloatBlockSummary& out, bool zerosLikely)
{
    HWY_DYNAMIC_DISPATCH(SummarizeFloats)(p, n, minNormalBits, pivot, zerosLikely, &out);
}

double sumSquaredDeviations(const float* p, std::size_t n, double mean)
{
    return HWY_DYNAMIC_DISPATCH(SumSquaredDeviations)(p, n, mean);
}

std::size_t linearBins(const float* p, std::size_t n, double lo, double norm, std::uint32_t bins,
                       double margin, std::uint32_t* out, std::uint32_t* missed)
{
    return HWY_DYNAMIC_DISPATCH(LinearBins)(p, n, lo, norm, bins, margin, out, missed);
}

std::size_t logBins(const float* p, std::size_t n, double lo, double norm, std::uint32_t bins, double margin,
                    std::uint32_t* out, std::uint32_t* missed)
{
    return HWY_DYNAMIC_DISPATCH(LogBins)(p, n, lo, norm, bins, margin, out, missed);
}

bool anyMasked(const void* p, std::size_t lanes, int laneBytes, std::uint64_t mask, std::uint64_t value)
{
    return HWY_DYNAMIC_DISPATCH(AnyMasked)(p, lanes, laneBytes, mask, value);
}

std::size_t findEither(const void* p, std::size_t lanes, int laneBytes, std::uint32_t a, std::uint32_t b)
{
    return HWY_DYNAMIC_DISPATCH(FindEither)(p, lanes, laneBytes, a, b);
}

std::size_t matchKeyPrefixes(const float* p, std::size_t n, const std::uint32_t* targets, std::size_t count,
                             std::uint32_t* out)
{
    return HWY_DYNAMIC_DISPATCH(MatchKeyPrefixes)(p, n, targets, count, out);
}

void keyPrefixes(const float* p, std::size_t n, std::uint32_t* out)
{
    HWY_DYNAMIC_DISPATCH(KeyPrefixes)(p, n, out);
}

const char* targetName()
{
    return HWY_DYNAMIC_DISPATCH(TargetName)();
}

bool summingHalfsBeatsCounting()
{
    return HWY_DYNAMIC_DISPATCH(SummingHalfsBeatsCounting)();
}

} // namespace ts::simd
#endif
