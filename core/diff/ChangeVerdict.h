#pragma once

#include "diff/ChangeMetrics.h"
#include "diff/RankEstimate.h"
#include "format/Dtype.h"

#include <QString>

#include <optional>

namespace ts::diff {

// What kind of change a tensor went through, from its metrics (and its rank estimate when one
// was made). In the order they are decided:
enum class ChangeKind {
    Identical,   // the same bytes
    SameValues,  // the same values in another dtype or shape (an exact upcast, a reshape)
    Rounding,    // every value rounded to fewer significand bits (a BF16 or F16 round trip)
    Scaled,      // b = c * a for one c
    Sparse,      // fewer than 1% of the values changed
    LowRank,     // d is a rank-r update (a merged LoRA)
    NoiseLike,   // d has no low-rank structure and is small: quantization or similar noise
    FullRank,    // d is not low-rank (a full fine-tune)
    Dense,       // most values changed; no rank estimate to say more
    NotCompared, // the values could not be compared (shape or dtype); see the pair's note
};

struct ChangeVerdict {
    ChangeKind kind = ChangeKind::NotCompared;
    QString text;           // one sentence: "rounding to BF16 precision (7 significand bits)"
    int roundingBits = 0;   // Rounding: the significand bits the values were rounded to
    double scale = 0;       // Scaled: c
    bool nonFinite = false; // NaN or Inf appeared or disappeared (said in `text` too)
};

// Stable names for JSON and scripts: "identical", "same-values", "rounding", "scaled", "sparse",
// "low-rank", "noise-like", "full-rank", "dense", "not-compared".
QString changeKindName(ChangeKind kind);

// The verdict for a pair that was compared. `rank` is the pair's estimate when one was made.
ChangeVerdict classifyChange(const ChangeMetrics& m, Dtype a, Dtype b,
                             const std::optional<RankEstimate>& rank);

// The precision a count of significand bits stands for, in words: "BF16 precision (7 significand
// bits)", "F16 precision (10 significand bits)", "9 significand bits".
QString precisionText(int bits);

} // namespace ts::diff
