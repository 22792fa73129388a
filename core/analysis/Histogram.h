#pragma once

#include <cstdint>
#include <vector>

namespace ts {

// Histograms of a tensor's finite values, with numpy.histogram semantics: `counts.size()` equal
// bins over [lo, hi], every bin half-open except the last, which is closed. When all values are
// equal the range is widened to [v - 0.5, v + 0.5] as numpy does. Values are binned as float64.
struct Histogram {
    double lo = 0;
    double hi = 0;
    std::vector<std::uint64_t> counts;
    // Bins over log10|x| of the non-zero finite values (weights span decades); zeros apart.
    double logLo = 0;
    double logHi = 0;
    std::vector<std::uint64_t> logCounts;
    std::uint64_t zeros = 0;

    std::uint64_t total() const;
};

} // namespace ts
