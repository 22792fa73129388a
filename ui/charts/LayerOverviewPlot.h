#pragma once

#include "analysis/LayerScoreTable.h"
#include "charts/Plot.h"

#include <memory>
#include <optional>
#include <vector>

class QCPColorMap;
class QCPColorScale;
class QCPGraph;
class QMouseEvent;

namespace ts::ui {

// Every family of numbered blocks at once: one row per family, one column per block number, each
// cell coloured by how far that block's statistic lies from its siblings' (robust z, clamped to
// +-kClamp), so the odd block stands out without picking a family. Cells that are LayerOutlier
// findings carry a square marker; hovering names the tensor and its numbers, a click opens it.
class LayerOverviewPlot final : public Plot {
    Q_OBJECT
public:
    static constexpr double kClamp = 2 * SiblingScores::kRobustZ;

    explicit LayerOverviewPlot(QWidget* parent = nullptr);

    void setTable(std::shared_ptr<const LayerScoreTable> table);
    void setStatistic(SiblingStatistic statistic);
    // Rows are families in the table's order; columns its distinct block numbers.
    int rowCount() const;
    int columnCount() const;
    // The widget pixel at the centre of the cell of family `family`, block `block` (tests click
    // and hover there); nullopt where the grid has no such cell.
    std::optional<QPoint> cellCentre(std::size_t family, int block) const;
    // What hovering the cell shows; empty where no tensor is.
    QString cellText(std::size_t family, int block) const;
    // Cells with a marker now.
    int markedCount() const;
    // Cells that hold a tensor, and those of them coloured by a comparison (every one for the
    // count statistics): the rest are grey, and the caption says why.
    int tensorCellCount() const { return m_tensorCells; }
    int comparedCellCount() const { return m_comparedCells; }

signals:
    void tensorActivated(const QString& name);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Hit {
        std::size_t family;
        std::size_t member;
    };
    void rebuild();
    void updateTicks();
    std::optional<Hit> hitAt(const QPoint& pixel) const;
    int columnOf(int block) const;
    void onHover(QMouseEvent* event);
    void onPress(QMouseEvent* event);

    std::shared_ptr<const LayerScoreTable> m_table;
    SiblingStatistic m_statistic = SiblingStatistic::Std;
    // [family][column]: the member there, or -1.
    std::vector<std::vector<int>> m_memberAt;
    int m_tensorCells = 0;
    int m_comparedCells = 0;
    QCPColorMap* m_map;
    QCPColorScale* m_scale;
    QCPGraph* m_marks;
};

} // namespace ts::ui
