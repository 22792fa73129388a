// F16 and BF16 codes widened to float lanes, for every SIMD target: the one vector decoder of the
// 16-bit floats (codec/HalfWidening.cpp), with the prefetch step the kernels share. Each value is exactly
// what decode::f16() / decode::bf16() give. Included once per target by Highway's foreach_target, hence the
// toggling guard instead of #pragma once.
#if defined(TS_CODEC_HALF_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TS_CODEC_HALF_LANES_INL_H_
#undef TS_CODEC_HALF_LANES_INL_H_
#else
#define TS_CODEC_HALF_LANES_INL_H_
#endif

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace ts::codec::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Software prefetch of the lines a loop reads kPrefetchBytes from now. Why: on the machine we
// measure on (a KVM guest) the hardware prefetcher keeps too few lines in flight for a loop that
// does real work per line: the statistics kernel read DRAM at 6 GB/s per core where a bare load
// loop reads 14. Prefetching 2 KiB ahead brought it to 11-12. Farther was slower (4 KiB: 8):
// a scan faults its mapping in as it goes, and a prefetch into a page not mapped yet is dropped.
inline constexpr std::size_t kPrefetchBytes = 2048;
HWY_INLINE void PrefetchAhead(const void* at, std::size_t stepBytes)
{
    const char* q = static_cast<const char*>(at) + kPrefetchBytes;
    for (std::size_t o = 0; o < stepBytes; o += 64)
        __builtin_prefetch(q + o);
}

// BF16 codes p[0, Lanes(df)) as floats: each code is the top half of its float.
template <class DF> HWY_INLINE hn::Vec<DF> Bf16Lanes(DF df, const std::uint16_t* HWY_RESTRICT p)
{
    const hn::RebindToUnsigned<DF> du;
    const hn::Rebind<std::uint16_t, DF> d16;
    return hn::BitCast(df, hn::ShiftLeft<16>(hn::PromoteTo(du, hn::LoadU(d16, p))));
}

// F16 codes p[0, Lanes(df)) as floats. Highway widens with F16C where the target has it and in
// software elsewhere; the software path biases exponent 31 like any other (Highway 1.0.3: Inf came
// out as 65536 and NaN as 98304), and F16C keeps a NaN's payload. Lanes with exponent 31 therefore
// get decode::f16's answer on every target: Inf with its sign, a NaN as the quiet NaN with its
// sign, so that a converted file never depends on the CPU it was written on.
template <class DF> HWY_INLINE hn::Vec<DF> F16Lanes(DF df, const std::uint16_t* HWY_RESTRICT p)
{
    const hn::RebindToUnsigned<DF> du;
    const hn::Rebind<std::uint16_t, DF> d16;
    const hn::Rebind<hwy::float16_t, DF> dh;
    auto v = hn::PromoteTo(df, hn::LoadU(dh, reinterpret_cast<const hwy::float16_t*>(p)));
    const auto bits = hn::PromoteTo(du, hn::LoadU(d16, p));
    const auto exponent = hn::Set(du, 0x7c00u);
    const auto special = hn::Eq(hn::And(bits, exponent), exponent);
    if (HWY_UNLIKELY(!hn::AllFalse(du, special))) {
        const auto sign = hn::ShiftLeft<16>(hn::And(bits, hn::Set(du, 0x8000u)));
        const auto nan = hn::VecFromMask(du, hn::Ne(hn::And(bits, hn::Set(du, 0x3ffu)), hn::Zero(du)));
        const auto wide =
            hn::Or(hn::Or(sign, hn::Set(du, 0x7f800000u)), hn::And(nan, hn::Set(du, 0x00400000u)));
        v = hn::IfThenElse(hn::RebindMask(df, special), hn::BitCast(df, wide), v);
    }
    return v;
}

} // namespace ts::codec::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif // TS_CODEC_HALF_LANES_INL_H_
