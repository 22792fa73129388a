#pragma once

#include "convert/DtypeConverter.h"

#include <cstddef>

namespace ts::narrow {

// F32 -> BF16 and F32 -> F16 in SIMD lanes, the dispatcher picking the instruction set the CPU has
// (Highway). Every target gives the same bits (integer arithmetic, or F16C's VCVTPS2PH for F16 on
// AVX2 and up, which rounds the same way): round to nearest, ties to even; a NaN keeps its sign and the top
// of its payload with the quiet bit set (as F16C's VCVTPS2PH and AVX512_BF16's VCVTNEPS2BF16 do); subnormal
// inputs and results are kept. Adds the overflows, underflows and NaNs to `counts` (see ConversionCounts).
void f32ToBf16(const std::byte* in, std::byte* out, std::size_t n, ConversionCounts& counts);
void f32ToF16(const std::byte* in, std::byte* out, std::size_t n, ConversionCounts& counts);
// F32 -> F8_E4M3 (saturating at 448, no Inf) and F8_E5M2, in SIMD lanes on every target: the
// codes and counts of DtypeConverter's exact encoder (round to nearest even, subnormal results
// kept, the quiet NaN with the input's sign).
void f32ToF8E4M3(const std::byte* in, std::byte* out, std::size_t n, ConversionCounts& counts);
void f32ToF8E5M2(const std::byte* in, std::byte* out, std::size_t n, ConversionCounts& counts);

} // namespace ts::narrow
