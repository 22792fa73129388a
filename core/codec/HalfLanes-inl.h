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

// Exponent-31 lanes (`special`) as decode::f16 has them: Inf with its sign, a NaN as the quiet NaN
// with its sign, whatever its payload, so that a converted file never depends on the CPU it was
// written on (F16C keeps a NaN's payload; Highway 1.0.3's software path made Inf 65536).
template <class DU, class M, class V> HWY_INLINE V F16Specials(DU du, M special, V bits, V wide)
{
    const auto sign = hn::ShiftLeft<16>(hn::And(bits, hn::Set(du, 0x8000u)));
    const auto nan = hn::VecFromMask(du, hn::Ne(hn::And(bits, hn::Set(du, 0x3ffu)), hn::Zero(du)));
    const auto inf = hn::Or(hn::Or(sign, hn::Set(du, 0x7f800000u)), hn::And(nan, hn::Set(du, 0x00400000u)));
    return hn::IfThenElse(special, inf, wide);
}

// F16 codes p[0, Lanes(df)) as floats, bit for bit decode::f16's.
template <class DF> HWY_INLINE hn::Vec<DF> F16Lanes(DF df, const std::uint16_t* HWY_RESTRICT p)
{
    const hn::RebindToUnsigned<DF> du;
    const hn::Rebind<std::uint16_t, DF> d16;
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
    // F16C: one instruction, then the rare exponent-31 lanes from the same codes.
    const auto codes = hn::LoadU(d16, p);
    const auto v = hn::PromoteTo(df, hn::BitCast(hn::Rebind<hwy::float16_t, DF>(), codes));
    const auto bits = hn::PromoteTo(du, codes);
    const auto exponent = hn::Set(du, 0x7c00u);
    const auto special = hn::Eq(hn::And(bits, exponent), exponent);
    if (HWY_LIKELY(hn::AllFalse(du, special)))
        return v;
    return hn::BitCast(df, F16Specials(du, special, bits, hn::BitCast(du, v)));
#else
    // Without F16C (SSE4, SSSE3, the scalar fallback) in software, shift and rebias: about 11
    // operations where Highway 1.0.3's PromoteTo takes 14 and the exponent-31 check loaded the
    // codes a second time (the widening alone 1.39x faster on SSE4, 1.2x on SSSE3).
    const hn::RebindToSigned<DF> di;
    const auto bits = hn::PromoteTo(du, hn::LoadU(d16, p));
    const auto magnitude = hn::And(bits, hn::Set(du, 0x7fffu));
    const auto shifted = hn::ShiftLeft<13>(magnitude); // exponent and mantissa where a float has them
    const auto normal = hn::Add(shifted, hn::Set(du, 112u << 23)); // exponent bias 15 -> 127
    // Exponent 0: 2^-14 * (1 + m/1024) - 2^-14 = m * 2^-24, exact in float (and +0 for m = 0).
    const auto subnormal = hn::BitCast(
        du, hn::Sub(hn::BitCast(df, hn::Add(shifted, hn::Set(du, 113u << 23))), hn::Set(df, 0x1p-14f)));
    const auto magnitudeI = hn::BitCast(di, magnitude); // below 2^15: signed compares are exact
    auto wide = hn::IfThenElse(hn::RebindMask(du, hn::Lt(magnitudeI, hn::Set(di, 0x400))), subnormal, normal);
    const auto special = hn::RebindMask(du, hn::Gt(magnitudeI, hn::Set(di, 0x7bff)));
    if (HWY_UNLIKELY(!hn::AllFalse(du, special)))
        wide = F16Specials(du, special, bits, wide);
    return hn::BitCast(df, hn::Or(wide, hn::ShiftLeft<16>(hn::Xor(bits, magnitude))));
#endif
}

} // namespace ts::codec::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif // TS_CODEC_HALF_LANES_INL_H_
