#pragma once

#include "charts/Plot.h"
#include "tensor/TensorPanel.h"

#include <cstddef>
#include <cstdint>

class QCheckBox;
class QComboBox;
class QCPBars;
class QLabel;
class QMouseEvent;

namespace ts {
struct Histogram;
struct ValueStats;
} // namespace ts

namespace ts::ui {

class StatsJob;
struct TensorStatsEntry;

// The histogram of the selected tensor's finite values: selectable bins, linear or log count
// axis, linear x or log10|x|, NaN / Inf / zero counts beside it, hover for a bin's range and count,
// export as PNG or SVG.
class HistogramPanel final : public TensorPanel {
    Q_OBJECT
public:
    HistogramPanel(StatsJob* job, QWidget* parent = nullptr);

    void showTensor(const std::shared_ptr<const Checkpoint>& model, int tensor) override;
    void setBins(int bins);
    void setLogCount(bool on);
    void setLogMagnitude(bool on);
    // What is plotted, for tests: bars and the sum of their counts.
    int binCount() const;
    std::uint64_t plottedTotal() const;
    // The line under the plot: finite values, bins, zeros, and the NaN / Inf kinds that occur.
    QString summaryText() const;
    // The hover text of the bin under a plot x coordinate.
    QString binText(double x) const;
    QString binTextAt(int bin) const;
    bool exportTo(const QString& path) const; // .png or .svg
    QCustomPlot* plot() const { return m_plot; }

private:
    static QString summary(const Histogram& h, std::size_t bins, const ValueStats& s, bool logMag);
    void onReady(int tensor);
    void replot();
    void onHover(QMouseEvent* event);
    void exportDialog();

    StatsJob* m_job;
    int m_tensor = -1;
    std::shared_ptr<const TensorStatsEntry> m_entry;
    QComboBox* m_bins;
    QComboBox* m_xMode;
    QCheckBox* m_logCount;
    QLabel* m_side;
    Plot* m_plot;
    QCPBars* m_bars;
};

} // namespace ts::ui
