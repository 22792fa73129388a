#pragma once

#include "diff/PairSummary.h"

#include <cstdint>
#include <optional>

namespace ts::diff {

// How much one tensor changed from checkpoint A to checkpoint B, element by element over the flat
// index, with d = b - a. Built from block summaries in element order (add), and from partial
// metrics of consecutive element ranges (mergeFollowing), so a threaded pass over fixed chunks
// gives the same numbers whatever the thread count. Difference metrics are over the elements
// finite on both sides ("compared"); NaN and Inf are counted apart.
struct ChangeMetrics {
    std::uint64_t elements = 0;
    std::uint64_t compared = 0;
    std::uint64_t changed = 0; // values that differ (NaN against NaN and +0 against -0 do not)
    std::uint64_t nanA = 0, infA = 0, nanB = 0, infB = 0;
    std::uint64_t nonFiniteIntroduced = 0; // finite in A, NaN or Inf in B
    std::uint64_t nonFiniteRemoved = 0;    // NaN or Inf in A, finite in B
    std::optional<std::uint64_t> firstIntroduced, firstRemoved;
    double maxAbsDiff = 0;
    std::optional<std::uint64_t> maxAbsIndex; // the first element with |d| == maxAbsDiff > 0
    double aAtMax = 0, bAtMax = 0;            // its values
    double sumAbsDiff = 0, sumSqDiff = 0, sumSqA = 0, sumSqB = 0;
    double minDiff = 0, maxDiff = 0; // signed range of d (histogram bins); +-inf while none
    double minA = 0, maxA = 0, minB = 0, maxB = 0;
    double maxRelative = 0;                     // |d| in units of the binade of max(|a|, |b|) (PairSummary)
    double maxRelativeF8 = 0;                   // the same with F8_E4M3's floor
    std::uint64_t mantissaA = 0, mantissaB = 0; // see PairSummary

    // An empty range, ready to add to.
    static ChangeMetrics empty();
    // Adds a block of `n` elements whose first is element `firstIndex`.
    void add(const PairSummary& block, std::uint64_t firstIndex, std::uint64_t n);
    // Appends a range that follows this one in element order.
    void mergeFollowing(const ChangeMetrics& next);

    double meanAbsDiff() const; // over compared elements; 0 when none
    double relativeL2() const;  // ||d|| / ||a||; +inf when a is all zero and b is not
    double cosine() const;      // of a and b; NaN when either is all zero
    double fractionChanged() const;
    double normA() const;
    double normB() const;
    // Significand bits each side's values use (0..52): 7 for values that fit BF16, 23 for F32 data.
    int significandBitsA() const;
    int significandBitsB() const;
};

} // namespace ts::diff
