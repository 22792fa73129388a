#pragma once

#include <cstddef>
#include <cstdint>

namespace ts::decode {

// F16 (bf16 false) or BF16 codes widened to floats in SIMD lanes, the dispatcher picking the
// instruction set the CPU has (Highway): out[i] is exactly f16() / bf16() of src[i] on every
// target, NaN bits included. Returns how many codes were NaN (the converter counts them).
std::size_t widenHalfs(const void* src, std::size_t n, bool bf16, float* out);

} // namespace ts::decode
