#pragma once

#include "analysis/SiblingScores.h"
#include "analysis/TensorStats.h"
#include "format/TensorInfo.h"
#include "view/LayerGroups.h"

#include <QString>

#include <array>
#include <vector>

namespace ts {

// Every numbered block of a model scored against its siblings, for every statistic at once: what
// the per-layer charts draw (one family as a line, all families as an overview grid), computed once
// per scan so that switching the statistic or the family reads instead of recomputing.
class LayerScoreTable {
public:
    static constexpr std::size_t kStatistics = 6; // SiblingStatistic's values

    LayerScoreTable() = default;
    // `stats[i]` and `infos[i]` belong to tensor `names[i]`; the infos are only read here.
    LayerScoreTable(std::vector<QString> names, const std::vector<TensorStats>& stats,
                    const std::vector<const TensorInfo*>& infos);

    // Families of two or more blocks, sorted by pattern.
    const std::vector<LayerFamily>& families() const { return m_families; }
    const QString& name(int tensor) const { return m_names[static_cast<std::size_t>(tensor)]; }
    // One score per member of family `family`.
    const std::vector<SiblingScore>& scores(SiblingStatistic statistic, std::size_t family) const
    {
        return m_scores[static_cast<std::size_t>(statistic)][family];
    }
    // Whether the member is a LayerOutlier finding (by its std, abs max or L2 norm), whichever
    // statistic is shown.
    bool isLayerOutlier(std::size_t family, std::size_t member) const
    {
        return m_layerOutlier[family][member];
    }
    // Distinct block numbers over all families, ascending: the overview's columns.
    const std::vector<int>& blocks() const { return m_blocks; }

private:
    std::vector<LayerFamily> m_families;
    std::vector<QString> m_names;
    std::array<std::vector<std::vector<SiblingScore>>, kStatistics> m_scores;
    std::vector<std::vector<bool>> m_layerOutlier;
    std::vector<int> m_blocks;
};

} // namespace ts
