#include "charts/HeatmapPanel.h"

#include "charts/DivergingGradient.h"
#include "charts/Plot.h"
#include "common/DisplayText.h"

#include "charts/QCustomPlotInclude.h"
#include "tensor/AxisPicker.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ts::ui {
namespace {

// Marker colours: none of them on the diverging (blue-white-red) or sequential (white-blue) maps.
struct MarkerKind {
    HeatmapMark mark;
    QColor colour;
    const char* name;
};
const std::array<MarkerKind, 4> kMarkerKinds = {{
    {MarkNaN, QColor(0xff, 0x00, 0xff), QT_TRANSLATE_NOOP("ts::ui::HeatmapPanel", "NaN")},
    {MarkPosInf, QColor(0xff, 0x98, 0x00), QT_TRANSLATE_NOOP("ts::ui::HeatmapPanel", "+Inf")},
    {MarkNegInf, QColor(0x00, 0xbc, 0xd4), QT_TRANSLATE_NOOP("ts::ui::HeatmapPanel", "\u2212Inf")},
    {MarkOutlier, QColor(0x00, 0xc8, 0x53), QT_TRANSLATE_NOOP("ts::ui::HeatmapPanel", "outlier")},
}};

QCPColorGradient sequentialGradient()
{
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(0xf7, 0xfb, 0xff));
    g.setColorStopAt(0.5, QColor(0x6b, 0xae, 0xd6));
    g.setColorStopAt(1.0, QColor(0x08, 0x30, 0x6b));
    g.setNanHandling(QCPColorGradient::nhNanColor);
    g.setNanColor(QColor(0x60, 0x60, 0x60));
    return g;
}

// Key range for `cells` cells over source indices [begin, begin + src): cell centres, so that the
// map covers [begin - 0.5, begin + src - 0.5] and index i sits at coordinate i.
QCPRange centres(int cells, std::uint64_t begin, std::uint64_t src)
{
    const double b = static_cast<double>(begin);
    if (cells == 1)
        return QCPRange(b - 0.5, b + static_cast<double>(src) - 0.5);
    const double per = static_cast<double>(src) / cells;
    return QCPRange(b + 0.5 * per - 0.5, b + (cells - 0.5) * per - 0.5);
}

// Integer ticks only: a tensor has no column 0.4.
QSharedPointer<QCPAxisTicker> indexTicker()
{
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    ticker->setTickCount(4); // labels of five digits must not run together in a narrow plot
    return ticker;
}

} // namespace

