#pragma once

#include "analysis/TensorStats.h"
#include "format/TensorInfo.h"
#include "view/LayerGroups.h"

#include <QString>

#include <cstdint>
#include <limits>
#include <vector>

namespace ts {

// A statistic of one tensor compared with the same tensor in its sibling blocks.
enum class SiblingStatistic { Std, AbsMax, L2, Mean, NanCount, InfCount };

struct SiblingScore {
    static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

    double value = kNone;  // the statistic; NaN when the tensor has none (no finite value)
    double median = kNone; // of the group it was compared with
    // Signed robust z against that group (log scale for std, abs max and L2, linear for the mean);
    // NaN when it was not compared: too few comparable siblings, or a count statistic.
    double z = kNone;
    std::size_t group = 0; // members compared, itself included
    // The LayerOutlier rule for std, abs max and L2 (what the scan reports); any NaN or Inf for
    // the counts; never for the mean, whose robust z over near-zero means is noise.
    bool outlier = false;
};

// The one place where a numbered block is scored against its siblings: the scan's LayerOutlier
// findings (SiblingFindings) and the window's per-layer charts read the same numbers, so a point
// marked in a chart is a finding in the audit list and the other way round.
class SiblingScores {
public:
    // An outlier's robust z on a log scale (distance of log(x) from the siblings' median of
    // log(x), in units of 1.4826 x their median absolute deviation) exceeds kRobustZ AND it is at
    // least kMinRatio times the median or at most 1 / kMinRatio of it. The ratio keeps trained
    // models quiet: statistics drift smoothly with depth, and the first and last blocks of real
    // models differ from the middle by 2-3x, which a robust z alone would flag when the middle
    // agrees closely. A layer scaled 100x (or 0.01x) passes both by orders of magnitude.
    static constexpr double kRobustZ = 10.0;
    static constexpr double kMinRatio = 4.0;
    // A median and a MAD of three values say nothing: findings need this many siblings.
    static constexpr std::size_t kMinGroup = 5;
    // Charts show a z from this many on, unmarked below kMinGroup.
    static constexpr std::size_t kMinShownGroup = 3;
    // Statistics of a few dozen values are too noisy to compare: the abs max of the 24-value box
    // biases of SSD MobileNet's prediction heads varies 6x between heads. Every weight matrix and
    // every norm vector of a real transformer has more.
    static constexpr std::uint64_t kMinElements = 256;

    // One score per member of `family`, in member order. `infos[i]` describes `tensors[i]`, whose
    // indices the family's members hold. Members are compared only with siblings of the same
    // shape and dtype; tensors of the NaN/Inf-only check, complex tensors, tensors with no finite
    // value and tensors under kMinElements are scored against nobody (their value is still given).
    static std::vector<SiblingScore> of(const LayerFamily& family, SiblingStatistic statistic,
                                        const std::vector<TensorStats>& tensors,
                                        const std::vector<const TensorInfo*>& infos);

    // "std", "abs max", "L2 norm", "mean", "NaN count", "Inf count": as findings name them.
    static QString name(SiblingStatistic statistic);
    // A value against the siblings' median as findings and charts write it: "98.2x", "1/50".
    static QString ratioText(double ratio);
    // The statistic of one tensor's values.
    static double valueOf(SiblingStatistic statistic, const ValueStats& values);
};

} // namespace ts
