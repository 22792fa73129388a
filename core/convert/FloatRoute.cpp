#include "convert/FloatRoute.h"

#include "codec/DtypeDecoder.h"
#include "codec/F8Widening.h"
#include "convert/NarrowingKernels.h"

#include <algorithm>
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
        return narrow::f32ToF8E4M3(bytes, out, k, counts);
    default:
        return narrow::f32ToF8E5M2(bytes, out, k, counts);
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
    // The F8 formats to F32 in one step (DtypeConverter widens the halfs itself); a NaN decodes to
    // the quiet NaN with its sign, as the exact encoder writes it.
    if (to == Dtype::F32) { // handles() admits no other source to F32
        counts.nan += decode::widenF8(in, n, from == Dtype::F8_E5M2, reinterpret_cast<float*>(out));
        return;
    }
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