HeatmapPanel::HeatmapPanel(QWidget* parent)
    : TensorPanel(parent), m_axes(new AxisPicker(this)), m_pooling(new QComboBox(this)),
      m_scale(new QComboBox(this)), m_legend(new QLabel(this)), m_info(new QLabel(this)),
      m_plot(new Plot(this)), m_map(new QCPColorMap(m_plot->xAxis, m_plot->yAxis)),
      m_colourScale(new QCPColorScale(m_plot)), m_zoomTimer(new QTimer(this)),
      m_focusBox(new QCPItemRect(m_plot))
{
    m_pooling->setObjectName(QStringLiteral("heatmapPooling"));
    m_pooling->addItem(tr("Max |x| pooling"), static_cast<int>(Pooling::MaxAbs));
    m_pooling->addItem(tr("Mean pooling"), static_cast<int>(Pooling::Mean));
    m_pooling->setToolTip(tr("How cells are merged when the matrix is larger than the image. Max |x| keeps a "
                             "single outlier visible; mean shows the broad structure. NaN, Inf and outliers "
                             "are marked either way."));
    m_scale->setObjectName(QStringLiteral("heatmapScale"));
    m_scale->addItem(tr("Clip to 1\u2013"
                        "99%"),
                     static_cast<int>(Scale::Percentile));
    m_scale->addItem(tr("Linear"), static_cast<int>(Scale::Linear));
    m_scale->addItem(tr("Log |x|"), static_cast<int>(Scale::LogAbs));
    m_scale->setToolTip(
        tr("Colour scale. Clipped to the 1st\u2013"
           "99th percentile of the cells, one outlier "
           "cannot wash the rest out (it keeps its marker); linear spans every value; log |x| "
           "shows magnitudes over many decades."));
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_pooling);
    controls->addWidget(m_scale);
    controls->addStretch(1);
    m_legend->setObjectName(QStringLiteral("heatmapLegend"));
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    m_info->setWordWrap(true);

    m_plot->setMinimumHeight(200);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->usePalette();
    Plot::styleAxis(m_colourScale->axis(), palette());
    m_plot->xAxis->setLabel(tr("column"));
    m_plot->yAxis->setLabel(tr("row"));
    m_plot->xAxis->setTicker(indexTicker());
    m_plot->yAxis->setTicker(indexTicker());
    m_plot->yAxis->setRangeReversed(true); // row 0 at the top, as a matrix is written
    m_plot->plotLayout()->addElement(0, 1, m_colourScale);
    m_colourScale->setType(QCPAxis::atRight);
    m_map->setColorScale(m_colourScale);
    m_map->setGradient(divergingGradient());
    m_map->setInterpolate(false);
    m_map->setTightBoundary(false);
    auto* margin = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margin);
    m_colourScale->setMarginGroup(QCP::msBottom | QCP::msTop, margin);
    for (std::size_t k = 0; k < m_markers.size(); ++k) {
        QCPGraph* g = m_plot->addGraph();
        g->setLineStyle(QCPGraph::lsNone);
        g->setName(tr(kMarkerKinds[k].name));
        m_markers[k] = g;
    }

    // Black and wide enough to be found at a glance on either colour map and beside a marker.
    m_focusBox->setPen(QPen(Qt::black, 3));
    m_focusBox->setBrush(Qt::NoBrush);
    m_focusBox->setVisible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(m_axes);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_legend);
    layout->addWidget(m_info);
    m_zoomTimer->setSingleShot(true);
    m_zoomTimer->setInterval(200); // a wheel turn is several events: read once it settles
    connect(m_zoomTimer, &QTimer::timeout, this, &HeatmapPanel::rereadVisible);
    connect(m_pooling, &QComboBox::currentIndexChanged, this, &HeatmapPanel::start);
    connect(m_scale, &QComboBox::currentIndexChanged, this, [this] {
        applyColours();
        m_plot->refresh();
    });
    connect(m_axes, &AxisPicker::changed, this, [this] {
        m_region = {};
        start();
    });
    // Markers are sized in pixels: placed again once the plot has its layout for this paint
    // (before it draws), so a resize or a zoom keeps them whole at the edges.
    connect(m_plot, &QCustomPlot::afterLayout, this, &HeatmapPanel::placeMarkers);
    connect(m_plot, &QCustomPlot::mouseMove, this, &HeatmapPanel::onHover);
    connect(m_plot, &QCustomPlot::mouseRelease, this, &HeatmapPanel::onClick);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this] { resetZoom(); });
    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            &HeatmapPanel::onRangeChanged);
    connect(m_plot->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            &HeatmapPanel::onRangeChanged);
}

void HeatmapPanel::showTensor(const std::shared_ptr<const Checkpoint>& model, int tensor)
{
    m_model = model;
    m_tensor = model ? tensor : -1;
    m_region = {};
    m_focus.reset();
    placeFocus();
    const bool shown =
        m_tensor >= 0 && !model->tensors()[static_cast<std::size_t>(m_tensor)].info.shape.empty();
    if (!shown) {
        m_tensor = -1;
        start(); // cancels a running job
        return;
    }
    {
        const QSignalBlocker blocker(m_axes);
        m_axes->setShape(std::shared_ptr<const Shape>(
            model, &model->tensors()[static_cast<std::size_t>(m_tensor)].info.shape));
    }
    start();
}

void HeatmapPanel::setPooling(Pooling pooling)
{
    m_pooling->setCurrentIndex(m_pooling->findData(static_cast<int>(pooling)));
}

void HeatmapPanel::setScale(Scale scale)
{
    m_scale->setCurrentIndex(m_scale->findData(static_cast<int>(scale)));
}

