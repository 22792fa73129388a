#include "convert/FloatRoute.h"

#include "codec/DtypeDecoder.h"
#include "convert/NarrowingKernels.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace ts::floatroute {
namespace {

bool exactInFloat(Dtype d)
{
    return d == Dtype::F32 || d == Dtype::F16 || d == Dtype::BF16 || d == Dtype::F8_E4M3 ||
           d == Dtype::F8_E5M2;
}

template <typename T> void store(std::byte* p, T v)
{
    std::memcpy(p, &v, sizeof v);
}

// F32 bits to an F8 code, the exact encoder's rule in integers: round the 24-bit significand to
// the format's precision at the value's exponent (or at the smallest normal exponent, for results
// below it), ties to even; Inf or saturation above the largest finite value; the quiet NaN.
// The format is a template parameter and the counts are locals of the caller's loop: with members
// and a ConversionCounts&, every byte stored (std::byte may alias anything) made the compiler
// reload them (0.3 GB/s of F32 before, measured with `bench_convert kernels`).
template <Dtype kTo> struct F8Encoder {
    static constexpr int kExpBits = kTo == Dtype::F8_E4M3 ? 4 : 5;
    static constexpr int kMantBits = kTo == Dtype::F8_E4M3 ? 3 : 2;
    static constexpr bool kHasInf = kTo != Dtype::F8_E4M3;
    static constexpr int kBias = (1 << (kExpBits - 1)) - 1;
    static constexpr int kEmin = 1 - kBias;
    static constexpr int kTopExponent = (1 << kExpBits) - (kHasInf ? 2 : 1) - kBias;
    static constexpr std::uint32_t kTopSignificand = kHasInf ? (2u << kMantBits) - 1 : (2u << kMantBits) - 2;
    static constexpr std::uint32_t kInfBits = ((1u << kExpBits) - 1) << kMantBits;
    static constexpr std::uint32_t kMaxBits = kHasInf ? kInfBits - 1 : kInfBits | ((1u << kMantBits) - 2);
    static constexpr std::uint32_t kNanBits =
        kHasInf ? kInfBits | (1u << (kMantBits - 1)) : kInfBits | ((1u << kMantBits) - 1);

    // tally: overflowed, underflowed, NaN. Branch-free: on weights, whether a value rounds up,
    // underflows or is subnormal is a coin toss, and as branches those cost 3x the time (BF16 ->
    // F8_E4M3 of 1 GiB: 13 s of CPU with branches).
    static std::uint8_t encode(std::uint32_t x, std::uint64_t tally[3])
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
        // 1 << kMantBits) and zero (n = 0) come out right too. No branch on the rounding result.
        const std::uint32_t finite = (static_cast<std::uint32_t>(at + kBias - 1) << kMantBits) + n;
        const std::uint32_t saturated = (kHasInf && !nan) ? kInfBits : (nan ? kNanBits : kMaxBits);
        tally[0] += static_cast<std::uint64_t>((huge & !special) | (inf & !kHasInf));
        tally[1] += static_cast<std::uint64_t>((n == 0) & (ax != 0));
        tally[2] += static_cast<std::uint64_t>(nan);
        return static_cast<std::uint8_t>(sign | (huge ? saturated : finite));
    }

    static void run(const float* wide, std::byte* out, std::size_t k, ConversionCounts& counts)
    {
        std::uint64_t tally[3] = {0, 0, 0};
        for (std::size_t i = 0; i < k; ++i)
            out[i] = std::byte{encode(std::bit_cast<std::uint32_t>(wide[i]), tally)};
        counts.overflowed += tally[0];
        counts.underflowed += tally[1];
        counts.nan += tally[2];
    }
};

// The exact encoder writes the quiet NaN, sign kept, where the narrowing kernels keep the top of
// the payload: rewrites the NaN codes among `n` 16-bit outputs.
void quietNans(std::byte* out, std::size_t n, Dtype to)
{
    const std::uint16_t inf = to == Dtype::F16 ? 0x7c00 : 0x7f80;
    const std::uint16_t quiet = to == Dtype::F16 ? 0x7e00 : 0x7fc0;
    for (std::size_t i = 0; i < n; ++i) {
        std::uint16_t code;
        std::memcpy(&code, out + 2 * i, 2);
        if ((code & 0x7fff) > inf)
            store<std::uint16_t>(out + 2 * i, static_cast<std::uint16_t>((code & 0x8000) | quiet));
    }
}

