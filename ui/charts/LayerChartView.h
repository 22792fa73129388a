#pragma once

#include "analysis/TensorStats.h"
#include "charts/Plot.h"
#include "view/LayerGroups.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;

namespace ts::ui {

// Per-layer chart: for a family of same-named tensors in numbered blocks ("layers.#.mlp.weight"),
// a statistic of each member against its block index, so a block that differs from its siblings
// stands out. Fed with the statistics of a whole-model scan.
class LayerChartView final : public QWidget {
    Q_OBJECT
public:
    enum class Statistic { Std, AbsMax, L2, Mean };

    explicit LayerChartView(QWidget* parent = nullptr);

    // `stats[i]` belongs to tensor `names[i]`.
    void setData(const std::vector<QString>& names, std::vector<TensorStats> stats);
    // No chart; `note` (if given) says why in place of the default text.
    void clear(const QString& note = {});
    int familyCount() const { return static_cast<int>(m_families.size()); }
    void setFamily(int index);
    void setFamily(const QString& pattern);
    void setStatistic(Statistic statistic);
    // Points drawn now (one per block of the chosen family).
    int pointCount() const;
    QString currentPattern() const;

private:
    void replot();

    std::vector<LayerFamily> m_families;
    std::vector<TensorStats> m_stats;
    QComboBox* m_family;
    QComboBox* m_statistic;
    QLabel* m_empty;
    Plot* m_plot;
};

} // namespace ts::ui
