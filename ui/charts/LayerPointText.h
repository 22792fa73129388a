#pragma once

#include "analysis/SiblingScores.h"

#include <QString>

namespace ts::ui {

// What hovering one block of a per-layer chart says, in the line chart and the overview alike:
// the block, the tensor, the statistic against its siblings, and whether the scan reported it.
//   block 30 · model.layers.30.mlp.down_proj.weight
//   std 2.00: 100x the median 0.0200 of 48 blocks (robust z +57)
//   LayerOutlier: listed in the audit
QString layerPointText(const QString& tensor, int block, SiblingStatistic statistic,
                       const SiblingScore& score, bool layerOutlier);

} // namespace ts::ui