void HeatmapPanel::start()
{
    if (!m_keepGrid)
        m_grid = {};
    m_keepGrid = false;
    if (m_tensor < 0) {
        m_job.cancel();
        m_grid = {};
        m_map->data()->clear();
        for (QCPGraph* g : m_markers)
            g->data()->clear();
        m_legend->clear();
        m_plot->refresh();
        return;
    }
    m_info->setText(tr("Computing\u2026"));
    const TensorLocation location = m_model->location(m_tensor);
    // The job reads the tensor's info from the model: a copy of its shape can be 392 MB.
    const std::shared_ptr<const Checkpoint> model = m_model;
    const auto tensor = static_cast<std::size_t>(m_tensor);
    const PlaneSpec spec = m_axes->spec();
    const auto pooling = static_cast<Pooling>(m_pooling->currentData().toInt());
    const HeatmapRegion region = m_region;
    m_job.start(
        [location, model, tensor, spec, pooling, region](const JobControl& control) {
            return buildHeatmap(location, model->tensors()[tensor].info, spec, pooling, kMaxCells,
                                control.cancel, region);
        },
        [this](Result<HeatmapGrid> r) {
            if (!r) {
                m_info->setText(toolTipText(r.error().toString()));
                emit readFailed(r.error());
                return;
            }
            m_grid = std::move(r.value());
            draw();
            emit gridReady();
        });
}

void HeatmapPanel::draw()
{
    const HeatmapGrid& g = m_grid;
    const bool strip =
        m_tensor >= 0 && m_model->tensors()[static_cast<std::size_t>(m_tensor)].info.shape.size() == 1;
    m_map->data()->setSize(g.cols, g.rows);
    m_map->data()->setRange(centres(g.cols, g.colBegin, g.srcCols), centres(g.rows, g.rowBegin, g.srcRows));
    m_plot->yAxis->setTicks(!strip); // a 1-D tensor is one strip: no row axis to read
    m_plot->yAxis->setTickLabels(!strip);
    m_plot->yAxis->setLabel(strip ? QString() : tr("row"));
    m_plot->xAxis->setLabel(strip ? tr("index") : tr("column"));
    {
        m_settingRange = true;
        if (g.isWholePlane() || m_plot->xAxis->range().size() <= 0) {
            m_plot->xAxis->setRange(-0.5, static_cast<double>(g.planeCols) - 0.5);
            m_plot->yAxis->setRange(-0.5, static_cast<double>(g.planeRows) - 0.5);
        }
        m_settingRange = false;
    }
    applyColours();

    const bool pooled =
        static_cast<std::uint64_t>(g.rows) < g.srcRows || static_cast<std::uint64_t>(g.cols) < g.srcCols;
    QString text = tr("%1 \u00d7 %2").arg(g.planeRows).arg(g.planeCols);
    if (!g.isWholePlane())
        text += tr(", zoomed to rows %1\u2013%2, columns %3\u2013%4 (double-click: all)")
                    .arg(g.rowBegin)
                    .arg(g.rowBegin + g.srcRows - 1)
                    .arg(g.colBegin)
                    .arg(g.colBegin + g.srcCols - 1);
    if (pooled)
        text += tr(", shown as %1 \u00d7 %2 cells (%3)")
                    .arg(g.rows)
                    .arg(g.cols)
                    .arg(m_pooling->currentText().toLower());
    else
        text += tr(", every element shown");
    m_info->setText(text);
    placeFocus();
    m_plot->refresh();
}

QCPRange HeatmapPanel::colourRange() const
{
    return m_map->dataRange();
}

