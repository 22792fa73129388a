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
    double pivot = 0;                    // `sum` and `m2` are taken around this value
    double sum = 0;                      // of (x - pivot) over finite values
    double m2 = -1;                      // of (x - mean)^2 over finite values; -1: not computed
};

// SIMD kernels with runtime dispatch (Highway): the same binary uses SSE4, AVX2 or AVX-512 as the
// CPU allows. Blocks are small (a few thousand floats) so a second pass runs from L1.
// A block of ordinary values (no zero, NaN, Inf, subnormal, F16 over/underflow) is summarised in
// one pass, m2 included: sums of d = x - pivot and d^2 in double, m2 = S2 - S1^2/n. With the pivot
// near the block's mean (the caller passes the previous block's mean) that difference cancels
// nothing, so it is as exact as the two-pass formula. Other blocks, and blocks whose mean is far
// from the pivot (the difference would cancel digits), come back with m2 = -1.
// With `zerosLikely` (the previous block had zeros or values below normal) zeros and values below
// normal down to 2^-25 count as ordinary too, for a few more operations per vector.
void summarizeFloats(const float* p, std::size_t n, std::uint32_t minNormalBits, double pivot,
                     FloatBlockSummary& out, bool zerosLikely = false);
// Sum of (x - mean)^2 in double over a block that holds only finite values.
double sumSquaredDeviations(const float* p, std::size_t n, double mean);
// Histogram bin indices for a block of floats, computed in float SIMD lanes and still exact: out[i]
// is the bin of p[i], or kNoBin where the caller must decide with the exact scalar rule (a value
// within `margin` bins of an edge, out of range, or not finite; and for the log bins also zero or
// subnormal). Linear: bin = floor((x - lo) * norm). Log: bin = floor((log10|x| - lo) * norm), with
// log10 from the exponent and a series for the mantissa. The caller sizes `margin` to cover float
// rounding (HistogramBuilder: a few 2^-24 of the coordinates involved), so a lane outside the
// margin is in the same bin as the exact double rule puts it.
inline constexpr std::uint32_t kNoBin = 0xffffffffu;
// Both return how many entries are kNoBin and list their positions in `missed` (room for n), so
// the caller fixes just those.
std::size_t linearBins(const float* p, std::size_t n, double lo, double norm, std::uint32_t bins,
                       double margin, std::uint32_t* out, std::uint32_t* missed);
std::size_t logBins(const float* p, std::size_t n, double lo, double norm, std::uint32_t bins, double margin,
                    std::uint32_t* out, std::uint32_t* missed);
// Whether any of `lanes` little-endian lanes of `laneBytes` (1, 2, 4 or 8) bytes at `p` has
// (lane & mask) == value: the NaN/Inf encodings of every float dtype are such a pattern.
bool anyMasked(const void* p, std::size_t lanes, int laneBytes, std::uint64_t mask, std::uint64_t value);
// The index of the first of `lanes` little-endian lanes of `laneBytes` (1 or 2) bytes at `p` that
// equals `a` or `b`; `lanes` when none does (CodedAccumulator: where a new absmax is).
std::size_t findEither(const void* p, std::size_t lanes, int laneBytes, std::uint32_t a, std::uint32_t b);
// For each p[i] whose order key's top 16 bits equal targets[t] (t < count, at most 7, each a
// finite prefix), appends (t << 16 | the key's low 16 bits) to `out` (room for n); returns how many
// (QuantileSearch's pass over float values).
std::size_t matchKeyPrefixes(const float* p, std::size_t n, const std::uint32_t* targets, std::size_t count,
                             std::uint32_t* out);
// out[i] = the top 16 bits of p[i]'s order key (CodeCounter::orderKey), for every value.
void keyPrefixes(const float* p, std::size_t n, std::uint32_t* out);
// Name of the instruction set the dispatcher picked (for the benchmark report).
const char* targetName();
// Whether BF16 / F16 statistics are cheaper decoded to float and summed in vectors than counted
// in a 65,536-entry code table: true from AVX2 up (F16C widens F16 in one instruction), false on
// SSE4, SSSE3 and the scalar fallback, where widening and summing cost more than a count.
bool summingHalfsBeatsCounting();

} // namespace ts::simd
