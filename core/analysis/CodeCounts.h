#pragma once

#include <cstdint>
#include <vector>

namespace ts {

struct CodeCount {
    std::uint32_t code = 0;
    std::uint64_t count = 0;
};

// How often each code occurs in a run of elements: for a dtype of 16 bits or fewer
// (decode::isCoded) every element is one of its at most 65,536 codes, so these counts are the
// run's whole distribution, from which statistics, numpy's histogram and exact quantiles follow
// without another look at the elements. QuantileSearch keeps the same counts of 16-bit digits of
// wider values' order keys. Sparse: only codes that occur, in ascending code order.
class CodeCounts {
public:
    CodeCounts() = default;
    // `entries` in ascending code order, no zero counts.
    explicit CodeCounts(std::vector<CodeCount> entries);

    const std::vector<CodeCount>& entries() const { return m_entries; }
    bool empty() const { return m_entries.empty(); }
    std::uint64_t total() const;
    std::uint64_t countOf(std::uint32_t code) const;
    // Adds `other`'s counts (the parts of a tensor, in any order: counts commute).
    void merge(const CodeCounts& other);

private:
    std::vector<CodeCount> m_entries;
};

} // namespace ts
