#pragma once

#include "convert/DtypeConverter.h"

#include <cstddef>

namespace ts::floatroute {

// The pairs that used to go element by element through a double and DtypeConverter's exact
// encoder (0.01-0.08 GB/s, `bench_convert kernels`), routed so that each value is rounded once:
// - every source exactly representable in float (F32, F16, BF16, F8_E4M3, F8_E5M2) to any of the
//   converter's targets but the pairs with kernels of their own (F32 <-> F16 / BF16), decoded to floats a
//   block at a time, then narrowed by the SIMD kernels (F16, BF16, F8) or widened (F64); F8 to F32
//   is widened in one step (codec/F8Widening.h);
// - F64 to F32 by the CPU's own rounding (to nearest, ties to even, once).
// Output bytes and counts are those of the exact encoder, NaN codes included: it writes the quiet
// NaN with the input's sign where the kernels would keep part of a payload, and an F64 from BF16
// or F32 keeps the payload as the float-to-double conversion does. tst_convert_kernels pins every
// pair to the bytes of the converter before this route existed.
bool handles(Dtype from, Dtype to);
void convert(Dtype from, Dtype to, const std::byte* in, std::byte* out, std::size_t n,
             ConversionCounts& counts);

} // namespace ts::floatroute
