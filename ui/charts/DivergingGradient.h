#pragma once

#include "charts/QCustomPlotInclude.h"

#include <QColor>

namespace ts::ui {

// The coolwarm map every signed picture uses (a tensor's heatmap, B - A of a comparison, the per-layer
// overview's z-scores): zero near white, the sign as hue, the magnitude as saturation. NaN cells take
// `nan`.
QCPColorGradient divergingGradient(const QColor& nan = QColor(0x60, 0x60, 0x60));

} // namespace ts::ui