void fromFloats(Dtype from, Dtype to, const float* wide, std::byte* out, std::size_t k,
                ConversionCounts& counts)
{
    const auto* bytes = reinterpret_cast<const std::byte*>(wide);
    switch (to) {
    case Dtype::F16:
    case Dtype::BF16: {
        const std::uint64_t nansBefore = counts.nan;
        if (to == Dtype::F16)
            narrow::f32ToF16(bytes, out, k, counts);
        else
            narrow::f32ToBf16(bytes, out, k, counts);
        if (counts.nan != nansBefore)
            quietNans(out, k, to);
        return;
    }
    case Dtype::F32:
        // Only the F8 formats get here (DtypeConverter widens the halfs itself); they decode a NaN
        // to the quiet NaN with its sign, as the exact encoder writes it.
        std::memcpy(out, wide, k * 4);
        counts.nan +=
            static_cast<std::uint64_t>(std::count_if(wide, wide + k, [](float v) { return v != v; }));
        return;
    case Dtype::F64: {
        // As the exact path: BF16 and F32 NaNs widen with their payload, the others to the quiet NaN.
        const bool keepPayload = from == Dtype::F32 || from == Dtype::BF16;
        for (std::size_t i = 0; i < k; ++i) {
            double v = wide[i];
            if (std::isnan(v)) {
                ++counts.nan;
                if (!keepPayload)
                    v = std::copysign(std::numeric_limits<double>::quiet_NaN(), v);
            }
            store<double>(out + 8 * i, v);
        }
        return;
    }
    case Dtype::F8_E4M3:
        return F8Encoder<Dtype::F8_E4M3>::run(wide, out, k, counts);
    default:
        return F8Encoder<Dtype::F8_E5M2>::run(wide, out, k, counts);
    }
}

// F64 -> F32 rounded once by the CPU; counts and NaNs as the exact encoder.
void f64ToF32(const std::byte* in, std::byte* out, std::size_t n, ConversionCounts& counts)
{
    for (std::size_t i = 0; i < n; ++i) {
        double d;
        std::memcpy(&d, in + 8 * i, 8);
        auto f = static_cast<float>(d);
        if (std::isnan(d)) {
            ++counts.nan;
            f = std::copysign(std::numeric_limits<float>::quiet_NaN(), f);
        } else if (std::isinf(f) && !std::isinf(d)) {
            ++counts.overflowed;
        } else if (f == 0 && d != 0) {
            ++counts.underflowed;
        }
        store<float>(out + 4 * i, f);
    }
}

} // namespace

bool handles(Dtype from, Dtype to)
{
    if (from == to || !DtypeConverter::supports(to))
        return false;
    // DtypeConverter's own kernels, which keep the top of a NaN payload where this route would
    // write the quiet NaN.
    const bool half = from == Dtype::F16 || from == Dtype::BF16;
    if ((from == Dtype::F32 && (to == Dtype::F16 || to == Dtype::BF16)) || (half && to == Dtype::F32))
        return false;
    return exactInFloat(from) || (from == Dtype::F64 && to == Dtype::F32);
}

void convert(Dtype from, Dtype to, const std::byte* in, std::byte* out, std::size_t n,
             ConversionCounts& counts)
{
    if (from == Dtype::F64)
        return f64ToF32(in, out, n, counts);
    // Blocks of floats that stay in L1 between the decode and the encode.
    constexpr std::size_t kBlock = 4096;
    alignas(64) float wide[kBlock];
    const std::size_t inSize = static_cast<std::size_t>(dtypeBits(from) / 8);
    const std::size_t outSize = static_cast<std::size_t>(dtypeBits(to) / 8);
    for (std::size_t done = 0; done < n;) {
        const std::size_t k = std::min(kBlock, n - done);
        decode::decodeToFloat(from, in + done * inSize, k, wide);
        fromFloats(from, to, wide, out + done * outSize, k, counts);
        done += k;
    }
}

} // namespace ts::floatroute
