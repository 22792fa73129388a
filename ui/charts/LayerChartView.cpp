#include "charts/LayerChartView.h"

#include "charts/LayerOverviewPlot.h"
#include "charts/LayerPointText.h"
#include "charts/Plot.h"

#include "charts/QCustomPlotInclude.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QTabWidget>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace ts::ui {
namespace {

constexpr int kPatternRole = Qt::UserRole;
constexpr int kFamilyRole = Qt::UserRole + 1;
// How near (px) the pointer must be to a point for its tooltip or click.
constexpr double kPickRadius = 12;

} // namespace

LayerChartView::LayerChartView(QWidget* parent)
    : QWidget(parent), m_family(new QComboBox(this)), m_statistic(new QComboBox(this)),
      m_empty(new QLabel(this)), m_caption(new QLabel(this)), m_views(new QTabWidget(this)),
      m_overview(new LayerOverviewPlot(this)), m_plot(new Plot(this))
{
    m_statistic->addItem(tr("Std"), static_cast<int>(Statistic::Std));
    m_statistic->addItem(tr("Abs max"), static_cast<int>(Statistic::AbsMax));
    m_statistic->addItem(tr("L2 norm"), static_cast<int>(Statistic::L2));
    m_statistic->addItem(tr("Mean"), static_cast<int>(Statistic::Mean));
    m_statistic->addItem(tr("NaN count"), static_cast<int>(Statistic::NanCount));
    m_statistic->addItem(tr("Inf count"), static_cast<int>(Statistic::InfCount));
    m_statistic->setToolTip(tr("The statistic compared across blocks, in the overview and the family chart"));
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Per-layer:"), this));
    controls->addWidget(m_statistic);
    // The overview's caption sits beside the statistic, in the row's spare width, so the grid
    // keeps its height.
    m_caption->setWordWrap(true);
    controls->addSpacing(12);
    controls->addWidget(m_caption, 1);

    // Overview: as tall as its families need, scrolled when there are many.
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_overview);
    m_views->addTab(scroll, tr("Overview"));

    auto* familyPage = new QWidget(this);
    m_family->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_family->setMinimumContentsLength(24);
    m_plot->setMinimumHeight(200);
    m_plot->usePalette();
    m_plot->xAxis->setLabel(tr("block"));
    const QColor line(0x3b, 0x82, 0xf6);
    QCPGraph* graph = m_plot->addGraph();
    graph->setPen(QPen(line, 2));
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, line, Qt::white, 8));
    // The same red as the overview's far end; filled and larger, so a marked block reads at a glance.
    QCPGraph* marks = m_plot->addGraph();
    marks->setLineStyle(QCPGraph::lsNone);
    marks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(0xb4, 0x04, 0x26), 2),
                                           QColor(0xb4, 0x04, 0x26), 12));
    // Block numbers are integers: no tick at 1.5.
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_plot->xAxis->setTicker(ticker);
    m_plot->setMouseTracking(true);
    auto* familyLayout = new QVBoxLayout(familyPage);
    familyLayout->setContentsMargins(0, 0, 0, 0);
    familyLayout->addWidget(m_family);
    familyLayout->addWidget(m_plot, 1);
    m_views->addTab(familyPage, tr("One family"));

    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(m_views, 1);
    layout->addWidget(m_empty, 1);
    connect(m_family, &QComboBox::currentIndexChanged, this, &LayerChartView::replot);
    connect(m_statistic, &QComboBox::currentIndexChanged, this, [this] {
        m_overview->setStatistic(statistic());
        updateCaption();
        replot();
    });
    // The caption speaks of the overview's colours only.
    connect(m_views, &QTabWidget::currentChanged, this, [this](int tab) { m_caption->setVisible(tab == 0); });
    connect(m_plot, &QCustomPlot::mouseMove, this, &LayerChartView::onHover);
    connect(m_plot, &QCustomPlot::mousePress, this, &LayerChartView::onPress);
    // A cell of the overview opens its tensor, and its family is the one charted next.
    connect(m_overview, &LayerOverviewPlot::tensorActivated, this, [this](const QString& name) {
        for (const LayerFamily& f : m_table->families()) {
            for (const LayerMember& m : f.members) {
                if (m_table->name(m.tensor) == name) {
                    setFamily(f.pattern);
                    break;
                }
            }
        }
        emit tensorActivated(name);
    });
    clear();
}

void LayerChartView::clear(const QString& note)
{
    setData({}, {}, {});
    if (!note.isEmpty())
        m_empty->setText(note);
}

