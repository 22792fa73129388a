#pragma once

#include "analysis/TensorStats.h"
#include "base/Diagnostic.h"
#include "io/TensorLocation.h"

#include <optional>
#include <vector>

namespace ts {

// Turns a tensor's statistics into findings for the audit list. Codes are stable (scripts match
// on them): NanValues and InfValues (error), AllZero, NonBinaryBool, ExtremeOutlier (warning),
// Constant and F16Overflow (info). Each message is one sentence naming the tensor. Statistics from
// the NaN/Inf-only check (TensorStats::nanInfOnly) give the NaN and Inf findings only.
class ScanFindings {
public:
    // The extreme-outlier rule: the z-score of the largest-magnitude element measured against the
    // mean and spread of all the *other* elements (leave-one-out, so the outlier cannot hide by
    // inflating the standard deviation it is measured with). On the real fixtures trained weights
    // reach ~50 at most (BatchNorm variances); a planted 7e4 in N(0, 0.3) weights scores ~2e5.
    static constexpr double kOutlierZ = 100.0;
    static constexpr std::uint64_t kOutlierMinElements = 16;

    static std::vector<Diagnostic> of(const TensorStats& stats, const TensorLocation& location);
    // The leave-one-out z-score of the absmax element; nullopt when there are too few finite
    // values or the others have no spread.
    static std::optional<double> outlierScore(const ValueStats& stats);
    // The same score for any finite value `v` of the stream `stats` describes, against all its
    // other finite values.
    static std::optional<double> leaveOneOutScore(const ValueStats& stats, double v);
    // Whether `v` is an extreme outlier by that rule (the anomaly walk finds every such element).
    static bool isOutlier(const ValueStats& stats, double v);
};

} // namespace ts
