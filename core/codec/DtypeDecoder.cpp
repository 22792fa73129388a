#include "codec/DtypeDecoder.h"

#include "codec/F8Widening.h"
#include "codec/HalfWidening.h"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace ts::decode {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// A sign/exponent/mantissa minifloat with IEEE-style subnormals; specials are handled by callers.
float minifloat(unsigned code, int ebits, int mbits, int bias)
{
    const bool negative = (code >> (ebits + mbits)) & 1u;
    const unsigned e = (code >> mbits) & ((1u << ebits) - 1u);
    const unsigned m = code & ((1u << mbits) - 1u);
    const double frac = static_cast<double>(m) / static_cast<double>(1u << mbits);
    const double mag =
        e == 0 ? std::ldexp(frac, 1 - bias) : std::ldexp(1.0 + frac, static_cast<int>(e) - bias);
    return static_cast<float>(negative ? -mag : mag);
}

float f8Slow(Dtype dtype, std::uint8_t c)
{
    // The quiet NaN with the code's sign (E8M0 has no sign bit).
    const float nan = (c & 0x80) && dtype != Dtype::F8_E8M0 ? -kNaN : kNaN;
    switch (dtype) {
    case Dtype::F8_E4M3:
        return (c & 0x7f) == 0x7f ? nan : minifloat(c, 4, 3, 7);
    case Dtype::F8_E5M2:
        if ((c & 0x7c) == 0x7c)
            return (c & 0x03) ? nan : ((c & 0x80) ? -kInf : kInf);
        return minifloat(c, 5, 2, 15);
    case Dtype::F8_E8M0:
        return c == 0xff ? nan : std::ldexp(1.0f, static_cast<int>(c) - 127);
    case Dtype::F8_E4M3FNUZ:
        return c == 0x80 ? nan : minifloat(c, 4, 3, 8);
    case Dtype::F8_E5M2FNUZ:
        return c == 0x80 ? nan : minifloat(c, 5, 2, 16);
    default:
        return kNaN;
    }
}

using Table256 = std::array<float, 256>;

// One 256-entry table per 8-bit-or-smaller dtype, built once: a lookup is the fastest scalar decode.
const Table256& tableFor(Dtype dtype)
{
    static const auto tables = [] {
        std::array<Table256, kDtypeCount> t{};
        for (int c = 0; c < 256; ++c) {
            const auto code = static_cast<std::uint8_t>(c);
            for (Dtype d :
                 {Dtype::F8_E4M3, Dtype::F8_E5M2, Dtype::F8_E8M0, Dtype::F8_E4M3FNUZ, Dtype::F8_E5M2FNUZ})
                t[static_cast<std::size_t>(d)][c] = f8Slow(d, code);
            t[static_cast<std::size_t>(Dtype::F4)][c] = minifloat(code & 0x0f, 2, 1, 1);
            t[static_cast<std::size_t>(Dtype::F6_E2M3)][c] = minifloat(code & 0x3f, 2, 3, 1);
            t[static_cast<std::size_t>(Dtype::F6_E3M2)][c] = minifloat(code & 0x3f, 3, 2, 3);
            t[static_cast<std::size_t>(Dtype::U8)][c] = static_cast<float>(code);
            t[static_cast<std::size_t>(Dtype::I8)][c] = static_cast<float>(static_cast<std::int8_t>(code));
            t[static_cast<std::size_t>(Dtype::BOOL)][c] = code ? 1.0f : 0.0f;
        }
        return t;
    }();
    return tables[static_cast<std::size_t>(dtype)];
}

template <typename T> T load(const std::byte* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// The 6-bit code of element k of a packed F6 stream (see the header for the order).
std::uint8_t f6Code(const std::byte* bytes, std::uint64_t k)
{
    const std::uint64_t bit = k * 6;
    const std::uint64_t byte = bit / 8;
    const unsigned shift = static_cast<unsigned>(bit % 8);
    unsigned word = std::to_integer<unsigned>(bytes[byte]);
    if (shift > 2)
        word |= std::to_integer<unsigned>(bytes[byte + 1]) << 8;
    return static_cast<std::uint8_t>((word >> shift) & 0x3f);
}

} // namespace

