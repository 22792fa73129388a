#pragma once

#include "analysis/SimdKernels.h"
#include "analysis/TensorStats.h"
#include "format/Dtype.h"

#include <cstddef>
#include <cstdint>
#include <limits>

namespace ts {

// Folds decoded values into a ValueStats, block by block (dtypes of 16 bits or fewer are counted
// by code instead: CodedAccumulator). Each block is summarised with a
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

    const ValueStats& stats() const { return m_stats; }

private:
    void addSummary(const simd::FloatBlockSummary& s, const float* p, std::size_t n,
                    std::uint64_t firstIndex);
    void recordSpecialIndices(const float* p, std::size_t n, std::uint64_t firstIndex, bool nans, bool infs);

    ValueStats m_stats = ValueStats::empty();
    std::uint32_t m_minNormalBits = 1; // float bit pattern; 1 means "only zero is below normal"
    double m_minNormal = 0;
    double m_pivot = std::numeric_limits<double>::quiet_NaN(); // see simd::summarizeFloats
    bool m_zerosLikely = false;                                // see simd::summarizeFloats
};

} // namespace ts
