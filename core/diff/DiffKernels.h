#pragma once

#include "diff/PairSummary.h"

#include <cstddef>

namespace ts::diff {

// SIMD (Highway, dispatched at run time like analysis/SimdKernels): the numbers of
// summarizePairScalar() over a block of float pairs, at most 4096 of them (counters are 32-bit
// lanes). `maxSoFar` is the largest |b - a| found before this block: the position of a block's
// maximum is looked up only when it beats that, so the lookup stays rare (else maxAbsAt is kNone).
// Overwrites `out`.
void summarizeFloatPairs(const float* a, const float* b, std::size_t n, double maxSoFar, PairSummary& out);

// The instruction set the dispatcher picked for the running CPU (for the benchmark report).
const char* kernelTarget();

} // namespace ts::diff
