#include "compare/DiffHistogramPlot.h"

#include "charts/QCustomPlotInclude.h"

#include <algorithm>
#include <numeric>

namespace ts::ui {

DiffHistogramPlot::DiffHistogramPlot(const QString& title, QWidget* parent) : Plot(parent)
{
    usePalette();
    setMinimumHeight(150);
    plotLayout()->insertRow(0);
    auto* heading = new QCPTextElement(this, title, QFont(font().family(), font().pointSize(), QFont::Bold));
    heading->setTextColor(palette().color(QPalette::WindowText));
    plotLayout()->addElement(0, 0, heading);
    yAxis->setLabel(tr("count"));
    legend->setVisible(true);
    legend->setBrush(palette().color(QPalette::Base));
    legend->setTextColor(palette().color(QPalette::WindowText));
    legend->setBorderPen(QPen(palette().color(QPalette::Mid)));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    xAxis->ticker()->setTickCount(4); // values like -2e-08 need the room
    xAxis->setNumberFormat(QStringLiteral("g"));
}

void DiffHistogramPlot::setSeries(std::vector<Series> series)
{
    m_series = std::move(series);
    redraw();
}

void DiffHistogramPlot::clearSeries()
{
    m_series.clear();
    redraw();
}

void DiffHistogramPlot::setLogCount(bool on)
{
    m_logCount = on;
    redraw();
}

std::uint64_t DiffHistogramPlot::plottedTotal(int i) const
{
    if (i < 0 || i >= seriesCount())
        return 0;
    const std::vector<std::uint64_t>& c = m_series[static_cast<std::size_t>(i)].histogram.counts;
    return std::accumulate(c.begin(), c.end(), std::uint64_t(0));
}

void DiffHistogramPlot::redraw()
{
    clearGraphs();
    double top = 1;
    double lo = 0, hi = 1;
    bool any = false;
    for (const Series& s : m_series) {
        const Histogram& h = s.histogram;
        if (h.counts.empty())
            continue;
        QCPGraph* g = addGraph();
        g->setName(s.name);
        g->setLineStyle(QCPGraph::lsStepCenter);
        g->setPen(QPen(s.color, 1.5));
        QColor fill = s.color;
        fill.setAlpha(70);
        g->setBrush(fill);
        const double width = (h.hi - h.lo) / static_cast<double>(h.counts.size());
        QVector<double> x, y;
        x.reserve(static_cast<qsizetype>(h.counts.size()));
        y.reserve(x.capacity());
        for (std::size_t k = 0; k < h.counts.size(); ++k) {
            x << h.lo + (static_cast<double>(k) + 0.5) * width;
            // A log axis cannot show 0: empty bins sit just under the first decade.
            y << (m_logCount ? std::max(0.5, static_cast<double>(h.counts[k]))
                             : static_cast<double>(h.counts[k]));
            top = std::max(top, static_cast<double>(h.counts[k]));
        }
        g->setData(x, y, true);
        lo = any ? std::min(lo, h.lo) : h.lo;
        hi = any ? std::max(hi, h.hi) : h.hi;
        any = true;
    }
    if (m_logCount) {
        yAxis->setScaleType(QCPAxis::stLogarithmic);
        yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        yAxis->setRange(0.5, top * 2);
    } else {
        yAxis->setScaleType(QCPAxis::stLinear);
        yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        yAxis->setRange(0, top * 1.08);
    }
    xAxis->setRange(lo, hi > lo ? hi : lo + 1);
    legend->setVisible(graphCount() > 1);
    refresh();
}

} // namespace ts::ui
