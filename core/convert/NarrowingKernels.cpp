// Compiled once per SIMD target by Highway's foreach_target; HWY_DYNAMIC_DISPATCH picks the best
// one for the running CPU, so no -march flag is needed.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "convert/NarrowingKernels.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include <hwy/highway.h>

#include "codec/HalfLanes-inl.h"
#include "convert/NarrowingKernels.h"

#include <algorithm>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace ts::narrow::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using ts::codec::HWY_NAMESPACE::PrefetchAhead;

// One element each, for the tails: the same integer steps as the vector bodies below. kInfFrom
// and kZeroUpTo are the magnitudes from which a finite input rounds to Inf and up to which it
// rounds to zero (both ties to even): the vector loop counts overflows and underflows by them.
struct Bf16Rule {
    using Out = std::uint16_t;
    static constexpr std::uint32_t kOverflowTop = 0x7f7fffffu;
    static constexpr std::uint32_t kInfFrom = 0x7f7f8000u; // half an ulp above the largest BF16
    static constexpr std::uint32_t kZeroUpTo = 0x8000u;    // half the smallest subnormal

    static std::uint32_t apply(std::uint32_t x, std::uint32_t tally[3])
    {
        const std::uint32_t ax = x & 0x7fffffffu;
        const bool nan = ax > 0x7f800000u;
        const std::uint32_t o = nan ? ((x >> 16) | 0x40u) : (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
        tally[0] += ax < 0x7f800000u && (o & 0x7fffu) == 0x7f80u;
        tally[1] += ax != 0 && (o & 0x7fffu) == 0;
        tally[2] += nan;
        return o;
    }
};

// After Fabian Giesen's float_to_half_fast3_rtne, all in integers: normal results round by adding
// just under half an ulp plus the lowest kept bit; subnormal results shift the full mantissa right
// by a per-element amount with the same rounding. A NaN keeps the top ten bits of its payload with
// the quiet bit set, as F16C's VCVTPS2PH does (found by fuzz_convert: the file once depended on
// whether the CPU had F16C).
struct F16Rule {
    using Out = std::uint16_t;
    static constexpr std::uint32_t kOverflowTop = 0x7f7fffffu;
    static constexpr std::uint32_t kInf32 = 255u << 23;
    static constexpr std::uint32_t kF16Max = (127u + 16u) << 23; // 65536: from here on, Inf
    static constexpr std::uint32_t kMinNormal = 113u << 23;      // 2^-14
    static constexpr std::uint32_t kInfFrom = 0x477ff000u;       // 65520
    static constexpr std::uint32_t kZeroUpTo = 0x33000000u;      // 2^-25