void HeatmapPanel::applyColours()
{
    const HeatmapGrid& g = m_grid;
    if (g.rows == 0 || g.cols == 0)
        return;
    const auto scale = static_cast<Scale>(m_scale->currentData().toInt());
    const DtypeKind kind = m_tensor >= 0
                               ? dtypeKind(m_model->tensors()[static_cast<std::size_t>(m_tensor)].info.dtype)
                               : DtypeKind::Float;
    // Unsigned and bool data have no sign to show: a sequential map from the smallest value.
    const bool unsignedData = kind == DtypeKind::Bool || kind == DtypeKind::UnsignedInt;
    m_diverging = !unsignedData && scale != Scale::LogAbs;

    std::vector<double> finite;
    finite.reserve(g.values.size());
    for (const double v : g.values) {
        if (std::isfinite(v))
            finite.push_back(scale == Scale::LogAbs ? std::abs(v) : v);
    }
    // Log |x|: zeros (and the smallest magnitudes) sit at the floor, 12 decades below the top.
    double floorMagnitude = 0;
    if (scale == Scale::LogAbs) {
        const double top = g.absmax > 0 ? g.absmax : 1.0;
        double smallest = top;
        for (const double a : finite) {
            if (a > 0)
                smallest = std::min(smallest, a);
        }
        floorMagnitude = std::max(smallest, top * 1e-12);
    }
    auto colourValue = [&](double v) {
        if (!std::isfinite(v))
            return v;
        if (scale == Scale::LogAbs)
            return std::log10(std::max(std::abs(v), floorMagnitude));
        return v;
    };
    for (int r = 0; r < g.rows; ++r) {
        for (int c = 0; c < g.cols; ++c)
            m_map->data()->setCell(c, r, colourValue(g.at(r, c)));
    }

    double low = g.minValue, high = g.maxValue;
    if (scale == Scale::Percentile && !finite.empty()) {
        // numpy's inverted_cdf over the cells: the smallest value with at least q of them at or below.
        std::sort(finite.begin(), finite.end());
        auto quantile = [&](double q) {
            const auto n = static_cast<double>(finite.size());
            const auto k = static_cast<std::size_t>(std::max(0.0, std::ceil(q * n) - 1));
            return finite[std::min(k, finite.size() - 1)];
        };
        low = quantile(0.01);
        high = quantile(0.99);
    } else if (scale == Scale::LogAbs) {
        low = std::log10(floorMagnitude);
        high = std::log10(g.absmax > 0 ? g.absmax : 1.0);
    }
    QCPRange range;
    if (m_diverging) {
        double a = std::max(std::abs(low), std::abs(high));
        if (!(a > 0))
            a = 1.0;
        range = QCPRange(-a, a);
    } else {
        if (unsignedData && scale != Scale::LogAbs)
            low = std::min(low, 0.0);
        if (!(high > low))
            high = low + 1.0;
        range = QCPRange(low, high);
    }
    m_map->setGradient(m_diverging ? divergingGradient() : sequentialGradient());
    m_map->setDataRange(range);
    m_colourScale->axis()->setLabel(scale == Scale::LogAbs       ? tr("log\u2081\u2080 |x|")
                                    : scale == Scale::Percentile ? tr("clipped 1\u2013"
                                                                      "99%")
                                                                 : QString());
    placeMarkers();
    m_legend->setText(legendText());
}

void HeatmapPanel::placeMarkers()
{
    const HeatmapGrid& g = m_grid;
    // A marker covers its cell, and never less than kMarkerPixels square.
    const double cellX =
        std::abs(m_plot->xAxis->coordToPixel(static_cast<double>(g.srcCols) / std::max(1, g.cols)) -
                 m_plot->xAxis->coordToPixel(0));
    const double cellY =
        std::abs(m_plot->yAxis->coordToPixel(static_cast<double>(g.srcRows) / std::max(1, g.rows)) -
                 m_plot->yAxis->coordToPixel(0));
    const double size = std::max<double>(kMarkerPixels, std::min(cellX, cellY));
    // A marker at the plane's edge is moved inward by half its size so that all of it is drawn
    // (clipped by the axis rect, a corner outlier kept a quarter of its pixels).
    const QCPRange xr = m_plot->xAxis->range(), yr = m_plot->yAxis->range();
    const double perPixelX = xr.size() / std::max(1, m_plot->axisRect()->width());
    const double perPixelY = yr.size() / std::max(1, m_plot->axisRect()->height());
    const double insetX = std::min(0.5 * size * perPixelX, 0.5 * xr.size());
    const double insetY = std::min(0.5 * size * perPixelY, 0.5 * yr.size());
    for (std::size_t k = 0; k < m_markers.size(); ++k) {
        QVector<double> xs, ys;
        for (int r = 0; r < g.rows; ++r) {
            for (int c = 0; c < g.cols; ++c) {
                if (!(g.markAt(r, c) & kMarkerKinds[k].mark))
                    continue;
                // The centre of the cell's source block, in plane coordinates.
                const double x = 0.5 * static_cast<double>(g.planeColBegin(c) + g.planeColEnd(c) - 1);
                const double y = 0.5 * static_cast<double>(g.planeRowBegin(r) + g.planeRowEnd(r) - 1);
                xs.push_back(std::clamp(x, xr.lower + insetX, xr.upper - insetX));
                ys.push_back(std::clamp(y, yr.lower + insetY, yr.upper - insetY));
            }
        }
        m_markers[k]->setData(xs, ys, true);
        m_markers[k]->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(Qt::black, 1), kMarkerKinds[k].colour, size));
    }
}

