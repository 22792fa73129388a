#pragma once

#include "analysis/CodeCounts.h"
#include "analysis/Quantiles.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ts {

// Exact quantiles of values wider than 16 bits (F32, F64, the 32- and 64-bit integers, C64's
// magnitude), as numpy's quantile(method="inverted_cdf") gives them, in bounded memory: a radix
// select on the values' order keys (CodeCounter: keys sort like the values). The first pass
// counts each finite value's top 16 key bits (CodeCounter::addKeyPrefixes); from those counts
// each quantile lies in one known bucket. Every further pass counts the next 16 bits of the
// values in the (at most seven) buckets that hold a quantile, until the keys are whole: one more
// pass for floats, three for doubles. Passes may be split over element ranges and threads:
// collect() is const, the caller adds each range's matches under its own lock.
class QuantileSearch {
public:
    // `keyBits` is 32 for float values, 64 for double values.
    QuantileSearch(const CodeCounts& prefixes, int keyBits);

    // True when nothing is left to find (every quantile found, or no finite value).
    bool done() const { return m_found || m_finite == 0; }
    std::optional<Quantiles> result() const;

    // A range's share of a pass: (target << 16 | next 16 key bits) of each matching value.
    struct Matches {
        std::vector<std::uint32_t> entries;
    };
    void collect(const float* p, std::size_t n, Matches& out) const;
    void collect(const double* p, std::size_t n, Matches& out) const;
    void add(const Matches& matches);
    // Once every value of the pass was collected and added: each quantile's bucket narrows to
    // 16 more key bits.
    void finishPass();

private:
    struct Pending {
        std::size_t target = 0; // index into m_targets
        std::uint64_t rank = 0; // among the values of that bucket, 0-based
    };
    void narrowTo(const std::vector<std::vector<std::uint64_t>>& digitCounts);

    int m_keyBits;
    int m_knownBits = 16;
    std::uint64_t m_finite = 0;
    std::vector<std::uint64_t> m_targets;             // distinct known key prefixes, ascending
    std::vector<std::uint32_t> m_targets32;           // the same, when they fit 32 bits (the float pass)
    std::vector<Pending> m_pending;                   // one per Quantiles::kLevels
    std::vector<std::vector<std::uint64_t>> m_digits; // per target, 65536 counts (while a pass runs)
    std::vector<std::uint64_t> m_keys;                // the whole keys, once found
    bool m_found = false;
};

} // namespace ts
