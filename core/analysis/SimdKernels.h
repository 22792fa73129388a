#pragma once

#include <cstddef>
#include <cstdint>

namespace ts::simd {

// What one pass over a block of floats finds. Counts are exact; `sum` is accumulated in double.
struct FloatBlockSummary {
    std::uint64_t finite = 0;
    std::uint64_t nan = 0;
    std::uint64_t inf = 0; // either sign
    std::uint64_t negInf = 0;
    std::uint64_t zeros = 0;
    std::uint64_t belowNormal = 0;       // |x| < minNormal, zeros included
    std::uint64_t aboveF16 = 0;          // |x| > 65504, Inf and NaN included
    std::uint64_t f16Underflow = 0;      // 0 < |x| <= 2^-25
    std::uint64_t bf16Underflow = 0;     // 0 < |x| <= 2^-134
    float min = 0;                       // over finite values; +inf when none
    float max = 0;                       // over finite values; -inf when none
    std::uint32_t minAbsNonzeroBits = 0; // bit pattern of the smallest non-zero |x| (>= 0x7f800000: none)
    double sum = 0;                      // over finite values
};

// SIMD kernels with runtime dispatch (Highway): the same binary uses SSE4, AVX2 or AVX-512 as the
// CPU allows. Blocks are small (a few thousand floats) so the second pass runs from L1.
void summarizeFloats(const float* p, std::size_t n, std::uint32_t minNormalBits, FloatBlockSummary& out);
// Sum of (x - mean)^2 in double over a block that holds only finite values.
double sumSquaredDeviations(const float* p, std::size_t n, double mean);
void f16ToF32(const void* src, std::size_t n, float* out);
void bf16ToF32(const void* src, std::size_t n, float* out);
// Name of the instruction set the dispatcher picked (for the benchmark report).
const char* targetName();

} // namespace ts::simd
