#pragma once

#include "analysis/CodeCounts.h"
#include "analysis/TensorStats.h"
#include "format/Dtype.h"

#include <cstddef>
#include <cstdint>

namespace ts {

class CodeCounter;
class CodeTable;

// Statistics of a coded dtype (decode::isCoded: 16 bits or fewer) from how often each code
// occurs: exact, from one counting pass at about a cycle per element instead of a decode and a
// summary per element, and the same for every SIMD target (the counting is scalar). The positions
// (the first NaN and Inf, the first element at the absmax) are searched for only in the pieces
// that hold them, while the caller still has the piece.
class CodedAccumulator {
public:
    explicit CodedAccumulator(Dtype dtype);

    // Elements [firstIndex, firstIndex + n) from the first bit of `bytes`: pieces in element
    // order, each starting on a byte boundary.
    void add(const std::byte* bytes, std::size_t n, std::uint64_t firstIndex);
    // The statistics of everything added (not finalized), and in `counts` the codes it holds.
    ValueStats finish(CodeCounts& counts);

    // The statistics that code counts give (not finalized; no positions): count, finite, the NaN,
    // Inf, zero, subnormal and F16/BF16 range counts, min, max, absmax, min |x| > 0, mean, m2.
    static ValueStats summarize(const CodeTable& table, const CodeCounts& counts);
    // numpy's quantile(method="inverted_cdf") of the finite values the counts hold; nullopt when none.
    static std::optional<Quantiles> quantiles(const CodeTable& table, const CodeCounts& counts);

private:
    bool mayHoldLargerMagnitude() const;
    void findSpecials(const std::byte* bytes, std::size_t n, std::uint64_t firstIndex);
    void findAbsmax(const std::byte* bytes, std::size_t n, std::uint64_t firstIndex, std::size_t from);

    Dtype m_dtype;
    const CodeTable& m_table;
    CodeCounter& m_counter;
    std::vector<std::uint64_t> m_nanIndices;
    std::vector<std::uint64_t> m_infIndices;
    std::uint64_t m_specialsSeen = 0;
    std::size_t m_absmaxAt = 0; // index into byMagnitude() of the largest magnitude seen; size(): none
    std::optional<std::uint64_t> m_absmaxIndex;
};

} // namespace ts
