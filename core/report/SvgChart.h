#pragma once

#include <QString>
#include <QStringList>

#include <utility>
#include <vector>

namespace ts::svg {

struct Series {
    QString label;
    QString color;              // CSS colour
    std::vector<double> values; // one per x; NaN or <= 0 (on a log axis) leaves a gap
};

// Inline SVG, self-contained (no fonts, images or scripts to fetch), with <title> tooltips on
// the points so a reader can hover for the numbers without any script.

// A statistic per numbered block on a log axis: one line per series, the `flagged` blocks ringed
// in red. `x` holds the block numbers.
QString layerChart(const QString& caption, const std::vector<int>& x, const std::vector<Series>& series,
                   const std::vector<int>& flagged);
// Horizontal bars: `rows` (label, value, text shown after the bar), bars scaled to the largest.
QString bars(const QString& caption, const std::vector<std::pair<QString, double>>& rows,
             const QStringList& valueTexts, const QString& color);

} // namespace ts::svg
