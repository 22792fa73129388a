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

    ConversionCounts& operator+=(const ConversionCounts& o)
    {
        overflowed += o.overflowed;
        underflowed += o.underflowed;
        nan += o.nan;
        return *this;
    }
    bool operator==(const ConversionCounts&) const = default;
};

// Element-wise conversion between the floating dtypes F64, F32, F16, BF16, F8_E4M3 and F8_E5M2:
// round to nearest, ties to even; NaN stays NaN (sign kept); finite values out of range become
// ±Inf, except F8_E4M3 (no Inf) which saturates to ±448; Inf into F8_E4M3 also saturates and is
// counted as an overflow. Subnormals are kept, never flushed. Little-endian bytes, as in files.
class DtypeConverter {
public:
    // The dtypes the converter reads and writes, in the order a user is offered them (the Convert
    // dialog's lists, the CLI's help and completions, the options parser's messages all read this).
    static std::span<const Dtype> targets();
    static bool supports(Dtype dtype);
    // Converts n elements from `in` to `out` (which must not overlap) and adds to `counts`.
    static void convert(Dtype from, Dtype to, const std::byte* in, std::byte* out, std::size_t n,
                        ConversionCounts& counts);
    // Off: use only the portable kernels (F32 -> F16 otherwise uses the CPU's F16C instruction,
    // F32 -> BF16 its AVX512_BF16 one, when it has them). For tests and benchmarks that compare.
    static void setHardwareKernelsAllowed(bool allowed);
    // One element as a double (exact for every supported dtype).
    static double decode(Dtype from, const std::byte* element);
};

} // namespace ts