void LayerChartView::setData(const std::vector<QString>& names, const std::vector<TensorStats>& stats,
                             const std::vector<const TensorInfo*>& infos)
{
    m_empty->setText(tr("No repeated numbered blocks (such as layers.N.) in this model, or no scan yet."));
    m_table = std::make_shared<const LayerScoreTable>(names, stats, infos);
    const std::vector<LayerFamily>& families = m_table->families();
    // The family list: largest families first (the deepest repetition is where a stray layer is
    // easiest to see), among equals the biggest tensors (main weights before biases).
    auto elements = [&](const LayerFamily& f) {
        const auto t = static_cast<std::size_t>(f.members.front().tensor);
        return t < stats.size() ? stats[t].elements : 0;
    };
    std::vector<std::size_t> order(families.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (families[a].members.size() != families[b].members.size())
            return families[a].members.size() > families[b].members.size();
        return elements(families[a]) > elements(families[b]);
    });
    // Start on a family with a LayerOutlier, else on the one whose blocks differ most (largest std
    // over smallest): the block that stands out is what this chart is for.
    std::optional<std::size_t> best;
    double bestScore = -1;
    for (std::size_t f : order) {
        const LayerFamily& family = families[f];
        bool flagged = false;
        double lo = std::numeric_limits<double>::infinity(), hi = 0;
        for (std::size_t m = 0; m < family.members.size(); ++m) {
            flagged = flagged || m_table->isLayerOutlier(f, m);
            const auto t = static_cast<std::size_t>(family.members[m].tensor);
            const double sd = t < stats.size() ? stats[t].values.std : 0;
            if (std::isfinite(sd)) {
                lo = std::min(lo, sd);
                hi = std::max(hi, sd);
            }
        }
        const double score =
            flagged ? std::numeric_limits<double>::infinity() : (hi > 0 ? hi / std::max(lo, 1e-12) : 0);
        if (score > bestScore) {
            best = f;
            bestScore = score;
        }
    }
    const QSignalBlocker blocker(m_family);
    m_family->clear();
    for (std::size_t f : order) {
        m_family->addItem(tr("%1 (%2 blocks)").arg(families[f].pattern).arg(families[f].members.size()));
        m_family->setItemData(m_family->count() - 1, families[f].pattern, kPatternRole);
        m_family->setItemData(m_family->count() - 1, static_cast<int>(f), kFamilyRole);
    }
    m_family->setEnabled(!families.empty());
    m_family->setCurrentIndex(best ? m_family->findData(static_cast<int>(*best), kFamilyRole) : -1);
    m_overview->setTable(m_table);
    updateCaption();
    m_views->setVisible(!families.empty());
    m_empty->setVisible(families.empty());
    m_caption->setVisible(!families.empty() && m_views->currentIndex() == 0);
    replot();
}

QString LayerChartView::overviewCaption() const
{
    return m_caption->text();
}

// A grid that is all grey looks broken (the small models Tensorscope ships as samples have blocks
// that differ in shape, so nothing is compared): the caption says so, where only the tooltips did.
void LayerChartView::updateCaption()
{
    const SiblingStatistic s = statistic();
    const QString name = SiblingScores::name(s);
    const int cells = m_overview->tensorCellCount();
    const int compared = m_overview->comparedCellCount();
    QString text;
    if (s == SiblingStatistic::NanCount || s == SiblingStatistic::InfCount) {
        text = tr("Red: the block's tensor has %1 values; white: it has none. Grey: no such tensor in that "
                  "block.")
                   .arg(s == SiblingStatistic::NanCount ? QStringLiteral("NaN") : QStringLiteral("Inf"));
    } else if (compared == 0) {
        text = tr("Nothing to compare: no tensor here repeats in %1 or more blocks with the same shape and "
                  "dtype and at least %2 values, so every cell is grey. Hover a cell for its %3, or chart a "
                  "family block by block under One family.")
                   .arg(SiblingScores::kMinShownGroup)
                   .arg(SiblingScores::kMinElements)
                   .arg(name);
    } else {
        text =
            tr("Each cell: a block's %1 against the same tensor in the other blocks, white at their median, "
               "red above, blue below; a square marks an outlier the scan lists.")
                .arg(name);
        if (compared < cells)
            text += QLatin1Char(' ') +
                    tr("Grey: no such tensor in that block, or one not compared, being in fewer "
                       "than %1 blocks with the same shape and dtype and at least %2 values (%3 "
                       "of the %4 tensors).")
                        .arg(SiblingScores::kMinShownGroup)
                        .arg(SiblingScores::kMinElements)
                        .arg(cells - compared)
                        .arg(cells);
        else if (cells < m_overview->rowCount() * m_overview->columnCount())
            text += QLatin1Char(' ') + tr("Grey: no such tensor in that block.");
    }
    m_caption->setText(text);
}

