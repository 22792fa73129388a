#include "charts/DivergingGradient.h"

namespace ts::ui {

QCPColorGradient divergingGradient(const QColor& nan)
{
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(0x3b, 0x4c, 0xc0));
    g.setColorStopAt(0.5, QColor(0xf2, 0xf2, 0xf2));
    g.setColorStopAt(1.0, QColor(0xb4, 0x04, 0x26));
    g.setNanHandling(QCPColorGradient::nhNanColor);
    g.setNanColor(nan);
    return g;
}

} // namespace ts::ui
