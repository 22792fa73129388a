#pragma once

#include <cstddef>

namespace ts::decode {

// F8_E4M3 (e5m2 false) or F8_E5M2 codes widened to floats in SIMD lanes, the dispatcher picking
// the instruction set the CPU has (Highway): out[i] is exactly f8() of src[i] on every target,
// NaN bits included (the quiet NaN with the code's sign). Returns how many codes were NaN.
std::size_t widenF8(const void* src, std::size_t n, bool e5m2, float* out);

} // namespace ts::decode
