#pragma once

#include "tensor/TensorPanel.h"

class QTabWidget;

namespace ts::ui {

class AnomalyNavigator;
class HeatmapPanel;
class HistogramPanel;
class LinePlotPanel;
class StatsJob;
class ValueGridPanel;

// The plots of the selected tensor: the histogram beside tabs for the heatmap (2-D and up), the
// line plot (1-D) and the value grid. Tabs that do not apply to the tensor's rank are hidden.
// Above them the anomaly walk (F3 / Shift+F3), which moves the value grid and the heatmap together.
class TensorVisualsPanel final : public TensorPanel {
    Q_OBJECT
public:
    TensorVisualsPanel(StatsJob* job, QWidget* parent = nullptr);

    void showTensor(const std::shared_ptr<const Checkpoint>& model, int tensor) override;
    HistogramPanel* histogram() const { return m_histogram; }
    HeatmapPanel* heatmap() const { return m_heatmap; }
    ValueGridPanel* valueGrid() const { return m_grid; }
    LinePlotPanel* linePlot() const { return m_line; }
    QTabWidget* tabs() const { return m_tabs; }
    AnomalyNavigator* anomalies() const { return m_anomalies; }
    // Shows the Values tab at row-major element `flat` of the shown tensor (an audit finding's).
    bool showElement(std::uint64_t flat);

private:
    void goToAnomaly(std::uint64_t flat);

    AnomalyNavigator* m_anomalies;
    HistogramPanel* m_histogram;
    HeatmapPanel* m_heatmap;
    ValueGridPanel* m_grid;
    LinePlotPanel* m_line;
    QTabWidget* m_tabs;
    bool m_preferValues = false; // the user picked the Values tab: keep it across selections
};

} // namespace ts::ui