QString HeatmapPanel::legendText() const
{
    const HeatmapGrid& g = m_grid;
    if (g.rows == 0)
        return {};
    const std::uint64_t counts[] = {g.nanCount, g.posInfCount, g.negInfCount, g.outlierCells};
    QStringList parts;
    for (std::size_t k = 0; k < kMarkerKinds.size(); ++k) {
        if (counts[k] == 0)
            continue;
        const QString what =
            k == 3 ? (counts[k] == 1 ? tr("1 outlier cell") : tr("%1 outlier cells").arg(counts[k]))
                   : QStringLiteral("%1 %2").arg(counts[k]).arg(tr(kMarkerKinds[k].name));
        parts << QStringLiteral("<span style=\"background-color:%1; color:%1\">\u2588\u2588</span> %2")
                     .arg(kMarkerKinds[k].colour.name(), what.toHtmlEscaped());
    }
    if (parts.isEmpty())
        return tr("No NaN, Inf or outlier in %1.")
            .arg(g.isWholePlane() ? tr("this plane") : tr("this region"));
    return parts.join(QStringLiteral(" &nbsp; "));
}

bool HeatmapPanel::planeCellAt(double x, double y, std::uint64_t& row, std::uint64_t& col, int& cellRow,
                               int& cellCol) const
{
    const HeatmapGrid& g = m_grid;
    if (g.rows == 0 || g.cols == 0)
        return false;
    // Index i covers coordinates [i - 0.5, i + 0.5). The plot's edge pixels may round half a
    // pixel past the map; they still belong to the first and last rows, which are as reachable as
    // any other.
    const double firstCol = static_cast<double>(g.colBegin),
                 lastCol = firstCol + static_cast<double>(g.srcCols - 1);
    const double firstRow = static_cast<double>(g.rowBegin),
                 lastRow = firstRow + static_cast<double>(g.srcRows - 1);
    double fx = std::floor(x + 0.5), fy = std::floor(y + 0.5);
    if (fx < firstCol - 1 || fx > lastCol + 1 || fy < firstRow - 1 || fy > lastRow + 1)
        return false;
    fx = std::clamp(fx, firstCol, lastCol);
    fy = std::clamp(fy, firstRow, lastRow);
    col = static_cast<std::uint64_t>(fx);
    row = static_cast<std::uint64_t>(fy);
    cellCol = HeatmapGrid::cellOf(col - g.colBegin, g.cols, g.srcCols);
    cellRow = HeatmapGrid::cellOf(row - g.rowBegin, g.rows, g.srcRows);
    return true;
}