    static std::uint32_t apply(std::uint32_t x, std::uint32_t tally[3])
    {
        const std::uint32_t sign = x & 0x80000000u;
        const std::uint32_t ax = x ^ sign;
        const std::uint32_t big = ax > kInf32 ? 0x7e00u | ((ax >> 13) & 0x3ffu) : 0x7c00u;
        const std::uint32_t mant = (ax & 0x7fffffu) | 0x800000u;
        // Kept in [1, 31]: elements that take another result compute `sub` too, and a shift by 32
        // or more is undefined (found by fuzz_convert). Those that use it shift by 14 or more.
        const std::uint32_t shift = std::clamp(126u - std::min(ax >> 23, 126u), 1u, 31u);
        const std::uint32_t sub = (mant + (1u << (shift - 1)) - 1u + ((mant >> shift) & 1u)) >> shift;
        const std::uint32_t normal = (ax + ((15u - 127u) << 23) + 0xfffu + ((ax >> 13) & 1u)) >> 13;
        const std::uint32_t o = ax >= kF16Max ? big : (ax < kMinNormal ? sub : normal);
        tally[0] += ax < kInf32 && o == 0x7c00u;
        tally[1] += ax != 0 && o == 0;
        tally[2] += ax > kInf32;
        return o | (sign >> 16);
    }
};

// F32 bits to an OCP F8 code (E4M3: kHasInf false, saturating at 448; E5M2: with Inf): round
// the 24-bit significand to the format's precision at the value's exponent, or at the smallest
// normal exponent for results below it, ties to even; above the largest finite value Inf (E5M2)
// or the largest finite value (E4M3, whose overflows include Inf inputs); the quiet NaN with the
// input's sign. apply() is DtypeConverter's exact encoder in integers, for the tails; F8Vector
// below gives the same codes in lanes.
template <int kExpBits, int kMantBits, bool kHasInf> struct F8Rule {
    using Out = std::uint8_t;
    static constexpr int kMantissaBits = kMantBits;
    static constexpr bool kInf = kHasInf;
    static constexpr int kBias = (1 << (kExpBits - 1)) - 1;
    static constexpr int kEmin = 1 - kBias;
    static constexpr int kTopExponent = (1 << kExpBits) - (kHasInf ? 2 : 1) - kBias;
    static constexpr std::uint32_t kTopSignificand = kHasInf ? (2u << kMantBits) - 1 : (2u << kMantBits) - 2;
    static constexpr std::uint32_t kInfBits = ((1u << kExpBits) - 1) << kMantBits;
    static constexpr std::uint32_t kMaxBits = kHasInf ? kInfBits - 1 : kInfBits | ((1u << kMantBits) - 2);
    static constexpr std::uint32_t kNanBits =
        kHasInf ? kInfBits | (1u << (kMantBits - 1)) : kInfBits | ((1u << kMantBits) - 1);
    // Finite magnitudes from here on come out as kInfBits or kMaxBits: the midpoint past the largest
    // finite value, which rounds up when that value's significand is odd (E5M2: 61440) and down
    // when it is even (E4M3: 464 gives 448, so from the next float on).
    static constexpr std::uint32_t kTie = (static_cast<std::uint32_t>(kTopExponent + 127) << 23) |
                                          ((2 * kTopSignificand + 1 - (2u << kMantBits)) << (22 - kMantBits));
    static constexpr std::uint32_t kInfFrom = kTie + (kTopSignificand % 2 == 0 ? 1u : 0u);
    // Inputs above this are not counted as overflows: NaN, and Inf where the format has it.
    static constexpr std::uint32_t kOverflowTop = kHasInf ? 0x7f7fffffu : 0x7f800000u;
    // Half the smallest subnormal, 2^(kEmin - kMantBits - 1): up to here, zero (ties to even).
    static constexpr std::uint32_t kZeroUpTo = static_cast<std::uint32_t>(127 + kEmin - kMantBits - 1) << 23;
    static constexpr std::uint32_t kMinNormal = static_cast<std::uint32_t>(127 + kEmin) << 23;
    // A float whose ulp is the format's smallest subnormal: adding it rounds a magnitude below
    // the smallest normal to a whole number of subnormal steps, the FPU's ties to even doing the
    // rounding (Giesen's denorm_magic); its bits subtracted leave that number.
    static constexpr std::uint32_t kSubnormalMagic = static_cast<std::uint32_t>(127 + kEmin - kMantBits + 23)
                                                     << 23;

    // Branch-free: on weights, whether a value rounds up, underflows or is subnormal is a coin
    // toss, and as branches those cost 3x the time.
    static std::uint32_t apply(std::uint32_t x, std::uint32_t tally[3])
    {
        const std::uint32_t sign = (x >> 31) << (kExpBits + kMantBits);
        const std::uint32_t ax = x & 0x7fffffffu;
        const bool nan = ax > 0x7f800000u, inf = ax == 0x7f800000u;
        // Zero and float subnormals (exponent field 0) get a shift past every significand bit: n is
        // 0. They are far below half the format's smallest subnormal, so that is their rounding.
        const int e = static_cast<int>(ax >> 23) - 127;
        const std::uint32_t m = (ax & 0x7fffffu) | 0x800000u;
        const int below = (kEmin - e) & ~((kEmin - e) >> 31); // max(kEmin - e, 0), without a branch
        const int at = e + below;
        const int drop = std::min(23 - kMantBits + below, 31); // >= 20; from 25 on, n is 0
        const std::uint32_t q = m >> drop, r = m & ((1u << drop) - 1), half = 1u << (drop - 1);
        const std::uint32_t n = q + static_cast<std::uint32_t>((r > half) | ((r == half) & (q & 1u)));
        const bool huge =
            (at > kTopExponent) | ((at == kTopExponent) & (n > kTopSignificand)); // Inf, NaN too
        const bool special = nan | inf;
        // The code is the exponent field followed by the significand without its leading 1, so
        // (at + kBias - 1) << kMantBits, plus n: a carry into the next binade (n = 2 << kMantBits)
        // adds one to the exponent field by itself, and a subnormal (at = kEmin: a field of 0, n below
        // 1 << kMantBits) and zero (n = 0) come out right too.
        const std::uint32_t finite = (static_cast<std::uint32_t>(at + kBias - 1) << kMantBits) + n;
        const std::uint32_t saturated = (kHasInf && !nan) ? kInfBits : (nan ? kNanBits : kMaxBits);
        tally[0] += static_cast<std::uint32_t>((huge & !special) | (inf & !kHasInf));
        tally[1] += static_cast<std::uint32_t>((n == 0) & (ax != 0));
        tally[2] += static_cast<std::uint32_t>(nan);
        return sign | (huge ? saturated : finite);
    }
};

using F8E4M3Rule = F8Rule<4, 3, false>;
using F8E5M2Rule = F8Rule<5, 2, true>;
static_assert(F8E4M3Rule::kInfFrom == 0x43e80001u && F8E5M2Rule::kInfFrom == 0x47700000u);
static_assert(F8E4M3Rule::kZeroUpTo == 0x3a800000u && F8E5M2Rule::kZeroUpTo == 0x37000000u);

// Bf16Rule in lanes, without the counts (Narrow takes them from the input).
template <class DU> HWY_INLINE hn::Vec<DU> Bf16Vector(DU du, hn::Vec<DU> x)
{
    const auto nan = hn::Gt(hn::And(x, hn::Set(du, 0x7fffffffu)), hn::Set(du, 0x7f800000u));
    const auto top = hn::ShiftRight<16>(x);
    const auto rounded =
        hn::ShiftRight<16>(hn::Add(hn::Add(x, hn::Set(du, 0x7fffu)), hn::And(top, hn::Set(du, 1u))));
    return hn::IfThenElse(nan, hn::Or(top, hn::Set(du, 0x40u)), rounded);
}

// F16Rule in lanes, without the counts (Narrow takes them from the input). Magnitudes are
// compared as int32 (they are non-negative), which x86 does in one instruction; the subnormal
// arm needs per-lane shifts, which SSE4 lacks, so it runs only for vectors where a lane rounds to
// a non-zero subnormal (magnitudes in (2^-25, 2^-14): 0.2% of N(0, 0.02) weights).
template <class DU> HWY_INLINE hn::Vec<DU> F16Vector(DU du, hn::Vec<DU> x)
{
    const hn::RebindToSigned<DU> di;
    const auto sign = hn::And(x, hn::Set(du, 0x80000000u));
    const auto ax = hn::Xor(x, sign);
    const auto sax = hn::BitCast(di, ax);
    const auto one = hn::Set(du, 1u);
    const auto nan = hn::RebindMask(du, hn::Gt(sax, hn::Set(di, std::int32_t{F16Rule::kInf32})));
    const auto big = hn::IfThenElse(
        nan, hn::Or(hn::Set(du, 0x7e00u), hn::And(hn::ShiftRight<13>(ax), hn::Set(du, 0x3ffu))),
        hn::Set(du, 0x7c00u));
    const auto normal = hn::ShiftRight<13>(hn::Add(hn::Add(ax, hn::Set(du, ((15u - 127u) << 23) + 0xfffu)),
                                                   hn::And(hn::ShiftRight<13>(ax), one)));
    const auto tiny = hn::RebindMask(du, hn::Lt(sax, hn::Set(di, std::int32_t{F16Rule::kMinNormal})));
    auto sub = hn::Zero(du); // every magnitude up to 2^-25 rounds to zero
    if (!hn::AllFalse(
            du, hn::AndNot(hn::RebindMask(du, hn::Lt(sax, hn::Set(di, std::int32_t{F16Rule::kZeroUpTo + 1}))),
                           tiny))) {
        const auto mant = hn::Or(hn::And(ax, hn::Set(du, 0x7fffffu)), hn::Set(du, 0x800000u));
        const auto shift = hn::Min(
            hn::Max(hn::Sub(hn::Set(du, 126u), hn::Min(hn::ShiftRight<23>(ax), hn::Set(du, 126u))), one),
            hn::Set(du, 31u));
        const auto half = hn::Sub(one << hn::Sub(shift, one), one);
        sub = hn::Add(hn::Add(mant, half), hn::And(mant >> shift, one)) >> shift;
    }
    const auto huge = hn::RebindMask(du, hn::Gt(sax, hn::Set(di, std::int32_t{F16Rule::kF16Max - 1})));
    const auto o = hn::IfThenElse(huge, big, hn::IfThenElse(tiny, sub, normal));
    return hn::Or(o, hn::ShiftRight<16>(sign));
}

// F8Rule in lanes, without the counts (Narrow takes them from the input). No per-lane shifts,
// so every target runs it whole: normal results round as F16Vector's do (add just under half an
// ulp plus the lowest kept bit, shift), results below the smallest normal by the FPU's own
// rounding of an addition (F8Rule::kSubnormalMagic; the default MXCSR, as DtypeConverter's F64 ->
// F32). Each arm is computed for every lane; the lanes outside its range take another.
template <class Rule, class DU> HWY_INLINE hn::Vec<DU> F8Vector(DU du, hn::Vec<DU> x)
{
    const hn::RebindToSigned<DU> di;
    const hn::RebindToFloat<DU> df;
    constexpr int kShift = 23 - Rule::kMantissaBits;
    const auto sign = hn::And(hn::ShiftRight<24>(x), hn::Set(du, 0x80u));
    const auto ax = hn::And(x, hn::Set(du, 0x7fffffffu));
    const auto sax = hn::BitCast(di, ax);
    const std::uint32_t rebias = static_cast<std::uint32_t>(Rule::kBias - 127) << 23;
    const auto normal =
        hn::ShiftRight<kShift>(hn::Add(hn::Add(ax, hn::Set(du, rebias + (1u << (kShift - 1)) - 1u)),
                                       hn::And(hn::ShiftRight<kShift>(ax), hn::Set(du, 1u))));
    const auto magic = hn::Set(du, Rule::kSubnormalMagic);
    const auto sub = hn::Sub(hn::BitCast(du, hn::Add(hn::BitCast(df, ax), hn::BitCast(df, magic))), magic);
    const auto tiny =
        hn::RebindMask(du, hn::Lt(sax, hn::Set(di, static_cast<std::int32_t>(Rule::kMinNormal))));
    const auto huge =
        hn::RebindMask(du, hn::Gt(sax, hn::Set(di, static_cast<std::int32_t>(Rule::kInfFrom - 1))));
    const auto nan = hn::RebindMask(du, hn::Gt(sax, hn::Set(di, 0x7f800000)));
    const auto saturated = hn::IfThenElse(nan, hn::Set(du, Rule::kNanBits),
                                          hn::Set(du, Rule::kInf ? Rule::kInfBits : Rule::kMaxBits));
    return hn::Or(hn::IfThenElse(huge, saturated, hn::IfThenElse(tiny, sub, normal)), sign);
}

// The scalar rule over elements [i, n): the tail after the vectors.
template <class Rule>
void NarrowTail(const std::byte* HWY_RESTRICT in, std::byte* HWY_RESTRICT out, std::size_t i, std::size_t n,
                ConversionCounts& counts)
{
    std::uint32_t tally[3] = {0, 0, 0};
    for (; i < n; ++i) {
        std::uint32_t x;
        std::memcpy(&x, in + 4 * i, 4);
        const auto o = static_cast<typename Rule::Out>(Rule::apply(x, tally));
        std::memcpy(out + sizeof o * i, &o, sizeof o);
    }
    counts.overflowed += tally[0];
    counts.underflowed += tally[1];
    counts.nan += tally[2];
}

// Runs one of the rules over n elements: `lanes` turns a vector of F32 bits into its codes,
// then the scalar rule does the tail. The counts come from the input alone: a magnitude overflows
// from Rule::kInfFrom up to Rule::kOverflowTop (Inf too for F8_E4M3) and underflows up to Rule::kZeroUpTo, so
// each count is the difference of two "magnitude above" counts, one signed compare each (a magnitude is a
// non-negative int32). Counters are per lane in 32 bits and emptied every kBlock elements, so none can wrap.
constexpr std::size_t kBlock = std::size_t{1} << 16;

template <class Rule, class Lanes>
void Narrow(const std::byte* HWY_RESTRICT in, std::byte* HWY_RESTRICT out, std::size_t n,
            ConversionCounts& counts, Lanes lanes)
{
    const hn::ScalableTag<std::uint32_t> du;
    const hn::RebindToSigned<decltype(du)> di;
    const hn::Rebind<typename Rule::Out, decltype(du)> dOut;
    const std::size_t N = hn::Lanes(du);
    const auto sum = [&](auto v) { return static_cast<std::uint64_t>(hn::GetLane(hn::SumOfLanes(di, v))); };
    std::size_t i = 0;
    while (i + N <= n) {
        auto toInf = hn::Zero(di), past = toInf, nan = toInf, nonZero = toInf, notToZero = toInf;
        const auto above = [&](auto& count, auto ax, std::uint32_t bits) {
            count =
                hn::Sub(count, hn::VecFromMask(di, hn::Gt(ax, hn::Set(di, static_cast<std::int32_t>(bits)))));
        };
        const std::size_t end = i + std::min((n - i) / N * N, kBlock);
        for (; i < end; i += N) {
            PrefetchAhead(in + 4 * i, N * 4);
            // Unaligned loads and stores: ConvertingSource hands over any address.
            const auto x = hn::LoadU(du, reinterpret_cast<const std::uint32_t*>(in) + i);
            const auto ax = hn::And(hn::BitCast(di, x), hn::Set(di, 0x7fffffff));
            above(toInf, ax, Rule::kInfFrom - 1);
            above(past, ax, Rule::kOverflowTop);
            above(nan, ax, 0x7f800000u);
            above(nonZero, ax, 0);
            above(notToZero, ax, Rule::kZeroUpTo);
            hn::StoreU(lanes(du, x), dOut, reinterpret_cast<typename Rule::Out*>(out) + i);
        }
        counts.overflowed += sum(toInf) - sum(past);
        counts.underflowed += sum(nonZero) - sum(notToZero);
        counts.nan += sum(nan);
    }
    NarrowTail<Rule>(in, out, i, n, counts);
}

// Integer lanes to 16- or 8-bit codes: DemoteTo saturates as signed, and every code fits.
template <class Out, class DU> HWY_INLINE auto Codes(DU /* du */, hn::Vec<DU> o)
{
    return hn::DemoteTo(hn::Rebind<Out, DU>(), hn::BitCast(hn::RebindToSigned<DU>(), o));
}

void F32ToBf16(const std::byte* HWY_RESTRICT in, std::byte* HWY_RESTRICT out, std::size_t n,
               ConversionCounts* counts)
{
    Narrow<Bf16Rule>(in, out, n, *counts,
                     [](auto du, auto x) { return Codes<std::uint16_t>(du, Bf16Vector(du, x)); });
}

// F32 -> F16: F16C's VCVTPS2PH where the target has it (AVX2 and up), F16Vector below. The
// instruction rounds to nearest even and keeps subnormal results and NaN payloads exactly as
// F16Rule does (tst_convert_kernels pins both to the same bytes; MXCSR's FTZ and DAZ bits do not
// change it, checked on Zen), at 2.4-2.7x the integer rule's speed on one Zen core (4.1-4.5 ->
// 10.6-12.2 GB/s of F32, `bench_convert kernels`). Highway's own DemoteTo below AVX2 truncates.
void F32ToF16(const std::byte* HWY_RESTRICT in, std::byte* HWY_RESTRICT out, std::size_t n,
              ConversionCounts* counts)
{
    Narrow<F16Rule>(in, out, n, *counts, [](auto du, auto x) {
#if HWY_TARGET < HWY_SSE4 && !defined(HWY_DISABLE_F16C)
        const hn::RebindToFloat<decltype(du)> df;
        return hn::BitCast(hn::Rebind<std::uint16_t, decltype(du)>(),
                           hn::DemoteTo(hn::Rebind<hwy::float16_t, decltype(du)>(), hn::BitCast(df, x)));
#else
        return Codes<std::uint16_t>(du, F16Vector(du, x));
#endif
    });
}

// F32 -> F8: about 8 ns per element as F8Rule::apply's scalar loop (`bench_convert kernels`).
void F32ToF8E4M3(const std::byte* HWY_RESTRICT in, std::byte* HWY_RESTRICT out, std::size_t n,
                 ConversionCounts* counts)
{
    Narrow<F8E4M3Rule>(in, out, n, *counts,
                       [](auto du, auto x) { return Codes<std::uint8_t>(du, F8Vector<F8E4M3Rule>(du, x)); });
}

void F32ToF8E5M2(const std::byte* HWY_RESTRICT in, std::byte* HWY_RESTRICT out, std::size_t n,
                 ConversionCounts* counts)
{
    Narrow<F8E5M2Rule>(in, out, n, *counts,
                       [](auto du, auto x) { return Codes<std::uint8_t>(du, F8Vector<F8E5M2Rule>(du, x)); });
}

} // namespace ts::narrow::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ts::narrow {

HWY_EXPORT(F32ToBf16);
HWY_EXPORT(F32ToF16);
HWY_EXPORT(F32ToF8E4M3);
HWY_EXPORT(F32ToF8E5M2);

void f32ToBf16(const std::byte* in, std::byte* out, std::size_t n, ConversionCounts& counts)
{
    HWY_DYNAMIC_DISPATCH(F32ToBf16)(in, out, n, &counts);
}

void f32ToF16(const std::byte* in, std::byte* out, std::size_t n, ConversionCounts& counts)
{
    HWY_DYNAMIC_DISPATCH(F32ToF16)(in, out, n, &counts);
}

void f32ToF8E4M3(const std::byte* in, std::byte* out, std::size_t n, ConversionCounts& counts)
{
    HWY_DYNAMIC_DISPATCH(F32ToF8E4M3)(in, out, n, &counts);
}

void f32ToF8E5M2(const std::byte* in, std::byte* out, std::size_t n, ConversionCounts& counts)
{
    HWY_DYNAMIC_DISPATCH(F32ToF8E5M2)(in, out, n, &counts);
}

} // namespace ts::narrow
#endif
