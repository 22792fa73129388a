#include "convert/DtypeConverter.h"

#include "codec/DtypeDecoder.h"
#include "codec/HalfWidening.h"
#include "convert/FloatRoute.h"
#include "convert/NarrowingKernels.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>

static_assert(std::endian::native == std::endian::little,
              "safetensors data is little-endian; so is every host we build for");

namespace ts {
namespace {

struct Format {
    int expBits;
    int mantBits;
    bool hasInf; // false: F8_E4M3 ("FN"): no Inf, NaN only as S.1111.111, max 448
};

Format formatOf(Dtype d)
{
    switch (d) {
    case Dtype::F64:
        return {11, 52, true};
    case Dtype::F32:
        return {8, 23, true};
    case Dtype::F16:
        return {5, 10, true};
    case Dtype::BF16:
        return {8, 7, true};
    case Dtype::F8_E5M2:
        return {5, 2, true};
    case Dtype::F8_E4M3:
        return {4, 3, false};
    default:
        return {0, 0, true};
    }
}

// The largest finite value: the top binade's largest mantissa, which for a format without Inf is
// one below all ones (all ones is NaN).
double maxFinite(Format f)
{
    const int bias = (1 << (f.expBits - 1)) - 1;
    const int topExponent = (1 << f.expBits) - (f.hasInf ? 2 : 1) - bias;
    const double mantissas = std::ldexp(1.0, f.mantBits);
    const double top = f.hasInf ? 2 * mantissas - 1 : 2 * mantissas - 2;
    return std::ldexp(top, topExponent - f.mantBits);
}

// Rounds a double to the format, ties to even, by scaling to an integer count of the target's
// quantum at that magnitude: exact in double arithmetic for every target narrower than F64.
std::uint64_t encodeBits(double x, Format f, ConversionCounts& counts)
{
    const int bias = (1 << (f.expBits - 1)) - 1;
    const std::uint64_t mantMask = (std::uint64_t{1} << f.mantBits) - 1;
    const std::uint64_t expMask = (std::uint64_t{1} << f.expBits) - 1;
    const std::uint64_t sign = std::signbit(x) ? std::uint64_t{1} << (f.expBits + f.mantBits) : 0;
    const std::uint64_t infBits = expMask << f.mantBits;
    const std::uint64_t maxBits = f.hasInf ? infBits - 1 : (expMask << f.mantBits) | (mantMask - 1);
    if (std::isnan(x)) {
        ++counts.nan;
        return sign | (f.hasInf ? infBits | (std::uint64_t{1} << (f.mantBits - 1))
                                : (expMask << f.mantBits) | mantMask);
    }
    const double a = std::fabs(x);
    if (std::isinf(a)) {
        if (f.hasInf)
            return sign | infBits;
        ++counts.overflowed;
        return sign | maxBits;
    }
    if (a == 0)
        return sign;
    const int emin = 1 - bias;
    int e = std::ilogb(a);
    if (e < emin)
        e = emin;
    const double n = std::nearbyint(std::ldexp(a, f.mantBits - e));
    const double v = std::ldexp(n, e - f.mantBits);
    if (v > maxFinite(f)) {
        ++counts.overflowed;
        return sign | (f.hasInf ? infBits : maxBits);
    }
    if (v == 0) {
        ++counts.underflowed;
        return sign;
    }
    if (v < std::ldexp(1.0, emin))
        return sign | static_cast<std::uint64_t>(n);
    const int ev = std::ilogb(v);
    const auto mant = static_cast<std::uint64_t>(std::ldexp(v, f.mantBits - ev)) & mantMask;
    return sign | (static_cast<std::uint64_t>(ev + bias) << f.mantBits) | mant;
}

template <typename T> void store(std::byte* p, T v)
{
    std::memcpy(p, &v, sizeof v);
}

} // namespace

std::span<const Dtype> DtypeConverter::targets()
{
    static constexpr std::array<Dtype, 6> kTargets = {Dtype::F32, Dtype::F16,     Dtype::BF16,
                                                      Dtype::F64, Dtype::F8_E4M3, Dtype::F8_E5M2};
    return kTargets;
}

bool DtypeConverter::supports(Dtype d)
{
    return std::ranges::find(targets(), d) != targets().end();
}

void DtypeConverter::convert(Dtype from, Dtype to, const std::byte* in, std::byte* out, std::size_t n,
                             ConversionCounts& counts)
{
    const std::size_t inSize = static_cast<std::size_t>(dtypeBits(from) / 8);
    const std::size_t outSize = static_cast<std::size_t>(dtypeBits(to) / 8);
    if (from == to) {
        std::memcpy(out, in, n * inSize);
        return;
    }
    // The pairs a model conversion spends its time on run in SIMD lanes (Highway, dispatched at
    // run time); every other source exactly representable in float, and F64 -> F32, goes through
    // floats (FloatRoute.h); what is left (F64 to a 16- or 8-bit float, where a float in between
    // would round twice) element by element through the shared decoders and an exact encoder.
    if (from == Dtype::F32 && to == Dtype::BF16)
        return narrow::f32ToBf16(in, out, n, counts);
    if (from == Dtype::F32 && to == Dtype::F16)
        return narrow::f32ToF16(in, out, n, counts);
    if ((from == Dtype::BF16 || from == Dtype::F16) && to == Dtype::F32) {
        counts.nan += decode::widenHalfs(in, n, from == Dtype::BF16, reinterpret_cast<float*>(out));
        return;
    }
    if (floatroute::handles(from, to))
        return floatroute::convert(from, to, in, out, n, counts);

    const Format target = formatOf(to);
    const std::span<const std::byte> bytes(in, n * inSize);
    for (std::size_t i = 0; i < n; ++i) {
        const double v = decode::element(from, bytes, i);
        std::byte* dst = out + i * outSize;
        if (to == Dtype::F64) {
            counts.nan += std::isnan(v);
            store<double>(dst, v);
            continue;
        }
        const std::uint64_t bits = encodeBits(v, target, counts);
        switch (outSize) {
        case 1:
            store<std::uint8_t>(dst, static_cast<std::uint8_t>(bits));
            break;
        case 2:
            store<std::uint16_t>(dst, static_cast<std::uint16_t>(bits));
            break;
        default:
            store<std::uint32_t>(dst, static_cast<std::uint32_t>(bits));
            break;
        }
    }
}

} // namespace ts
