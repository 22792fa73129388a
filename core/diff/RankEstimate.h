#pragma once

#include <cstdint>
#include <vector>

namespace ts::diff {

// The numerical rank of d = B - A seen as a matrix (rows = the first dimension, columns = the
// rest), from a randomized range finder (LowRankEstimator). A LoRA merged into a base model is a
// rank-r update: r directions, then a drop to noise. A full fine-tune spreads over many directions
// with no such drop. Rounding and quantization noise has no structure at all (rank 0: nothing
// stands above the noise floor).
struct RankEstimate {
    std::uint64_t rows = 0;
    std::uint64_t cols = 0;
    // The numerical rank: where the spectrum drops by at least LowRankEstimator::kGap (a merged
    // LoRA falls from its r directions to rounding noise), else every direction above the noise
    // floor (a change spread over many directions, with no rank to speak of).
    int rank = 0;
    int aboveNoise = 0; // singular values above the noise floor
    double gap = 0;     // sigma_rank / sigma_rank+1 (the noise floor past the sketch); 0 for rank 0
    // The sketch ran out (its largest size, bounded by the smaller side and by memory) with every
    // sampled direction still above the noise floor: at least `aboveNoise` directions.
    bool lowerBound = false;
    int sketch = 0;                     // directions sampled in the last round
    std::vector<double> singularValues; // of the sketch, descending
    double energy = 0;                  // ||d||^2 (NaN and Inf elements count as 0)
    double captured = 0;                // share of the energy in the top `rank` singular values
    double capturedTop1 = 0;            // ... in the largest one
    double capturedSketch = 0;          // ... in all `sketch` sampled directions
    double noiseFloor = 0; // the largest singular value noise with the energy left over would reach
};

} // namespace ts::diff
