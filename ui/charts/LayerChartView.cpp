#include "charts/LayerChartView.h"

#include "charts/Plot.h"

#include "charts/QCustomPlotInclude.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ts::ui {

LayerChartView::LayerChartView(QWidget* parent)
    : QWidget(parent), m_family(new QComboBox(this)), m_statistic(new QComboBox(this)),
      m_empty(new QLabel(this)), m_plot(new Plot(this))
{
    m_statistic->addItem(tr("Std"), static_cast<int>(Statistic::Std));
    m_statistic->addItem(tr("Abs max"), static_cast<int>(Statistic::AbsMax));
    m_statistic->addItem(tr("L2 norm"), static_cast<int>(Statistic::L2));
    m_statistic->addItem(tr("Mean"), static_cast<int>(Statistic::Mean));
    m_family->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_family->setMinimumContentsLength(24);
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Per-layer:"), this));
    controls->addWidget(m_family, 1);
    controls->addWidget(m_statistic);
    m_empty->setAlignment(Qt::AlignCenter);
    m_plot->setMinimumHeight(200);
    m_plot->usePalette();
    m_plot->xAxis->setLabel(tr("block"));
    QCPGraph* graph = m_plot->addGraph();
    graph->setPen(QPen(QColor(0x3b, 0x82, 0xf6), 2));
    graph->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(0x3b, 0x82, 0xf6), Qt::white, 8));
    // Block numbers are integers: no tick at 1.5.
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_plot->xAxis->setTicker(ticker);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_empty, 1);
    connect(m_family, &QComboBox::currentIndexChanged, this, &LayerChartView::replot);
    connect(m_statistic, &QComboBox::currentIndexChanged, this, &LayerChartView::replot);
    clear();
}

void LayerChartView::clear(const QString& note)
{
    setData({}, {});
    if (!note.isEmpty())
        m_empty->setText(note);
}

void LayerChartView::setData(const std::vector<QString>& names, std::vector<TensorStats> stats)
{
    m_empty->setText(tr("No repeated numbered blocks (such as layers.N.) in this model, or no scan yet."));
    m_stats = std::move(stats);
    m_families = layerFamilies(names);
    // Largest families first: the deepest repetition is where a stray layer is easiest to see.
    // Among equals, the biggest tensors (the main weights rather than biases) come first.
    auto elements = [this](const LayerFamily& f) {
        const auto t = static_cast<std::size_t>(f.members.front().tensor);
        return t < m_stats.size() ? m_stats[t].elements : 0;
    };
    std::stable_sort(m_families.begin(), m_families.end(), [&](const LayerFamily& a, const LayerFamily& b) {
        if (a.members.size() != b.members.size())
            return a.members.size() > b.members.size();
        return elements(a) > elements(b);
    });
    const QSignalBlocker blocker(m_family);
    m_family->clear();
    for (const LayerFamily& f : m_families)
        m_family->addItem(tr("%1 (%2 blocks)").arg(f.pattern).arg(f.members.size()), f.pattern);
    m_family->setEnabled(!m_families.empty());
    // Start on the family whose blocks differ most (largest std over smallest std): the layer
    // that stands out is what this chart is for.
    int best = 0;
    double bestScore = 0;
    for (std::size_t f = 0; f < m_families.size(); ++f) {
        double lo = std::numeric_limits<double>::infinity(), hi = 0;
        for (const LayerMember& m : m_families[f].members) {
            const auto t = static_cast<std::size_t>(m.tensor);
            const double sd = t < m_stats.size() ? m_stats[t].values.std : 0;
            if (std::isfinite(sd)) {
                lo = std::min(lo, sd);
                hi = std::max(hi, sd);
            }
        }
        const double score = hi / std::max(lo, 1e-12);
        if (hi > 0 && score > bestScore) {
            bestScore = score;
            best = static_cast<int>(f);
        }
    }
    m_family->setCurrentIndex(m_families.empty() ? -1 : best);
    replot();
}

void LayerChartView::setFamily(int index)
{
    m_family->setCurrentIndex(index);
}

void LayerChartView::setFamily(const QString& pattern)
{
    const int i = m_family->findData(pattern);
    if (i >= 0)
        m_family->setCurrentIndex(i);
}

void LayerChartView::setStatistic(Statistic statistic)
{
    m_statistic->setCurrentIndex(m_statistic->findData(static_cast<int>(statistic)));
}

int LayerChartView::pointCount() const
{
    return m_plot->graph(0)->data()->size();
}

QString LayerChartView::currentPattern() const
{
    return m_family->currentData().toString();
}

void LayerChartView::replot()
{
    QVector<double> x, y;
    const int f = m_family->currentIndex();
    const auto statistic = static_cast<Statistic>(m_statistic->currentData().toInt());
    if (f >= 0 && f < familyCount()) {
        for (const LayerMember& m : m_families[static_cast<std::size_t>(f)].members) {
            if (m.tensor >= static_cast<int>(m_stats.size()))
                continue;
            const ValueStats& v = m_stats[static_cast<std::size_t>(m.tensor)].values;
            double value = 0;
            switch (statistic) {
            case Statistic::Std:
                value = v.std;
                break;
            case Statistic::AbsMax:
                value = v.absmax;
                break;
            case Statistic::L2:
                value = v.l2;
                break;
            case Statistic::Mean:
                value = v.mean;
                break;
            }
            x << m.block;
            y << value;
        }
    }
    m_plot->graph(0)->setData(x, y, true);
    m_plot->yAxis->setLabel(m_statistic->currentText());
    m_plot->rescaleAxes();
    // Margins so the first and last points are not cut in half by the axis frame.
    const QCPRange xr = m_plot->xAxis->range();
    m_plot->xAxis->setRange(xr.lower - 0.5, xr.upper + 0.5);
    const QCPRange yr = m_plot->yAxis->range();
    const double pad = yr.size() > 0 ? yr.size() * 0.1 : std::max(std::abs(yr.lower) * 0.1, 1e-6);
    m_plot->yAxis->setRange(yr.lower - pad, yr.upper + pad);
    m_plot->setVisible(!x.isEmpty());
    m_empty->setVisible(x.isEmpty());
    m_plot->refresh();
}

} // namespace ts::ui
