#include "compare/CompareLayerChart.h"

#include "charts/QCustomPlotInclude.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

namespace ts::ui {

using namespace ts::diff;

CompareLayerChart::CompareLayerChart(QWidget* parent)
    : QWidget(parent), m_choice(new QComboBox(this)), m_note(new QLabel(this)), m_plot(new Plot(this))
{
    m_choice->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_choice->setMinimumContentsLength(32);
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Per layer:"), this));
    controls->addWidget(m_choice, 1);
    m_note->setWordWrap(true);
    m_plot->usePalette();
    m_plot->setMinimumHeight(200);
    m_plot->xAxis->setLabel(tr("block"));
    m_plot->yAxis->setLabel(tr("relative change \u2016"
                               "B \u2212 A\u2016 / \u2016"
                               "A\u2016"));
    m_plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    m_plot->yAxis->setNumberFormat(QStringLiteral("eb"));
    m_plot->yAxis->setNumberPrecision(0);
    QCPGraph* graph = m_plot->addGraph();
    graph->setPen(QPen(QColor(0xd9, 0x48, 0x1c), 2));
    graph->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(0xd9, 0x48, 0x1c), Qt::white, 8));
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create(); // blocks are integers
    ticker->setTickStep(1);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_plot->xAxis->setTicker(ticker);
    m_plot->setInteraction(QCP::iSelectPlottables, true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_note);
    connect(m_choice, &QComboBox::currentIndexChanged, this, &CompareLayerChart::replot);
    connect(m_plot, &QCustomPlot::plottableClick, this,
            [this](QCPAbstractPlottable*, int dataIndex, QMouseEvent*) {
                const int pair = pairAt(dataIndex);
                if (pair >= 0)
                    emit pairActivated(pair);
            });
    clear();
}

void CompareLayerChart::clear()
{
    m_series.clear();
    const QSignalBlocker blocker(m_choice);
    m_choice->clear();
    m_choice->setEnabled(false);
    replot();
}

void CompareLayerChart::setReport(const DiffReport& report)
{
    std::vector<QString> names;
    names.reserve(report.pairs.size());
    for (const TensorPair& p : report.pairs)
        names.push_back(report.infoA(p).name);
    const auto change = [&](int pair) {
        const TensorPair& p = report.pairs[static_cast<std::size_t>(pair)];
        return p.metrics ? p.metrics->relativeL2() : 0.0;
    };
    std::vector<LayerFamily> families = layerFamilies(names);
    // Largest families first: the deepest repetition is where a stray layer shows best.
    std::stable_sort(families.begin(), families.end(), [](const LayerFamily& a, const LayerFamily& b) {
        return a.members.size() > b.members.size();
    });
    // One series per block prefix ("model.layers.#"): each block's largest change.
    std::map<QString, std::map<int, Point>> byPrefix;
    for (const LayerFamily& f : families) {
        const QString prefix = f.pattern.left(f.pattern.indexOf(QLatin1Char('#')) + 1);
        for (const LayerMember& m : f.members) {
            Point& best = byPrefix[prefix][m.block];
            const double c = change(m.tensor);
            if (best.pair < 0 || c > best.change)
                best = {m.block, c, m.tensor};
        }
    }
    m_series.clear();
    for (const auto& [prefix, blocks] : byPrefix) {
        Series s{tr("%1 \u2014 largest change in each block").arg(prefix), {}};
        for (const auto& [block, point] : blocks)
            s.points.push_back(point);
        m_series.push_back(std::move(s));
    }
    std::stable_sort(m_series.begin(), m_series.end(),
                     [](const Series& a, const Series& b) { return a.points.size() > b.points.size(); });
    for (const LayerFamily& f : families) {
        Series s{tr("%1 (%2 blocks)").arg(f.pattern).arg(f.members.size()), {}};
        for (const LayerMember& m : f.members)
            s.points.push_back({m.block, change(m.tensor), m.tensor});
        m_series.push_back(std::move(s));
    }
    const QSignalBlocker blocker(m_choice);
    m_choice->clear();
    for (const Series& s : m_series)
        m_choice->addItem(s.label);
    m_choice->setEnabled(!m_series.empty());
    m_choice->setCurrentIndex(m_series.empty() ? -1 : 0);
    replot();
}

int CompareLayerChart::seriesCount() const
{
    return static_cast<int>(m_series.size());
}

void CompareLayerChart::setSeries(int index)
{
    m_choice->setCurrentIndex(index);
}

int CompareLayerChart::pointCount() const
{
    return m_plot->graph(0)->data()->size();
}

QString CompareLayerChart::currentSeries() const
{
    return m_choice->currentText();
}

int CompareLayerChart::pairAt(int point) const
{
    return point >= 0 && point < static_cast<int>(m_shown.size())
               ? m_shown[static_cast<std::size_t>(point)].pair
               : -1;
}

void CompareLayerChart::replot()
{
    m_shown.clear();
    QVector<double> x, y;
    QStringList unchanged;
    const int i = m_choice->currentIndex();
    double lo = 0, hi = 0;
    if (i >= 0 && i < seriesCount()) {
        for (const Point& p : m_series[static_cast<std::size_t>(i)].points) {
            if (!(p.change > 0) || !std::isfinite(p.change)) {
                unchanged << QString::number(p.block);
                continue;
            }
            m_shown.push_back(p);
            x << p.block;
            y << p.change;
            lo = x.size() == 1 ? p.change : std::min(lo, p.change);
            hi = std::max(hi, p.change);
        }
        if (!m_series[static_cast<std::size_t>(i)].points.empty()) {
            const auto& pts = m_series[static_cast<std::size_t>(i)].points;
            m_plot->xAxis->setRange(pts.front().block - 0.5, pts.back().block + 0.5);
        }
    }
    m_plot->graph(0)->setData(x, y, true);
    if (!y.isEmpty())
        m_plot->yAxis->setRange(lo / 2, hi * 2);
    if (m_series.empty())
        m_note->setText(tr("No repeated numbered blocks (such as layers.N.) among the paired tensors."));
    else if (unchanged.isEmpty())
        m_note->setText(QString());
    else
        m_note->setText(tr("Unchanged (not drawn on the log scale): block %1.")
                            .arg(unchanged.join(QStringLiteral(", "))));
    m_plot->setVisible(!x.isEmpty());
    m_plot->refresh();
}

} // namespace ts::ui
