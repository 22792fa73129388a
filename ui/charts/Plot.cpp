#include "charts/Plot.h"

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
    replot();
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
