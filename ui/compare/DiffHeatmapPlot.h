#pragma once

#include "charts/Plot.h"
#include "view/Heatmap.h"

#include <QWidget>

class QCPColorMap;
class QCPColorScale;
class QLabel;
class QMouseEvent;

namespace ts::ui {

// A heatmap of B - A pooled by max |x| (so one changed element of a 4096 x 4096 matrix is a
// saturated dot), on a diverging scale symmetric about zero: red where B grew, blue where it
// shrank, white where nothing changed. Hover for the source rows and columns of a cell and its
// value; wheel to zoom, drag to pan.
class DiffHeatmapPlot final : public QWidget {
    Q_OBJECT
public:
    explicit DiffHeatmapPlot(QWidget* parent = nullptr);

    void setGrid(HeatmapGrid grid);
    // No heatmap: `note` says why.
    void clear(const QString& note);
    const HeatmapGrid& grid() const { return m_grid; }
    QString cellText(double x, double y) const;
    Plot* plot() const { return m_plot; }

private:
    void onHover(QMouseEvent* event);

    HeatmapGrid m_grid;
    QLabel* m_info;
    Plot* m_plot;
    QCPColorMap* m_map;
    QCPColorScale* m_scale;
};

} // namespace ts::ui
