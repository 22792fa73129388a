#include "analysis/LayerScoreTable.h"

#include <algorithm>

namespace ts {

LayerScoreTable::LayerScoreTable(std::vector<QString> names, const std::vector<TensorStats>& stats,
                                 const std::vector<const TensorInfo*>& infos)
    : m_families(layerFamilies(names)), m_names(std::move(names))
{
    for (std::size_t s = 0; s < kStatistics; ++s) {
        m_scores[s].reserve(m_families.size());
        for (const LayerFamily& family : m_families)
            m_scores[s].push_back(SiblingScores::of(family, static_cast<SiblingStatistic>(s), stats, infos));
    }
    m_layerOutlier.reserve(m_families.size());
    for (std::size_t f = 0; f < m_families.size(); ++f) {
        std::vector<bool> flagged(m_families[f].members.size(), false);
        for (const SiblingStatistic s :
             {SiblingStatistic::Std, SiblingStatistic::AbsMax, SiblingStatistic::L2}) {
            const std::vector<SiblingScore>& scores = m_scores[static_cast<std::size_t>(s)][f];
            for (std::size_t m = 0; m < scores.size(); ++m)
                flagged[m] = flagged[m] || scores[m].outlier;
        }
        m_layerOutlier.push_back(std::move(flagged));
        for (const LayerMember& member : m_families[f].members)
            m_blocks.push_back(member.block);
    }
    std::sort(m_blocks.begin(), m_blocks.end());
    m_blocks.erase(std::unique(m_blocks.begin(), m_blocks.end()), m_blocks.end());
}

} // namespace ts
