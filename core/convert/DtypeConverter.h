#pragma once

#include "format/Dtype.h"

#include <cstddef>
#include <cstdint>
#include <span>

namespace ts {

// What a conversion did to the values of one tensor.
struct ConversionCounts {
    std::uint64_t overflowed = 0;  // finite inputs that became ±Inf (or ±448 for F8_E4M3, which saturates)
    std::uint64_t underflowed = 0; // nonzero finite inputs that became ±0
    std::uint64_t nan = 0;         // NaN inputs (they stay NaN)
    // ±Inf inputs. Counted by the report pass's ConvertingSource, not by DtypeConverter::convert:
    // the SIMD kernels keep their three counters.
    std::uint64_t inf = 0;

    ConversionCounts& operator+=(const ConversionCounts& o)
    {
        overflowed += o.overflowed;
        underflowed += o.underflowed;
        nan += o.nan;
        inf += o.inf;
        return *this;
    }
    bool operator==(const ConversionCounts&) const = default;
};

// Element-wise conversion between the floating dtypes F64, F32, F16, BF16, F8_E4M3 and F8_E5M2:
// round to nearest, ties to even; NaN stays NaN (sign kept); finite values out of range become
// ±Inf, except F8_E4M3 (no Inf) which saturates to ±448; Inf into F8_E4M3 also saturates and is
// counted as an overflow. Subnormals are kept, never flushed (with the FPU's default settings,
// which nothing in Tensorscope changes). Little-endian bytes, as in files. Sources are read by the
// shared decoders (codec/DtypeDecoder.h); F32 -> BF16 / F16 and BF16 / F16 -> F32 run in SIMD lanes
// on whichever instruction set the CPU has, every other pair from a source exact in float, and
// F64 -> F32, through floats (FloatRoute.h); all with the same bits on every instruction set
// (tests/convert/tst_convert_kernels.cpp checks each target the binary carries).
class DtypeConverter {
public:
    // The dtypes the converter reads and writes, in the order a user is offered them (the Convert
    // dialog's lists, the CLI's help and completions, the options parser's messages all read this).
    static std::span<const Dtype> targets();
    static bool supports(Dtype dtype);
    // Converts n elements from `in` to `out` (which must not overlap; any alignment) and adds to
    // `counts`.
    static void convert(Dtype from, Dtype to, const std::byte* in, std::byte* out, std::size_t n,
                        ConversionCounts& counts);
};

} // namespace ts
