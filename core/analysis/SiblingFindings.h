#pragma once

#include "analysis/TensorStats.h"
#include "base/Diagnostic.h"
#include "format/TensorInfo.h"

#include <cstdint>
#include <vector>

namespace ts {

// Finding LayerOutlier (warning): a tensor of a numbered block whose statistics lie far from the
// same tensor in its sibling blocks ("model.layers.30.mlp.down_proj.weight" against layers 0-47).
// Families come from layerFamilies() (core/view/LayerGroups.h); members are compared only with
// siblings of the same shape and dtype, and only in groups of at least kMinGroup, because a
// median and a MAD of three values say nothing.
class SiblingFindings {
public:
    // A statistic is an outlier when its robust z-score on a log scale (distance of log(x) from
    // the siblings' median of log(x), in units of 1.4826 x their median absolute deviation)
    // exceeds kRobustZ AND it is at least kMinRatio times the median or at most 1 / kMinRatio of it. The
    // ratio keeps trained models quiet: statistics drift smoothly with depth, and the first and last blocks
    // of real models differ from the middle by 2-3x, which a robust z alone would flag when the middle agrees
    // closely. A layer scaled 100x (or 0.01x) passes both by orders of magnitude.
    static constexpr double kRobustZ = 10.0;
    static constexpr double kMinRatio = 4.0;
    static constexpr std::size_t kMinGroup = 5;
    // Statistics of a few dozen values are too noisy to compare: the abs max of the 24-value box
    // biases of SSD MobileNet's prediction heads varies 6x between heads. Every weight matrix and
    // every norm vector of a real transformer has more.
    static constexpr std::uint64_t kMinElements = 256;

    // `infos[i]` describes `tensors[i]`. Tensors of the NaN/Inf-only check and tensors with no
    // finite value are left out (they have their own findings).
    static std::vector<Diagnostic> of(const std::vector<TensorStats>& tensors,
                                      const std::vector<const TensorInfo*>& infos);
};

} // namespace ts
