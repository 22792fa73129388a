#pragma once

#include "analysis/LayerScoreTable.h"
#include "analysis/TensorStats.h"
#include "charts/Plot.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QMouseEvent;
class QTabWidget;

namespace ts::ui {

class LayerOverviewPlot;

// Per-layer charts, fed with the statistics of a whole-model scan. Tensors that repeat across
// numbered blocks ("layers.#.mlp.weight") are scored against their siblings (SiblingScores, as
// the scan's LayerOutlier findings are): the Overview shows every family at once as a grid of
// robust z-scores, One family draws a statistic against the block index. Outliers are marked in
// both; hovering says block, tensor and numbers; a click opens the tensor.
class LayerChartView final : public QWidget {
    Q_OBJECT
public:
    // In SiblingStatistic's order.
    enum class Statistic { Std, AbsMax, L2, Mean, NanCount, InfCount };

    explicit LayerChartView(QWidget* parent = nullptr);

    // `stats[i]` and `infos[i]` belong to tensor `names[i]`. The infos are read here only.
    void setData(const std::vector<QString>& names, const std::vector<TensorStats>& stats,
                 const std::vector<const TensorInfo*>& infos);
    // No chart; `note` (if given) says why in place of the default text.
    void clear(const QString& note = {});
    int familyCount() const;
    void setFamily(int index);
    void setFamily(const QString& pattern);
    void setStatistic(Statistic statistic);
    void showOverview();
    void showFamily();
    // Points drawn now in the family chart (one per block with a value), and those marked.
    int pointCount() const;
    int markedPointCount() const;
    QString currentPattern() const;
    LayerOverviewPlot* overview() const { return m_overview; }
    // The caption beside the statistic: what the overview's colours mean, and why grey cells are grey.
    QString overviewCaption() const;
    Plot* familyPlot() const { return m_plot; }
    // The family chart's point of block `block`, in the plot's pixels; nullopt when not drawn.
    std::optional<QPoint> pointPixel(int block) const;

signals:
    void tensorActivated(const QString& name);

private:
    struct Point {
        std::size_t member;
        double x;
        double y;
    };
    void replot();
    void updateCaption();
    std::size_t currentFamily() const; // index into the table's families; only when there is one
    SiblingStatistic statistic() const;
    std::optional<Point> pointAt(const QPoint& pixel) const;
    void onHover(QMouseEvent* event);
    void onPress(QMouseEvent* event);

    std::shared_ptr<const LayerScoreTable> m_table;
    std::vector<Point> m_points; // drawn now
    QComboBox* m_family;
    QComboBox* m_statistic;
    QLabel* m_empty;
    QLabel* m_caption;
    QTabWidget* m_views;
    LayerOverviewPlot* m_overview;
    Plot* m_plot;
};

} // namespace ts::ui
