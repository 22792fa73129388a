#pragma once

#include "charts/Plot.h"
#include "common/JobRunner.h"
#include "tensor/TensorPanel.h"
#include "view/Heatmap.h"

#include <memory>

class QComboBox;
class QCPColorMap;
class QCPColorScale;
class QLabel;
class QMouseEvent;

namespace ts::ui {

class AxisPicker;

// A colour map of a 2-D tensor (or a chosen plane of an N-D one), pooled off the UI thread to at
// most kMaxCells per side so a 4096x4096 matrix renders at once. Max-|x| pooling by default so a
// single outlier stays visible; mean pooling on request. Zoom with the wheel, pan by dragging,
// hover for the index and value.
class HeatmapPanel final : public TensorPanel {
    Q_OBJECT
public:
    static constexpr int kMaxCells = 256;

    explicit HeatmapPanel(QWidget* parent = nullptr);

    void showTensor(const std::shared_ptr<const Checkpoint>& model, int tensor) override;
    void setPooling(Pooling pooling);
    AxisPicker* axisPicker() const { return m_axes; }
    // The grid drawn now (empty while computing), and whether a job is running.
    const HeatmapGrid& grid() const { return m_grid; }
    bool isComputing() const { return m_job.isRunning(); }
    QString cellText(double x, double y) const;

signals:
    void gridReady();

private:
    void start();
    void draw();
    void onHover(QMouseEvent* event);

    std::shared_ptr<const Checkpoint> m_model;
    int m_tensor = -1;
    JobRunner m_job{this};
    HeatmapGrid m_grid;
    AxisPicker* m_axes;
    QComboBox* m_pooling;
    QLabel* m_info;
    Plot* m_plot;
    QCPColorMap* m_map;
    QCPColorScale* m_scale;
};

} // namespace ts::ui
