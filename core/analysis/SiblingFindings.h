#pragma once

#include "analysis/TensorStats.h"
#include "base/Diagnostic.h"
#include "format/TensorInfo.h"

#include <vector>

namespace ts {

// Finding LayerOutlier (warning): a tensor of a numbered block whose std, abs max or L2 norm lies
// far from the same tensor in its sibling blocks ("model.layers.30.mlp.down_proj.weight" against
// layers 0-47). Families come from layerFamilies() (core/view/LayerGroups.h); the scoring and its
// thresholds are SiblingScores', which the window's per-layer charts share.
class SiblingFindings {
public:
    // `infos[i]` describes `tensors[i]`. One finding per tensor, for the statistic farthest from
    // its siblings.
    static std::vector<Diagnostic> of(const std::vector<TensorStats>& tensors,
                                      const std::vector<const TensorInfo*>& infos);
};

} // namespace ts
