#include "charts/HistogramPanel.h"

#include "charts/Plot.h"
#include "common/DisplayText.h"

#include "base/Format.h"
#include "charts/QCustomPlotInclude.h"
#include "tensor/StatsJob.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSvgGenerator>
#include <QToolTip>
#include <QVBoxLayout>

#include <cmath>

namespace ts::ui {
namespace {

struct BinView {
    double lo = 0;
    double width = 0;
    const std::vector<std::uint64_t>* counts = nullptr;
};

BinView binsOf(const Histogram& h, bool logMagnitude)
{
    BinView v;
    v.counts = logMagnitude ? &h.logCounts : &h.counts;
    const double lo = logMagnitude ? h.logLo : h.lo;
    const double hi = logMagnitude ? h.logHi : h.hi;
    v.lo = lo;
    v.width = v.counts->empty() ? 0 : (hi - lo) / static_cast<double>(v.counts->size());
    return v;
}

} // namespace

HistogramPanel::HistogramPanel(StatsJob* job, QWidget* parent)
    : TensorPanel(parent), m_job(job), m_bins(new QComboBox(this)), m_xMode(new QComboBox(this)),
      m_logCount(new QCheckBox(tr("Log count"), this)), m_side(new QLabel(this)), m_plot(new Plot(this)),
      m_bars(new QCPBars(m_plot->xAxis, m_plot->yAxis))
{
    for (int bins : {16, 32, 64, 128, 256, 512})
        m_bins->addItem(tr("%1 bins").arg(bins), bins);
    m_bins->setCurrentIndex(m_bins->findData(m_job->bins()));
    m_xMode->addItem(tr("Value x"));
    m_xMode->addItem(tr("log\u2081\u2080|x|"));
    m_xMode->setToolTip(
        tr("log10 of the magnitude shows weights that span decades; zeros are counted apart."));
    auto* exportButton = new QPushButton(tr("Export\u2026"), this);

    auto* box = new QGroupBox(tr("Histogram"), this);
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_bins);
    controls->addWidget(m_xMode);
    controls->addWidget(m_logCount);
    controls->addStretch(1);
    controls->addWidget(exportButton);
    m_side->setWordWrap(true);
    m_plot->setMinimumHeight(190);
    m_plot->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    m_plot->yAxis->setLabel(tr("count"));
    m_plot->usePalette();
    m_bars->setPen(Qt::NoPen);
    m_bars->setBrush(QColor(0x3b, 0x82, 0xf6));
    m_bars->setWidthType(QCPBars::wtPlotCoords);
    auto* boxLayout = new QVBoxLayout(box);
    boxLayout->addLayout(controls);
    boxLayout->addWidget(m_plot, 1);
    boxLayout->addWidget(m_side);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(box);

    connect(m_bins, &QComboBox::currentIndexChanged, this,
            [this] { setBins(m_bins->currentData().toInt()); });
    connect(m_xMode, &QComboBox::currentIndexChanged, this, &HistogramPanel::replot);
    connect(m_logCount, &QCheckBox::toggled, this, &HistogramPanel::replot);
    connect(exportButton, &QPushButton::clicked, this, &HistogramPanel::exportDialog);
    connect(m_plot, &QCustomPlot::mouseMove, this, &HistogramPanel::onHover);
    connect(m_job, &StatsJob::ready, this, [this](int tensor, int) { onReady(tensor); });
    connect(m_job, &StatsJob::started, this, [this](int tensor) {
        if (tensor == m_tensor)
            m_side->setText(tr("Computing\u2026"));
    });
}

void HistogramPanel::showTensor(const std::shared_ptr<const Checkpoint>& model, int tensor)
{
    m_tensor = model ? tensor : -1;
    setVisible(m_tensor >= 0);
    m_entry.reset();
    if (m_tensor >= 0)
        m_entry = m_job->request(m_tensor, m_job->bins());
    replot();
}

void HistogramPanel::setBins(int bins)
{
    const QSignalBlocker blocker(m_bins);
    const int i = m_bins->findData(bins);
    if (i >= 0)
        m_bins->setCurrentIndex(i);
    m_job->setBins(bins);
    if (m_tensor >= 0) {
        m_entry = m_job->request(m_tensor, bins);
        replot();
    }
}

void HistogramPanel::setLogCount(bool on)
{
    m_logCount->setChecked(on);
}

void HistogramPanel::setLogMagnitude(bool on)
{
    m_xMode->setCurrentIndex(on ? 1 : 0);
}

void HistogramPanel::onReady(int tensor)
{
    if (tensor != m_tensor)
        return;
    m_entry = m_job->cached(tensor, m_job->bins());
    replot();
}

