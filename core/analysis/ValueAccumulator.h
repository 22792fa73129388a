#pragma once

#include "analysis/SimdKernels.h"
#include "analysis/TensorStats.h"
#include "format/Dtype.h"

#include <cstddef>
#include <cstdint>
#include <limits>

namespace ts {

// Folds decoded values into a ValueStats, block by block. Each block is summarised with a
// pivoted one-pass mean/M2 (ordinary float blocks) or a two-pass one (the rest), and merged with
// Chan's formula: this matches a float64 two-pass over the whole tensor to ~1e-14 relative even
// for data with a large mean, where a naive sum of squares would lose every digit.
class ValueAccumulator {
public:
    // Blocks handed to add() must not be longer than this.
    static constexpr std::size_t kBlock = 4096;

    // `minNormal`: the smallest normal of the source dtype, so subnormals are counted in the
    // tensor's own dtype (0 when it has none).
    explicit ValueAccumulator(double minNormal);

    // `firstIndex`: flat index of p[0] in the tensor, for first-NaN / absmax positions.
    void add(const float* p, std::size_t n, std::uint64_t firstIndex);
    void add(const double* p, std::size_t n, std::uint64_t firstIndex);
    // F16 (bf16 false) or BF16 codes, summarised without decoding when the block is ordinary;
    // `scratch` (room for n floats) takes the decoded block otherwise. Same numbers as add().
    void addHalfs(const std::uint16_t* h, std::size_t n, bool bf16, float* scratch, std::uint64_t firstIndex);

    // A block of a coded dtype (8 bits or fewer) from its code counts: exact, and the same
    // numbers as decoding each element. `raw` is the block's bytes, read again only for positions
    // (first NaN/Inf, a new absmax), code by code and stopping at the first hit.
    void addCodeCounts(Dtype dtype, const std::uint32_t* counts, const std::byte* raw, std::size_t n,
                       std::uint64_t firstIndex);

    const ValueStats& stats() const { return m_stats; }

private:
    void addSummary(const simd::FloatBlockSummary& s, const float* p, std::size_t n,
                    std::uint64_t firstIndex);
    void recordSpecialIndices(const float* p, std::size_t n, std::uint64_t firstIndex, bool nans, bool infs);

    ValueStats m_stats = ValueStats::empty();
    std::uint32_t m_minNormalBits = 1; // float bit pattern; 1 means "only zero is below normal"
    double m_minNormal = 0;
    double m_pivot = std::numeric_limits<double>::quiet_NaN(); // see simd::summarizeFloats
};

} // namespace ts
