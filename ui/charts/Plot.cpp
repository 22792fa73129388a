#include "charts/Plot.h"

#include <algorithm>

namespace ts::ui {

Plot::Plot(QWidget* parent) : QCustomPlot(parent) {}

void Plot::usePalette()
{
    setBackground(palette().color(QPalette::Base));
    for (QCPAxis* axis : {xAxis, yAxis})
        styleAxis(axis, palette());
}

void Plot::styleAxis(QCPAxis* axis, const QPalette& palette)
{
    const QColor fg = palette.color(QPalette::WindowText);
    axis->setBasePen(QPen(fg));
    axis->setTickPen(QPen(fg));
    axis->setSubTickPen(QPen(fg));
    axis->setTickLabelColor(fg);
    axis->setLabelColor(fg);
    axis->grid()->setPen(QPen(palette.color(QPalette::Mid), 0, Qt::DotLine));
}

bool Plot::canPaint() const
{
    return isVisible() && width() > 0 && height() > 0;
}

void Plot::refresh()
{
    if (!canPaint()) {
        m_stale = true;
        return;
    }
    m_stale = false;
    fitTicks();
    replot();
    // The first replot lays the axis rect out; fit the ticks to its real width.
    if (fitTicks())
        replot();
}

bool Plot::fitTicks()
{
    QCPAxis* axis = xAxis;
    if (!axis || !axis->ticker() || !axis->visible() || !axis->tickLabels())
        return false;
    const QFontMetrics fm(axis->tickLabelFont());
    const QCPRange range = axis->range();
    int widest = 0;
    for (double v : {range.lower, range.upper, (range.lower + range.upper) / 2})
        widest = std::max(widest, fm.horizontalAdvance(QLocale().toString(v, 'g', axis->numberPrecision())));
    const int room = axisRect() && axisRect()->width() > 0 ? axisRect()->width() : width();
    const int count =
        std::clamp(room / std::max(1, widest + 2 * fm.horizontalAdvance(QLatin1Char('0'))), 2, 5);
    if (axis->ticker()->tickCount() == count)
        return false;
    axis->ticker()->setTickCount(count);
    return true;
}

void Plot::showEvent(QShowEvent* event)
{
    QCustomPlot::showEvent(event);
    if (m_stale)
        refresh();
}

void Plot::resizeEvent(QResizeEvent* event)
{
    if (event->size().isEmpty()) {
        // QCustomPlot would replot into a 0x0 buffer; keep the old viewport and catch up later.
        QWidget::resizeEvent(event);
        m_stale = true;
        return;
    }
    QCustomPlot::resizeEvent(event);
    if (m_stale)
        refresh();
}

} // namespace ts::ui