int LayerChartView::familyCount() const
{
    return m_table ? static_cast<int>(m_table->families().size()) : 0;
}

void LayerChartView::setFamily(int index)
{
    m_family->setCurrentIndex(index);
}

void LayerChartView::setFamily(const QString& pattern)
{
    const int i = m_family->findData(pattern, kPatternRole);
    if (i >= 0)
        m_family->setCurrentIndex(i);
}

void LayerChartView::setStatistic(Statistic statistic)
{
    m_statistic->setCurrentIndex(m_statistic->findData(static_cast<int>(statistic)));
}

void LayerChartView::showOverview()
{
    m_views->setCurrentIndex(0);
}

void LayerChartView::showFamily()
{
    m_views->setCurrentIndex(1);
}

int LayerChartView::pointCount() const
{
    return m_plot->graph(0)->data()->size();
}

int LayerChartView::markedPointCount() const
{
    return m_plot->graph(1)->data()->size();
}

QString LayerChartView::currentPattern() const
{
    return m_family->currentData(kPatternRole).toString();
}

std::size_t LayerChartView::currentFamily() const
{
    return static_cast<std::size_t>(m_family->currentData(kFamilyRole).toInt());
}

SiblingStatistic LayerChartView::statistic() const
{
    return static_cast<SiblingStatistic>(m_statistic->currentData().toInt());
}

void LayerChartView::replot()
{
    m_points.clear();
    QVector<double> x, y, markX, markY;
    if (m_family->currentIndex() >= 0 && familyCount() > 0) {
        const std::size_t f = currentFamily();
        const LayerFamily& family = m_table->families()[f];
        const std::vector<SiblingScore>& scores = m_table->scores(statistic(), f);
        for (std::size_t m = 0; m < family.members.size(); ++m) {
            const double value = scores[m].value;
            if (!std::isfinite(value))
                continue;
            const double block = family.members[m].block;
            m_points.push_back({m, block, value});
            x << block;
            y << value;
            if (scores[m].outlier || m_table->isLayerOutlier(f, m)) {
                markX << block;
                markY << value;
            }
        }
    }
    m_plot->graph(0)->setData(x, y, true);
    m_plot->graph(1)->setData(markX, markY, true);
    m_plot->yAxis->setLabel(m_statistic->currentText());
    m_plot->rescaleAxes();
    // Margins so the first and last points are not cut in half by the axis frame.
    const QCPRange xr = m_plot->xAxis->range();
    m_plot->xAxis->setRange(xr.lower - 0.5, xr.upper + 0.5);
    const QCPRange yr = m_plot->yAxis->range();
    const double pad = yr.size() > 0 ? yr.size() * 0.1 : std::max(std::abs(yr.lower) * 0.1, 1e-6);
    m_plot->yAxis->setRange(yr.lower - pad, yr.upper + pad);
    m_plot->refresh();
}

std::optional<QPoint> LayerChartView::pointPixel(int block) const
{
    for (const Point& p : m_points) {
        if (p.x == block)
            return QPoint(static_cast<int>(std::lround(m_plot->xAxis->coordToPixel(p.x))),
                          static_cast<int>(std::lround(m_plot->yAxis->coordToPixel(p.y))));
    }
    return std::nullopt;
}

std::optional<LayerChartView::Point> LayerChartView::pointAt(const QPoint& pixel) const
{
    std::optional<Point> nearest;
    double best = kPickRadius;
    for (const Point& p : m_points) {
        const double dx = m_plot->xAxis->coordToPixel(p.x) - pixel.x();
        const double dy = m_plot->yAxis->coordToPixel(p.y) - pixel.y();
        const double d = std::hypot(dx, dy);
        if (d <= best) {
            best = d;
            nearest = p;
        }
    }
    return nearest;
}

void LayerChartView::onHover(QMouseEvent* event)
{
    const std::optional<Point> p = pointAt(event->pos());
    if (!p) {
        QToolTip::hideText();
        return;
    }
    const std::size_t f = currentFamily();
    const LayerMember& m = m_table->families()[f].members[p->member];
    QToolTip::showText(event->globalPosition().toPoint(),
                       layerPointText(m_table->name(m.tensor), m.block, statistic(),
                                      m_table->scores(statistic(), f)[p->member],
                                      m_table->isLayerOutlier(f, p->member)),
                       m_plot);
}

void LayerChartView::onPress(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    if (const std::optional<Point> p = pointAt(event->pos()))
        emit tensorActivated(m_table->name(m_table->families()[currentFamily()].members[p->member].tensor));
}

} // namespace ts::ui