QString HeatmapPanel::cellText(double x, double y) const
{
    const HeatmapGrid& g = m_grid;
    std::uint64_t row = 0, col = 0;
    int r = 0, c = 0;
    if (!planeCellAt(x, y, row, col, r, c))
        return {};
    const std::size_t i =
        static_cast<std::size_t>(r) * static_cast<std::size_t>(g.cols) + static_cast<std::size_t>(c);
    QStringList marks;
    for (const MarkerKind& kind : kMarkerKinds) {
        if (g.marks[i] & kind.mark)
            marks << tr(kind.name);
    }
    const QString flagged =
        marks.isEmpty() ? QString() : tr(" \u00b7 holds %1").arg(marks.join(QStringLiteral(", ")));
    const std::uint64_t r0 = g.planeRowBegin(r), r1 = g.planeRowEnd(r);
    const std::uint64_t c0 = g.planeColBegin(c), c1 = g.planeColEnd(c);
    const QString value =
        std::isfinite(g.values[i]) ? QString::number(g.values[i], 'g', 6) : tr("no finite value");
    if (r1 - r0 == 1 && c1 - c0 == 1)
        return tr("[%1, %2] = %3").arg(r0).arg(c0).arg(value) + flagged;
    QString text =
        tr("rows %1\u2013%2, columns %3\u2013%4: %5").arg(r0).arg(r1 - 1).arg(c0).arg(c1 - 1).arg(value);
    if (std::isfinite(g.low[i]))
        text += tr(" (min %1, max %2)")
                    .arg(QString::number(g.low[i], 'g', 6), QString::number(g.high[i], 'g', 6));
    return text + flagged;
}

void HeatmapPanel::onHover(QMouseEvent* event)
{
    if (!m_plot->axisRect()->rect().contains(event->position().toPoint())) {
        QToolTip::hideText();
        return;
    }
    const QString text = cellText(m_plot->xAxis->pixelToCoord(event->position().x()),
                                  m_plot->yAxis->pixelToCoord(event->position().y()));
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
}

void HeatmapPanel::onClick(QMouseEvent* event)
{
    // A click, not the end of a drag: the press was where the release is.
    if (event->button() != Qt::LeftButton || m_plot->property("dragged").toBool() ||
        !m_plot->axisRect()->rect().contains(event->position().toPoint()))
        return;
    std::uint64_t row = 0, col = 0;
    int r = 0, c = 0;
    if (!planeCellAt(m_plot->xAxis->pixelToCoord(event->position().x()),
                     m_plot->yAxis->pixelToCoord(event->position().y()), row, col, r, c))
        return;
    // A pooled cell opens at the first element of its block: the values around it are one look.
    emit cellActivated(m_axes->spec(), m_grid.planeRowBegin(r), m_grid.planeColBegin(c));
}

void HeatmapPanel::onRangeChanged()
{
    if (m_settingRange || m_grid.rows == 0)
        return;
    m_plot->setProperty("dragged", true);
    QTimer::singleShot(0, m_plot, [plot = m_plot] { plot->setProperty("dragged", false); });
    m_zoomTimer->start();
}

void HeatmapPanel::zoomTo(std::uint64_t r0, std::uint64_t r1, std::uint64_t c0, std::uint64_t c1)
{
    m_plot->xAxis->setRange(static_cast<double>(c0) - 0.5, static_cast<double>(c1) - 0.5);
    m_plot->yAxis->setRange(static_cast<double>(r0) - 0.5, static_cast<double>(r1) - 0.5);
    m_zoomTimer->stop();
    rereadVisible();
}

void HeatmapPanel::focusElement(std::uint64_t flat)
{
    if (m_tensor < 0)
        return;
    const Shape& shape = m_model->tensors()[static_cast<std::size_t>(m_tensor)].info.shape;
    const std::optional<PlaneCell> cell = planeCellOf(shape, flat);
    if (!cell)
        return;
    const bool samePlaneShown = samePlane(shape, m_axes->spec(), cell->spec);
    if (!samePlaneShown) {
        // Our own change: the region set below is what the job must read, not the whole plane.
        const QSignalBlocker blocker(m_axes);
        m_axes->setSpec(cell->spec);
    }
    m_focus = cell;
    const TensorPlane plane = makePlane(shape, cell->spec);
    // kFocusCells around `at`, moved inward at the plane's edges; all of a smaller plane.
    const auto window = [](std::uint64_t at, std::uint64_t size) {
        const std::uint64_t n = std::min(kFocusCells, size);
        const std::uint64_t begin = std::min(at - std::min(at, kFocusCells / 2), size - n);
        return std::pair{begin, begin + n};
    };
    const auto [r0, r1] = window(cell->row, plane.rows);
    const auto [c0, c1] = window(cell->col, plane.cols);
    m_settingRange = true;
    m_plot->xAxis->setRange(static_cast<double>(c0) - 0.5, static_cast<double>(c1) - 0.5);
    m_plot->yAxis->setRange(static_cast<double>(r0) - 0.5, static_cast<double>(r1) - 0.5);
    m_settingRange = false;
    m_zoomTimer->stop();
    m_region = HeatmapRegion{r0, r1 - r0, c0, c1 - c0};
    if (r1 - r0 == plane.rows && c1 - c0 == plane.cols)
        m_region = {};
    m_keepGrid = samePlaneShown; // the old picture stays under the zoom until the sharper one arrives
    start();
    placeFocus();
    m_plot->replot();
}

