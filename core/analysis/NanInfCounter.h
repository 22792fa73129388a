#pragma once

#include "analysis/TensorStats.h"
#include "format/Dtype.h"

#include <cstddef>
#include <cstdint>

namespace ts {

// The NaN/Inf check alone, for scans that must only answer "is any value NaN or Inf, and where"
// (a CI gate on a large model): a vector test of each raw piece for the dtype's NaN/Inf bit
// pattern, and a per-element look only at the 4096-element stretches that hold one. No value is
// decoded, so it runs at memory speed for every dtype where the full statistics are bound by
// arithmetic. Counts and recorded indices are those of the full statistics (TensorAnalyzer):
// C64 counts an element whose either part is NaN as NaN, else one with an infinite part as +Inf
// (its magnitude). Dtypes without NaN/Inf encodings (integers, BOOL, F4, F6) have none to find.
class NanInfCounter {
public:
    explicit NanInfCounter(Dtype dtype);

    // Whether the dtype can hold NaN or Inf at all; when not, add() reads nothing.
    bool dtypeHasSpecials() const { return m_laneBytes != 0; }
    // Adds `count` elements of raw little-endian bytes whose first has flat index `firstIndex`.
    // Calls must come in element order.
    void add(const std::uint8_t* raw, std::uint64_t firstIndex, std::size_t count);
    // count, finite, nan, posinf, neginf and the first NaN / Inf indices; nothing else is set.
    const ValueStats& result() const { return m_stats; }

private:
    void classify(const std::uint8_t* raw, std::uint64_t firstIndex, std::size_t count);
    void record(std::uint64_t index, double value);

    Dtype m_dtype;
    int m_laneBytes = 0; // 0: the dtype has no NaN/Inf encoding
    int m_lanesPerElement = 1;
    std::uint64_t m_mask = 0;
    std::uint64_t m_value = 0;
    ValueStats m_stats;
};

} // namespace ts