void HistogramPanel::replot()
{
    const bool logMag = m_xMode->currentIndex() == 1;
    const bool logCount = m_logCount->isChecked();
    QVector<double> keys, values;
    const Histogram* h = m_entry && m_entry->histogram ? &*m_entry->histogram : nullptr;
    if (h) {
        const BinView v = binsOf(*h, logMag);
        for (std::size_t i = 0; i < v.counts->size(); ++i) {
            keys << v.lo + (static_cast<double>(i) + 0.5) * v.width;
            // A log axis cannot show 0: empty bins sit just below 1, where the axis starts.
            const auto c = static_cast<double>((*v.counts)[i]);
            values << (logCount && c == 0 ? 0.5 : c);
        }
        m_bars->setWidth(v.width);
        const ValueStats& s = m_entry->stats.values;
        m_side->setText(summary(*h, v.counts->size(), s, logMag));
    } else if (m_entry) {
        m_side->setText(!m_entry->error ? tr("No histogram for this dtype.")
                                        : toolTipText(m_entry->error->toString()));
    } else if (m_tensor >= 0) {
        m_side->setText(tr("Computing\u2026"));
    }
    m_bars->setData(keys, values, true);
    m_plot->yAxis->setScaleType(logCount ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (logCount)
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    else
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    m_plot->xAxis->setLabel(logMag ? tr("log\u2081\u2080|x|") : tr("value"));
    m_plot->rescaleAxes();
    if (logCount)
        m_plot->yAxis->setRangeLower(0.5);
    else
        m_plot->yAxis->setRangeLower(0);
    m_plot->yAxis->setRangeUpper(m_plot->yAxis->range().upper * 1.08); // headroom above the tallest bar
    m_plot->refresh();
}

QString HistogramPanel::summary(const Histogram& h, std::size_t bins, const ValueStats& s, bool logMag)
{
    // Only the non-finite kinds that occur are named: three "0" counts made the line wrap at the
    // default window size, and the statistics beside the plot give every count anyway.
    QStringList parts{tr("%1 finite in %2 bins").arg(formatGrouped(h.total()), QString::number(bins)),
                      logMag ? tr("zeros %1 (off the log axis)").arg(formatGrouped(s.zeros))
                             : tr("zeros %1").arg(formatGrouped(s.zeros))};
    if (s.nan == 0 && s.posinf == 0 && s.neginf == 0)
        parts << tr("no NaN or Inf");
    if (s.nan > 0)
        parts << tr("NaN %1").arg(formatGrouped(s.nan));
    if (s.posinf > 0)
        parts << tr("+Inf %1").arg(formatGrouped(s.posinf));
    if (s.neginf > 0)
        parts << tr("\u2212Inf %1").arg(formatGrouped(s.neginf));
    return parts.join(QStringLiteral(" \u00b7 "));
}

QString HistogramPanel::summaryText() const
{
    return m_side->text();
}

int HistogramPanel::binCount() const
{
    return m_bars->data()->size();
}

std::uint64_t HistogramPanel::plottedTotal() const
{
    // The counts behind the bars, not the plotted heights (empty bins are lifted on a log axis).
    if (!m_entry || !m_entry->histogram)
        return 0;
    const Histogram& h = *m_entry->histogram;
    std::uint64_t total = 0;
    for (std::uint64_t c : m_xMode->currentIndex() == 1 ? h.logCounts : h.counts)
        total += c;
    return total;
}

QString HistogramPanel::binText(double x) const
{
    if (!m_entry || !m_entry->histogram)
        return {};
    const BinView v = binsOf(*m_entry->histogram, m_xMode->currentIndex() == 1);
    if (v.width <= 0 || v.counts->empty())
        return {};
    const double pos = (x - v.lo) / v.width;
    if (pos < 0 || pos >= static_cast<double>(v.counts->size()) + 1e-9)
        return {};
    const auto i = std::min(static_cast<std::size_t>(pos), v.counts->size() - 1);
    const double lo = v.lo + static_cast<double>(i) * v.width;
    const bool last = i + 1 == v.counts->size();
    return tr("[%1, %2%3: %4")
        .arg(QString::number(lo, 'g', 5), QString::number(lo + v.width, 'g', 5),
             last ? QStringLiteral("]") : QStringLiteral(")"), formatGrouped((*v.counts)[i]));
}

QString HistogramPanel::binTextAt(int bin) const
{
    if (!m_entry || !m_entry->histogram)
        return {};
    const BinView v = binsOf(*m_entry->histogram, m_xMode->currentIndex() == 1);
    return binText(v.lo + (bin + 0.5) * v.width);
}

void HistogramPanel::onHover(QMouseEvent* event)
{
    const QString text = binText(m_plot->xAxis->pixelToCoord(event->position().x()));
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
}

bool HistogramPanel::exportTo(const QString& path) const
{
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(m_plot->size());
        svg.setViewBox(m_plot->rect());
        svg.setTitle(tr("Histogram"));
        QCPPainter painter;
        if (!painter.begin(&svg))
            return false;
        m_plot->toPainter(&painter, m_plot->width(), m_plot->height());
        return painter.end();
    }
    return m_plot->savePng(path);
}

void HistogramPanel::exportDialog()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export Histogram"), QStringLiteral("histogram.png"),
                                     tr("PNG image (*.png);;SVG image (*.svg)"));
    if (!path.isEmpty())
        exportTo(path);
}

} // namespace ts::ui
