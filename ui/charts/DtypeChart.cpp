#include "charts/DtypeChart.h"

#include "charts/Plot.h"

#include "base/Format.h"
#include "charts/QCustomPlotInclude.h"

#include <QVBoxLayout>

#include <tuple>

namespace ts::ui {
namespace {

// Axis labels in the same human form as the rest of the window ("7.2B", "1.5 GiB").
class HumanTicker final : public QCPAxisTicker {
public:
    explicit HumanTicker(bool bytes) : m_bytes(bytes) {}

protected:
    // Byte axes step in powers of 1024 times 1, 2 or 5 so labels read "256 KiB", not "977 KiB".
    double getTickStep(const QCPRange& range) override
    {
        if (!m_bytes) // whole parameters: no "0.5" ticks that would all read "1"
            return qMax(1.0, QCPAxisTicker::getTickStep(range));
        const double target = range.size() / (tickCount() + 1e-10);
        double unit = 1;
        while (unit * 1024 <= target)
            unit *= 1024;
        for (double m : {1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0}) {
            if (unit * m >= target)
                return unit * m;
        }
        return unit * 1024;
    }

    QString getTickLabel(double tick, const QLocale&, QChar, int) override
    {
        if (tick < 0)
            return {};
        const auto n = static_cast<std::uint64_t>(tick + 0.5);
        return m_bytes ? formatBytes(n) : formatCount(n);
    }

private:
    bool m_bytes;
};

// Above this many dtypes the value labels would overlap; the axes and tooltips carry the numbers.
constexpr std::size_t kLabelledBars = 8;

const QColor kParameterColor(0x3b, 0x82, 0xf6);
const QColor kByteColor(0xf5, 0x9e, 0x0b);

void styleAxis(QCPAxis* axis, const QPalette& palette)
{
    Plot::styleAxis(axis, palette);
    // Lighter than the other charts' grid: behind bars it only guides the eye to the labels.
    QColor grid = palette.color(QPalette::WindowText);
    grid.setAlpha(40);
    axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
    axis->grid()->setZeroLinePen(Qt::NoPen);
}

} // namespace

DtypeChart::DtypeChart(QWidget* parent) : QWidget(parent), m_plot(new Plot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    setMinimumHeight(240);
    m_plot->setNoAntialiasingOnDrag(true);
    // The legend sits in a row above the bars, where it cannot hide a value label.
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_plot->legend);
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    rebuild();
}

void DtypeChart::setTotals(const std::vector<DtypeTotals>& totals)
{
    m_totals = totals;
    rebuild();
}

void DtypeChart::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        rebuild();
}

void DtypeChart::rebuild()
{
    m_plot->clearPlottables();
    m_plot->clearItems();
    const QPalette pal = palette();
    m_plot->setBackground(pal.brush(QPalette::Base));

    auto* params = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    auto* bytes = new QCPBars(m_plot->xAxis, m_plot->yAxis2);
    auto* group = new QCPBarsGroup(m_plot);
    params->setName(tr("Parameters (left axis)"));
    bytes->setName(tr("Bytes (right axis)"));
    for (auto [bars, color] : {std::pair{params, kParameterColor}, std::pair{bytes, kByteColor}}) {
        bars->setBrush(color);
        bars->setPen(QPen(color.darker(130)));
        bars->setWidth(0.36);
        bars->setBarsGroup(group);
    }

    QSharedPointer<QCPAxisTickerText> labels(new QCPAxisTickerText);
    double maxParams = 0, maxBytes = 0;
    for (std::size_t i = 0; i < m_totals.size(); ++i) {
        const DtypeTotals& t = m_totals[i];
        const double x = static_cast<double>(i + 1);
        labels->addTick(x, dtypeName(t.dtype));
        params->addData(x, static_cast<double>(t.parameters));
        bytes->addData(x, static_cast<double>(t.bytes));
        maxParams = qMax(maxParams, static_cast<double>(t.parameters));
        maxBytes = qMax(maxBytes, static_cast<double>(t.bytes));
    }
    // Value labels above each pair of bars, so a dtype with a tiny share (F32 scales beside U8
    // codes) still shows its numbers. Stacked, parameters over bytes, centred on the pair: side by
    // side over their own bars, "262K" and "1.00 MiB" ran into each other ("262K1.00 MiB"), most
    // at QT_SCALE_FACTOR=2. Each is tinted like its bar to say which it is.
    const double headroom = 1.35; // the two lines above the tallest bar
    const bool crowded = m_totals.size() > kLabelledBars;
    const bool dark = pal.color(QPalette::Base).lightness() < 128;
    const double n = static_cast<double>(m_totals.size());
    const double pad = 0.7 + qMax(0.0, (3.0 - n) / 2.0); // at least three slots wide (see below)
    const double lower = 1.0 - pad, span = n + 2 * pad - 1.0;
    const int lineHeight = QFontMetrics(m_plot->font()).height();
    for (std::size_t i = 0; i < m_totals.size() && !crowded; ++i) {
        const DtypeTotals& t = m_totals[i];
        const double top = qMax(static_cast<double>(t.parameters) / (qMax(1.0, maxParams) * headroom),
                                static_cast<double>(t.bytes) / (qMax(1.0, maxBytes) * headroom));
        const double x = (static_cast<double>(i + 1) - lower) / span;
        for (const auto& [line, color, text] : {std::tuple{1, kParameterColor, formatCount(t.parameters)},
                                                std::tuple{0, kByteColor, formatBytes(t.bytes)}}) {
            auto* label = new QCPItemText(m_plot);
            label->position->setType(QCPItemPosition::ptAxisRectRatio);
            label->position->setCoords(x, 1.0 - top);
            label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            label->setPadding(QMargins(0, 0, 0, 3 + line * lineHeight));
            label->setText(text);
            label->setColor(dark ? color.lighter(125) : color.darker(150));
            label->setClipToAxisRect(false);
        }
    }
    if (m_totals.empty()) {
        auto* none = new QCPItemText(m_plot);
        none->position->setType(QCPItemPosition::ptAxisRectRatio);
        none->position->setCoords(0.5, 0.5);
        none->setText(tr("This file holds no tensors."));
        none->setColor(pal.color(QPalette::PlaceholderText));
    }
    m_plot->xAxis->setTicker(labels);
    m_plot->xAxis->setTickLabelRotation(crowded ? -50 : 0); // 22 dtype names side by side overlap
    m_plot->xAxis->setSubTicks(false);
    m_plot->xAxis->setTickLength(0, 4);
    m_plot->xAxis->grid()->setVisible(false);
    // At least three slots wide, so a single-dtype model does not get two slabs across the chart.
    m_plot->xAxis->setRange(lower, lower + span);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new HumanTicker(false)));
    m_plot->yAxis2->setTicker(QSharedPointer<QCPAxisTicker>(new HumanTicker(true)));
    m_plot->yAxis->setLabel(tr("Parameters"));
    m_plot->yAxis2->setLabel(tr("Bytes"));
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->grid()->setVisible(false);
    // Headroom above the tallest bar for its labels.
    m_plot->yAxis->setRange(0, qMax(1.0, maxParams) * headroom);
    m_plot->yAxis2->setRange(0, qMax(1.0, maxBytes) * headroom);
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis, m_plot->yAxis2})
        styleAxis(axis, pal);

    m_plot->legend->setVisible(true);
    m_plot->legend->setBrush(pal.brush(QPalette::Base));
    m_plot->legend->setTextColor(pal.color(QPalette::Text));
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->refresh();
}

} // namespace ts::ui
