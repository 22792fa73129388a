// Compiled once per SIMD target by Highway's foreach_target; HWY_DYNAMIC_DISPATCH picks the best
// one for the running CPU, so no -march flag is needed.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "analysis/SimdKernels.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include <hwy/highway.h>

#include "analysis/DtypeDecoder.h"
#include "analysis/SimdKernels.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

HWY_BEFORE_NAMESPACE();
namespace ts::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

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
// smallest and largest |x| bit patterns; only a block that leaves that range is re-read by the full
// counting pass (it is in L1 by then). This halves the work per element on typical tensors.
void SummarizeFloats(const float* HWY_RESTRICT p, std::size_t n, std::uint32_t minNormalBits,
                     FloatBlockSummary* HWY_RESTRICT out)
{
#if HWY_TARGET == HWY_SCALAR
    SummarizeFloatsFull(p, n, minNormalBits, out);
#else
    const hn::ScalableTag<float> df;
    const hn::RebindToSigned<decltype(df)> di;
    const hn::Half<decltype(df)> dh;
    const hn::Rebind<double, decltype(dh)> dd;
    const std::size_t N = hn::Lanes(df);
    const std::int32_t lowest =
        std::max<std::int32_t>(static_cast<std::int32_t>(minNormalBits), kF16UnderBits);
    const auto absMask = hn::Set(di, kAbsMask);
    auto aMin = hn::Set(di, kAbsMask), aMax = hn::Zero(di);
    auto vMin = hn::Set(df, std::numeric_limits<float>::infinity());
    auto vMax = hn::Set(df, -std::numeric_limits<float>::infinity());
    auto sumLo = hn::Zero(dd), sumHi = hn::Zero(dd);
    std::size_t i = 0;
    for (; i + N <= n; i += N) {
        const auto v = hn::LoadU(df, p + i);
        const auto a = hn::And(hn::BitCast(di, v), absMask);
        aMin = hn::Min(aMin, a);
        aMax = hn::Max(aMax, a);
        vMin = hn::Min(vMin, v);
        vMax = hn::Max(vMax, v);
        sumLo = hn::Add(sumLo, hn::PromoteTo(dd, hn::LowerHalf(dh, v)));
        sumHi = hn::Add(sumHi, hn::PromoteTo(dd, hn::UpperHalf(dh, v)));
    }
    const std::int32_t lo = hn::GetLane(hn::MinOfLanes(di, aMin));
    const std::int32_t hi = hn::GetLane(hn::MaxOfLanes(di, aMax));
    bool ordinary = i == 0 || (lo >= lowest && hi <= kF16MaxBits);
    for (std::size_t k = i; k < n && ordinary; ++k) {
        std::uint32_t u;
        std::memcpy(&u, &p[k], 4);
        const auto a = static_cast<std::int32_t>(u & 0x7fffffffu);
        ordinary = a >= lowest && a <= kF16MaxBits;
    }
    if (!ordinary || i == 0) {
        SummarizeFloatsFull(p, n, minNormalBits, out);
        return;
    }
    FloatBlockSummary s;
    s.finite = n;
    s.min = hn::GetLane(hn::MinOfLanes(df, vMin));
    s.max = hn::GetLane(hn::MaxOfLanes(df, vMax));
    s.minAbsNonzeroBits = static_cast<std::uint32_t>(lo);
    s.sum = hn::GetLane(hn::SumOfLanes(dd, hn::Add(sumLo, sumHi)));
    for (; i < n; ++i) {
        s.min = std::min(s.min, p[i]);
        s.max = std::max(s.max, p[i]);
        s.sum += p[i];
        std::uint32_t u;
        std::memcpy(&u, &p[i], 4);
        s.minAbsNonzeroBits = std::min(s.minAbsNonzeroBits, u & 0x7fffffffu);
    }
    *out = s;
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

void F16ToF32(const void* HWY_RESTRICT src, std::size_t n, float* HWY_RESTRICT out)
{
    const hn::ScalableTag<float> df;
    const hn::Rebind<hwy::float16_t, decltype(df)> dh;
    const std::size_t N = hn::Lanes(df);
    const auto* in = static_cast<const hwy::float16_t*>(src);
    std::size_t i = 0;
    for (; i + N <= n; i += N)
        hn::StoreU(hn::PromoteTo(df, hn::LoadU(dh, in + i)), df, out + i);
    for (; i < n; ++i)
        out[i] = ts::decode::f16(std::bit_cast<std::uint16_t>(in[i]));
}

void Bf16ToF32(const void* HWY_RESTRICT src, std::size_t n, float* HWY_RESTRICT out)
{
    const hn::ScalableTag<float> df;
    const hn::RebindToUnsigned<decltype(df)> du;
    const hn::Rebind<std::uint16_t, decltype(df)> d16;
    const std::size_t N = hn::Lanes(df);
    const auto* in = static_cast<const std::uint16_t*>(src);
    std::size_t i = 0;
    for (; i + N <= n; i += N) {
        const auto wide = hn::ShiftLeft<16>(hn::PromoteTo(du, hn::LoadU(d16, in + i)));
        hn::StoreU(hn::BitCast(df, wide), df, out + i);
    }
    for (; i < n; ++i)
        out[i] = std::bit_cast<float>(static_cast<std::uint32_t>(in[i]) << 16);
}

const char* TargetName()
{
    return hwy::TargetName(HWY_TARGET);
}

} // namespace HWY_NAMESPACE
} // namespace ts::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ts::simd {

HWY_EXPORT(SummarizeFloats);
HWY_EXPORT(SumSquaredDeviations);
HWY_EXPORT(F16ToF32);
HWY_EXPORT(Bf16ToF32);
HWY_EXPORT(TargetName);

void summarizeFloats(const float* p, std::size_t n, std::uint32_t minNormalBits, FloatBlockSummary& out)
{
    HWY_DYNAMIC_DISPATCH(SummarizeFloats)(p, n, minNormalBits, &out);
}

double sumSquaredDeviations(const float* p, std::size_t n, double mean)
{
    return HWY_DYNAMIC_DISPATCH(SumSquaredDeviations)(p, n, mean);
}

void f16ToF32(const void* src, std::size_t n, float* out)
{
    HWY_DYNAMIC_DISPATCH(F16ToF32)(src, n, out);
}

void bf16ToF32(const void* src, std::size_t n, float* out)
{
    HWY_DYNAMIC_DISPATCH(Bf16ToF32)(src, n, out);
}

const char* targetName()
{
    return HWY_DYNAMIC_DISPATCH(TargetName)();
}

} // namespace ts::simd
#endif