float f16(std::uint16_t h)
{
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t e = (h >> 10) & 0x1f;
    const std::uint32_t m = h & 0x3ffu;
    if (e == 0x1f) // Inf, or the quiet NaN with the sign (no payload: as the converter always wrote)
        return std::bit_cast<float>(sign | 0x7f800000u | (m ? 0x00400000u : 0u));
    if (e != 0)
        return std::bit_cast<float>(sign | ((e + 112) << 23) | (m << 13));
    // Subnormal (or zero): m * 2^-24, exact in float.
    const float mag = static_cast<float>(m) * 0x1p-24f;
    return sign ? -mag : mag;
}

float bf16(std::uint16_t bits)
{
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

float f8(Dtype dtype, std::uint8_t code)
{
    return tableFor(dtype)[code];
}

float f4(std::uint8_t nibble)
{
    return tableFor(Dtype::F4)[nibble & 0x0f];
}

float f6(Dtype dtype, std::uint8_t code)
{
    return tableFor(dtype)[code & 0x3f];
}

double minNormal(Dtype dtype)
{
    switch (dtype) {
    case Dtype::F16:
        return 0x1p-14;
    case Dtype::BF16:
    case Dtype::F32:
    case Dtype::C64:
        return 0x1p-126;
    case Dtype::F64:
        return std::numeric_limits<double>::min();
    case Dtype::F8_E4M3:
        return 0x1p-6;
    case Dtype::F8_E5M2:
        return 0x1p-14;
    case Dtype::F8_E4M3FNUZ:
        return 0x1p-7;
    case Dtype::F8_E5M2FNUZ:
        return 0x1p-15;
    case Dtype::F4:
        return 1.0;
    case Dtype::F6_E2M3:
        return 1.0;
    case Dtype::F6_E3M2:
        return 0.25;
    default:
        return 0.0; // integers, BOOL, E8M0: every non-zero value is normal
    }
}

double element(Dtype dtype, std::span<const std::byte> bytes, std::uint64_t i)
{
    const std::byte* p = bytes.data();
    switch (dtype) {
    case Dtype::BOOL:
        return std::to_integer<unsigned>(p[i]) ? 1.0 : 0.0;
    case Dtype::U8:
        return std::to_integer<unsigned>(p[i]);
    case Dtype::I8:
        return static_cast<std::int8_t>(std::to_integer<unsigned>(p[i]));
    case Dtype::F4:
        return f4(static_cast<std::uint8_t>(std::to_integer<unsigned>(p[i / 2]) >> (4 * (i % 2))));
    case Dtype::F6_E2M3:
    case Dtype::F6_E3M2:
        return f6(dtype, f6Code(p, i));
    case Dtype::F8_E5M2:
    case Dtype::F8_E4M3:
    case Dtype::F8_E8M0:
    case Dtype::F8_E4M3FNUZ:
    case Dtype::F8_E5M2FNUZ:
        return f8(dtype, static_cast<std::uint8_t>(std::to_integer<unsigned>(p[i])));
    case Dtype::I16:
        return load<std::int16_t>(p + 2 * i);
    case Dtype::U16:
        return load<std::uint16_t>(p + 2 * i);
    case Dtype::F16:
        return f16(load<std::uint16_t>(p + 2 * i));
    case Dtype::BF16:
        return bf16(load<std::uint16_t>(p + 2 * i));
    case Dtype::I32:
        return load<std::int32_t>(p + 4 * i);
    case Dtype::U32:
        return load<std::uint32_t>(p + 4 * i);
    case Dtype::F32:
        return load<float>(p + 4 * i);
    case Dtype::C64:
        return load<float>(p + 8 * i);
    case Dtype::F64:
        return load<double>(p + 8 * i);
    case Dtype::I64:
        return static_cast<double>(load<std::int64_t>(p + 8 * i));
    case Dtype::U64:
        return static_cast<double>(load<std::uint64_t>(p + 8 * i));
    }
    return std::numeric_limits<double>::quiet_NaN();
}

bool decodesToFloat(Dtype dtype)
{
    switch (dtype) {
    case Dtype::I32:
    case Dtype::U32:
    case Dtype::I64:
    case Dtype::U64:
    case Dtype::F64:
    case Dtype::C64:
        return false;
    default:
        return true;
    }
}

void decodeToFloat(Dtype dtype, const std::byte* bytes, std::size_t count, float* out)
{
    const auto* u8 = reinterpret_cast<const std::uint8_t*>(bytes);
    switch (dtype) {
    case Dtype::F32:
        std::memcpy(out, bytes, count * sizeof(float));
        return;
    case Dtype::F16:
    case Dtype::BF16:
        widenHalfs(bytes, count, dtype == Dtype::BF16, out);
        return;
    case Dtype::F8_E4M3:
    case Dtype::F8_E5M2:
        widenF8(bytes, count, dtype == Dtype::F8_E5M2, out);
        return;
    case Dtype::I16:
        for (std::size_t i = 0; i < count; ++i)
            out[i] = load<std::int16_t>(bytes + 2 * i);
        return;
    case Dtype::U16:
        for (std::size_t i = 0; i < count; ++i)
            out[i] = load<std::uint16_t>(bytes + 2 * i);
        return;
    case Dtype::F4: {
        const Table256& t = tableFor(Dtype::F4);
        for (std::size_t i = 0; i + 1 < count; i += 2) {
            out[i] = t[u8[i / 2] & 0x0f];
            out[i + 1] = t[u8[i / 2] >> 4];
        }
        if (count % 2)
            out[count - 1] = t[u8[count / 2] & 0x0f];
        return;
    }
    case Dtype::F6_E2M3:
    case Dtype::F6_E3M2: {
        const Table256& t = tableFor(dtype);
        std::size_t i = 0;
        for (; i + 4 <= count; i += 4) {
            const std::uint8_t* g = u8 + i / 4 * 3;
            const unsigned w = g[0] | (g[1] << 8) | (g[2] << 16);
            out[i] = t[w & 0x3f];
            out[i + 1] = t[(w >> 6) & 0x3f];
            out[i + 2] = t[(w >> 12) & 0x3f];
            out[i + 3] = t[(w >> 18) & 0x3f];
        }
        for (; i < count; ++i)
            out[i] = t[f6Code(bytes, i)];
        return;
    }
    default: {
        // U8, I8, BOOL and the F8 family: one table lookup per byte.
        const Table256& t = tableFor(dtype);
        for (std::size_t i = 0; i < count; ++i)
            out[i] = t[u8[i]];
        return;
    }
    }
}

bool isCoded(Dtype dtype)
{
    return dtypeBits(dtype) <= 16;
}

int codeCount(Dtype dtype)
{
    const int bits = dtypeBits(dtype);
    return bits == 16 ? 65536 : bits >= 8 ? 256 : 1 << bits;
}

const float* codeValues(Dtype dtype)
{
    return tableFor(dtype).data();
}

std::uint32_t codeAt(Dtype dtype, const std::byte* bytes, std::size_t i)
{
    if (dtype == Dtype::F4)
        return (std::to_integer<unsigned>(bytes[i / 2]) >> (4 * (i % 2))) & 0x0f;
    if (dtype == Dtype::F6_E2M3 || dtype == Dtype::F6_E3M2)
        return f6Code(bytes, i);
    if (dtypeBits(dtype) == 16)
        return load<std::uint16_t>(bytes + 2 * i);
    return std::to_integer<unsigned>(bytes[i]);
}

void countCodes(Dtype dtype, const std::byte* bytes, std::size_t count, std::uint32_t* counts)
{
    const auto* u8 = reinterpret_cast<const std::uint8_t*>(bytes);
    if (dtype == Dtype::F6_E2M3 || dtype == Dtype::F6_E3M2) {
        for (std::size_t i = 0; i < count; ++i)
            ++counts[f6Code(bytes, i)];
        return;
    }
    // Byte counts in four interleaved tables, so runs of one byte value do not serialise on a
    // single counter. The input is prefetched a few lines ahead: the hardware prefetcher alone
    // left this loop waiting on memory (see PrefetchAhead in codec/HalfLanes-inl.h).
    std::uint32_t t[4][256] = {};
    const std::size_t nBytes = dtype == Dtype::F4 ? count / 2 : count;
    std::size_t i = 0;
    for (; i + 64 <= nBytes; i += 64) {
        __builtin_prefetch(u8 + i + 2048);
        for (std::size_t j = i; j < i + 64; j += 4) {
            ++t[0][u8[j]];
            ++t[1][u8[j + 1]];
            ++t[2][u8[j + 2]];
            ++t[3][u8[j + 3]];
        }
    }
    for (; i < nBytes; ++i)
        ++t[0][u8[i]];
    for (int b = 0; b < 256; ++b) {
        const std::uint32_t c = t[0][b] + t[1][b] + t[2][b] + t[3][b];
        if (dtype == Dtype::F4) {
            counts[b & 0x0f] += c; // element 2i: low nibble
            counts[b >> 4] += c;
        } else {
            counts[b] += c;
        }
    }
    if (dtype == Dtype::F4 && count % 2)
        ++counts[u8[count / 2] & 0x0f];
}

} // namespace ts::decode
