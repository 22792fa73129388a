// Compiled once per SIMD target by Highway's foreach_target; HWY_DYNAMIC_DISPATCH picks the best
// one for the running CPU, so no -march flag is needed.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "codec/F8Widening.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include <hwy/highway.h>

#include "codec/DtypeDecoder.h"
#include "codec/F8Widening.h"
#include "codec/HalfLanes-inl.h"

#include <cstdint>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace ts::codec::HWY_NAMESPACE {

// The OCP formats in integers: a normal code is the float whose exponent field is rebiased
// (the code's 7 bits shifted to the top of a float's, plus 127 minus the format's bias); a
// subnormal one is its mantissa times the smallest subnormal, an integer conversion and an exact
// product of normal floats (no subnormal operand, so the FPU's DAZ setting cannot flush it).
// A 256-entry table lookup per byte ran 0.4-0.8 GB/s in the converter (`bench_convert kernels`).
template <bool kE5M2>
std::size_t Widen(const std::uint8_t* HWY_RESTRICT in, std::size_t n, float* HWY_RESTRICT out)
{
    const hn::ScalableTag<float> df;
    const hn::RebindToUnsigned<decltype(df)> du;
    const hn::RebindToSigned<decltype(df)> di;
    const hn::Rebind<std::uint8_t, decltype(df)> d8;
    const std::size_t N = hn::Lanes(df);
    constexpr int kMantBits = kE5M2 ? 2 : 3;
    constexpr std::uint32_t kBias = kE5M2 ? 15 : 7;
    // E4M3 ("FN"): S.1111.111 is NaN, no Inf. E5M2: S.11111.00 is Inf, S.11111.xx NaN.
    const auto rebias = hn::Set(du, (127 - kBias) << 23);
    const auto subnormalStep = hn::Set(df, kE5M2 ? 0x1p-16f : 0x1p-9f);
    const auto mantMask = hn::Set(du, (1u << kMantBits) - 1);
    const auto expMask = hn::Set(du, 0x7fu & ~((1u << kMantBits) - 1));
    // NaN lanes counted in int32 lanes, emptied into `nans` every 2^30 elements at most, so
    // neither a lane nor their int32 sum can wrap.
    std::size_t nans = 0;
    std::size_t i = 0;
    while (i + N <= n) {
        auto count = hn::Zero(di);
        const std::size_t end = i + std::min<std::size_t>((n - i) / N, (std::size_t{1} << 30) / N) * N;
        for (; i < end; i += N) {
            PrefetchAhead(in + i, N);
            const auto c = hn::PromoteTo(du, hn::LoadU(d8, in + i));
            const auto mag = hn::And(c, hn::Set(du, 0x7fu));
            const auto normal = hn::Add(hn::ShiftLeft<23 - kMantBits>(mag), rebias);
            const auto sub = hn::BitCast(
                du, hn::Mul(hn::ConvertTo(df, hn::BitCast(di, hn::And(mag, mantMask))), subnormalStep));
            auto bits = hn::IfThenElse(hn::Ne(hn::And(mag, expMask), hn::Zero(du)), normal, sub);
            // Signed compares (one instruction on x86): the magnitudes are below 128.
            const auto smag = hn::BitCast(di, mag);
            const auto nan = hn::RebindMask(du, hn::Gt(smag, hn::Set(di, std::int32_t{kE5M2 ? 0x7c : 0x7e})));
            bits = hn::IfThenElse(nan, hn::Set(du, 0x7fc00000u), bits);
            if constexpr (kE5M2)
                bits = hn::IfThenElse(hn::RebindMask(du, hn::Eq(smag, hn::Set(di, 0x7c))),
                                      hn::Set(du, 0x7f800000u), bits);
            bits = hn::Or(bits, hn::ShiftLeft<24>(hn::And(c, hn::Set(du, 0x80u))));
            hn::StoreU(hn::BitCast(df, bits), df, out + i);
            count = hn::Sub(count, hn::VecFromMask(di, hn::RebindMask(di, nan)));
        }
        nans += static_cast<std::size_t>(hn::GetLane(hn::SumOfLanes(di, count)));
    }
    const Dtype dtype = kE5M2 ? Dtype::F8_E5M2 : Dtype::F8_E4M3;
    for (; i < n; ++i) {
        // The floats may sit at any byte offset (a tensor converted in pieces): copied out, not
        // dereferenced as float.
        const float value = ts::decode::f8(dtype, in[i]);
        std::memcpy(reinterpret_cast<unsigned char*>(out) + i * sizeof(value), &value, sizeof(value));
        nans += value != value;
    }
    return nans;
}

std::size_t WidenF8(const void* HWY_RESTRICT src, std::size_t n, bool e5m2, float* HWY_RESTRICT out)
{
    const auto* in = static_cast<const std::uint8_t*>(src);
    return e5m2 ? Widen<true>(in, n, out) : Widen<false>(in, n, out);
}

} // namespace ts::codec::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ts::codec {
HWY_EXPORT(WidenF8);
} // namespace ts::codec

namespace ts::decode {

std::size_t widenF8(const void* src, std::size_t n, bool e5m2, float* out)
{
    return HWY_DYNAMIC_DISPATCH(ts::codec::WidenF8)(src, n, e5m2, out);
}

} // namespace ts::decode
#endif
