#pragma once

#include "charts/QCustomPlotInclude.h"

namespace ts::ui {

// QCustomPlot that does not paint while it has no area. A plot on a page that is not shown (or
// not laid out yet) has a 0x0 paint buffer; replotting it makes QCustomPlot and QPainter print
// "paint buffer returned inactive painter" for every layer. refresh() replots when the plot can
// be seen and otherwise remembers to, and the first show or resize to a real size catches up.
class Plot : public QCustomPlot {
public:
    explicit Plot(QWidget* parent = nullptr);
    // Use instead of replot(): now if visible with a size, else at the next show or resize.
    void refresh();
    // The application palette's look: Base background, WindowText axes and labels, dotted Mid
    // grid on both axes, so every chart follows a dark or light theme the same way.
    void usePalette();
    static void styleAxis(QCPAxis* axis, const QPalette& palette);

protected:
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    bool canPaint() const;
    // Fewer ticks on the x axis when its labels would run together ("010000200003000040000"):
    // as many as fit the axis's width at the widest label's width plus two characters' gap.
    // Returns whether the tick count changed (the layout then needs one more replot).
    bool fitTicks();
    bool m_stale = false;
};

} // namespace ts::ui