std::optional<PlaneCell> HeatmapPanel::focusedCell() const
{
    return m_focusBox->visible() ? m_focus : std::nullopt;
}

void HeatmapPanel::placeFocus()
{
    const bool shown = m_focus && m_tensor >= 0 &&
                       samePlane(m_model->tensors()[static_cast<std::size_t>(m_tensor)].info.shape,
                                 m_axes->spec(), m_focus->spec);
    m_focusBox->setVisible(shown);
    if (!shown)
        return;
    // A ring one element wide around the element: the element's own marker stays in view.
    const auto x = static_cast<double>(m_focus->col), y = static_cast<double>(m_focus->row);
    m_focusBox->topLeft->setCoords(x - 1.5, y - 1.5);
    m_focusBox->bottomRight->setCoords(x + 1.5, y + 1.5);
}

void HeatmapPanel::resetZoom()
{
    if (m_grid.planeRows == 0)
        return;
    m_settingRange = true;
    m_plot->xAxis->setRange(-0.5, static_cast<double>(m_grid.planeCols) - 0.5);
    m_plot->yAxis->setRange(-0.5, static_cast<double>(m_grid.planeRows) - 0.5);
    m_settingRange = false;
    m_zoomTimer->stop();
    rereadVisible();
}

void HeatmapPanel::rereadVisible()
{
    const HeatmapGrid& g = m_grid;
    if (m_tensor < 0 || g.planeRows == 0 || g.planeCols == 0)
        return;
    auto visible = [](const QCPRange& range, std::uint64_t size, std::uint64_t& begin, std::uint64_t& count) {
        const double lo = std::clamp(std::floor(range.lower + 0.5), 0.0, static_cast<double>(size - 1));
        const double hi = std::clamp(std::ceil(range.upper - 0.5), 0.0, static_cast<double>(size - 1));
        begin = static_cast<std::uint64_t>(lo);
        count = static_cast<std::uint64_t>(hi) - begin + 1;
    };
    HeatmapRegion region;
    visible(m_plot->yAxis->range(), g.planeRows, region.rowBegin, region.rowCount);
    visible(m_plot->xAxis->range(), g.planeCols, region.colBegin, region.colCount);
    if (region.rowCount == g.planeRows && region.colCount == g.planeCols)
        region = {};
    const bool same = region.rowBegin == m_region.rowBegin && region.rowCount == m_region.rowCount &&
                      region.colBegin == m_region.colBegin && region.colCount == m_region.colCount;
    // The grid shows every element of a region holding what is visible: nothing new to read.
    const std::uint64_t rows = region.rowCount ? region.rowCount : g.planeRows;
    const std::uint64_t cols = region.colCount ? region.colCount : g.planeCols;
    const bool everyElement =
        static_cast<std::uint64_t>(g.rows) == g.srcRows && static_cast<std::uint64_t>(g.cols) == g.srcCols;
    const bool covered = region.rowBegin >= g.rowBegin && region.rowBegin + rows <= g.rowBegin + g.srcRows &&
                         region.colBegin >= g.colBegin && region.colBegin + cols <= g.colBegin + g.srcCols;
    if (same || (everyElement && covered))
        return;
    m_region = region;
    m_keepGrid = true; // the old picture stays under the zoom until the sharper one arrives
    start();
}

} // namespace ts::ui
