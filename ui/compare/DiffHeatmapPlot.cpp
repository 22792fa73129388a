#include "compare/DiffHeatmapPlot.h"

#include "charts/DivergingGradient.h"

#include "charts/QCustomPlotInclude.h"

#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>

#include <cmath>

namespace ts::ui {

DiffHeatmapPlot::DiffHeatmapPlot(QWidget* parent)
    : QWidget(parent), m_info(new QLabel(this)), m_plot(new Plot(this)),
      m_map(new QCPColorMap(m_plot->xAxis, m_plot->yAxis)), m_scale(new QCPColorScale(m_plot))
{
    m_plot->setMinimumHeight(200);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->usePalette();
    Plot::styleAxis(m_scale->axis(), palette());
    m_plot->xAxis->setLabel(tr("column"));
    m_plot->yAxis->setLabel(tr("row"));
    m_plot->yAxis->setRangeReversed(true); // row 0 at the top, as a matrix is written
    m_plot->plotLayout()->addElement(0, 1, m_scale);
    m_scale->setType(QCPAxis::atRight);
    m_scale->axis()->setLabel(tr("B \u2212 A"));
    m_map->setColorScale(m_scale);
    m_map->setGradient(divergingGradient()); // the tensor view's, as B - A is signed
    m_map->setInterpolate(false);
    auto* margin = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margin);
    m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, margin);
    m_info->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_info);
    connect(m_plot, &QCustomPlot::mouseMove, this, &DiffHeatmapPlot::onHover);
}

void DiffHeatmapPlot::clear(const QString& note)
{
    m_grid = {};
    m_map->data()->clear();
    m_plot->setVisible(false);
    m_info->setText(note);
}

void DiffHeatmapPlot::setGrid(HeatmapGrid grid)
{
    m_grid = std::move(grid);
    const HeatmapGrid& g = m_grid;
    // Cell (c, r) spans source columns [c * srcCols / cols, ...): the axes speak in the tensor's
    // own indices, as the tensor view's heatmap does.
    auto span = [](int cells, std::uint64_t src) {
        const double per = static_cast<double>(src) / cells;
        if (cells == 1)
            return QCPRange(-0.5, static_cast<double>(src) - 0.5);
        return QCPRange(0.5 * per - 0.5, (cells - 0.5) * per - 0.5);
    };
    m_map->data()->setSize(g.cols, g.rows);
    m_map->data()->setRange(span(g.cols, g.srcCols), span(g.rows, g.srcRows));
    for (int r = 0; r < g.rows; ++r)
        for (int c = 0; c < g.cols; ++c)
            m_map->data()->setCell(c, r, g.at(r, c));
    const double range = g.absmax > 0 ? g.absmax : 1.0;
    m_map->setDataRange(QCPRange(-range, range));
    m_plot->rescaleAxes();
    const bool pooled =
        static_cast<std::uint64_t>(g.rows) < g.srcRows || static_cast<std::uint64_t>(g.cols) < g.srcCols;
    QString text = tr("B \u2212 A as %1 \u00d7 %2").arg(g.srcRows).arg(g.srcCols);
    if (pooled)
        text += tr(", shown as %1 \u00d7 %2 cells, each the largest |B \u2212 A| it covers")
                    .arg(g.rows)
                    .arg(g.cols);
    text += tr(" \u00b7 colour scale \u00b1%1").arg(QString::number(range, 'g', 4));
    if (g.nonFinite > 0)
        text += tr(" \u00b7 %1 NaN/Inf not drawn").arg(g.nonFinite);
    m_info->setText(text);
    m_plot->setVisible(true);
    m_plot->refresh();
}

QString DiffHeatmapPlot::cellText(double x, double y) const
{
    const HeatmapGrid& g = m_grid;
    if (g.rows == 0 || x < -0.5 || y < -0.5)
        return {};
    const auto col = static_cast<std::uint64_t>(std::llround(x));
    const auto row = static_cast<std::uint64_t>(std::llround(y));
    if (col >= g.srcCols || row >= g.srcRows)
        return {};
    const auto c = static_cast<int>(col * static_cast<std::uint64_t>(g.cols) / g.srcCols);
    const auto r = static_cast<int>(row * static_cast<std::uint64_t>(g.rows) / g.srcRows);
    const std::uint64_t r0 = HeatmapGrid::sourceBegin(r, g.rows, g.srcRows);
    const std::uint64_t r1 = HeatmapGrid::sourceBegin(r + 1, g.rows, g.srcRows);
    const std::uint64_t c0 = HeatmapGrid::sourceBegin(c, g.cols, g.srcCols);
    const std::uint64_t c1 = HeatmapGrid::sourceBegin(c + 1, g.cols, g.srcCols);
    const QString value = QString::number(g.at(r, c), 'g', 6);
    if (r1 - r0 == 1 && c1 - c0 == 1)
        return tr("[%1, %2]: B \u2212 A = %3").arg(r0).arg(c0).arg(value);
    return tr("rows %1\u2013%2, columns %3\u2013%4: largest B \u2212 A %5")
        .arg(r0)
        .arg(r1 - 1)
        .arg(c0)
        .arg(c1 - 1)
        .arg(value);
}

void DiffHeatmapPlot::onHover(QMouseEvent* event)
{
    const QString text = cellText(m_plot->xAxis->pixelToCoord(event->position().x()),
                                  m_plot->yAxis->pixelToCoord(event->position().y()));
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
}

} // namespace ts::ui
