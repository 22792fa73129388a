#include "Plot.h"

namespace ts::ui {

Plot::Plot(QWidget* parent) : QCustomPlot(parent) {}

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
