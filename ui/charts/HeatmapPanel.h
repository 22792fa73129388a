#pragma once

#include "charts/Plot.h"
#include "common/JobRunner.h"
#include "tensor/TensorPanel.h"
#include "view/Heatmap.h"

#include <array>
#include <memory>
#include <optional>

class QComboBox;
class QCPColorMap;
class QCPColorScale;
class QCPGraph;
class QCPItemRect;
class QLabel;
class QMouseEvent;
class QTimer;

namespace ts::ui {

class AxisPicker;

// A colour map of a tensor's plane (a 1-D tensor is one strip), pooled off the UI thread to at
// most kMaxCells per side so a 4096x4096 matrix renders at once. Whatever the pooling, a block
// holding NaN, +Inf, -Inf or an outlier (the scan's rule) is drawn as a marker of its own colour
// at least kMarkerPixels wide, with a legend, so one bad element of millions reaches the eye.
// Colour scales: diverging and symmetric for signed data, sequential for unsigned and bool;
// linear, log |x| or clipped to the 1st-99th percentile of the cells. Wheel or box zoom re-reads
// the visible region at full resolution; hover names the source rows and columns of a cell; a
// click asks for the value grid at that element (cellActivated).
class HeatmapPanel final : public TensorPanel {
    Q_OBJECT
public:
    static constexpr int kMaxCells = 256;
    static constexpr int kMarkerPixels = 7;
    // Elements per side of the window focusElement() zooms to, the element in its middle.
    static constexpr std::uint64_t kFocusCells = 33;
    enum class Scale { Linear, LogAbs, Percentile };

    explicit HeatmapPanel(QWidget* parent = nullptr);

    void showTensor(const std::shared_ptr<const Checkpoint>& model, int tensor) override;
    void setPooling(Pooling pooling);
    void setScale(Scale scale);
    AxisPicker* axisPicker() const { return m_axes; }
    Plot* plot() const { return m_plot; }
    // The grid drawn now (empty while computing), and whether a job is running.
    const HeatmapGrid& grid() const { return m_grid; }
    bool isComputing() const { return m_job.isRunning(); }
    // The colour range in use and whether the map is diverging (signed data).
    QCPRange colourRange() const;
    bool isDiverging() const { return m_diverging; }
    QString legendText() const;
    // Plane coordinates under plot coordinates (x = column, y = row), or false off the plane.
    bool planeCellAt(double x, double y, std::uint64_t& row, std::uint64_t& col, int& cellRow,
                     int& cellCol) const;
    QString cellText(double x, double y) const;
    // Shows plane rows [r0, r1) x columns [c0, c1) and re-reads them at full resolution.
    void zoomTo(std::uint64_t r0, std::uint64_t r1, std::uint64_t c0, std::uint64_t c1);
    void resetZoom();
    // Shows row-major element `flat` (the anomaly walk's): the plane of the last two axes that
    // holds it, zoomed to kFocusCells around it at full resolution, the element outlined.
    void focusElement(std::uint64_t flat);
    // The outlined element's plane and cell, while one is (the plane shown is its plane).
    std::optional<PlaneCell> focusedCell() const;

signals:
    void gridReady();
    // The user clicked the element at (row, col) of the plane chosen by `spec`.
    void cellActivated(const ts::PlaneSpec& spec, std::uint64_t row, std::uint64_t col);

private:
    void start();
    void draw();
    void applyColours();
    void placeMarkers();
    void onHover(QMouseEvent* event);
    void onClick(QMouseEvent* event);
    void onRangeChanged();
    void rereadVisible();
    void placeFocus();

    std::shared_ptr<const Checkpoint> m_model;
    int m_tensor = -1;
    JobRunner m_job{this};
    bool m_diverging = true;
    bool m_settingRange = false; // our own axis changes do not count as a zoom
    bool m_keepGrid = false;     // the next job is a zoom: keep drawing the current grid
    HeatmapGrid m_grid;
    HeatmapRegion m_region; // what the next job reads
    AxisPicker* m_axes;
    QComboBox* m_pooling;
    QComboBox* m_scale;
    QLabel* m_legend;
    QLabel* m_info;
    Plot* m_plot;
    QCPColorMap* m_map;
    QCPColorScale* m_colourScale;
    std::array<QCPGraph*, 4> m_markers{}; // NaN, +Inf, -Inf, outlier
    QTimer* m_zoomTimer;
    std::optional<PlaneCell> m_focus;
    QCPItemRect* m_focusBox;
};

} // namespace ts::ui
