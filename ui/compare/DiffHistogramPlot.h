#pragma once

#include "analysis/Histogram.h"
#include "charts/Plot.h"

#include <QColor>
#include <QString>

#include <vector>

namespace ts::ui {

// Histograms drawn as filled steps over their bins, several over one axis (A's and B's values,
// which PairDetailBuilder bins alike so they overlay bin for bin), with a legend and an optional
// log count axis.
class DiffHistogramPlot final : public Plot {
    Q_OBJECT
public:
    struct Series {
        Histogram histogram;
        QString name;
        QColor color;
    };

    explicit DiffHistogramPlot(const QString& title, QWidget* parent = nullptr);

    void setSeries(std::vector<Series> series);
    void clearSeries();
    void setLogCount(bool on);
    int seriesCount() const { return static_cast<int>(m_series.size()); }
    // What is drawn, for tests: the counts summed over the bins of series `i`.
    std::uint64_t plottedTotal(int i) const;

private:
    void redraw();

    std::vector<Series> m_series;
    bool m_logCount = false;
};

} // namespace ts::ui
