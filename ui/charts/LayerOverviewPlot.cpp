#include "charts/LayerOverviewPlot.h"

#include "charts/DivergingGradient.h"
#include "charts/LayerPointText.h"

#include <QFontMetrics>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace ts::ui {
namespace {

bool isCount(SiblingStatistic s)
{
    return s == SiblingStatistic::NanCount || s == SiblingStatistic::InfCount;
}

} // namespace

LayerOverviewPlot::LayerOverviewPlot(QWidget* parent)
    : Plot(parent), m_map(new QCPColorMap(xAxis, yAxis)), m_scale(new QCPColorScale(this)),
      m_marks(addGraph())
{
    usePalette();
    Plot::styleAxis(m_scale->axis(), palette());
    xAxis->setLabel(tr("block"));
    yAxis->setRangeReversed(true); // the first family on top, as in a list
    yAxis->grid()->setVisible(false);
    xAxis->grid()->setVisible(false);
    plotLayout()->addElement(0, 1, m_scale);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(12);
    m_map->setColorScale(m_scale);
    // A block at its siblings' median is near white, above is red, below blue. No tensor in that
    // block, or nothing to compare it with: a grey apart from the white of z = 0.
    m_map->setGradient(divergingGradient(QColor(0xb0, 0xb0, 0xb0)));
    m_map->setInterpolate(false);
    m_map->setTightBoundary(false);
    m_map->setDataRange(QCPRange(-kClamp, kClamp));
    auto* margin = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margin);
    m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, margin);
    m_marks->setLineStyle(QCPGraph::lsNone);
    xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    setMouseTracking(true);
    connect(this, &QCustomPlot::mouseMove, this, &LayerOverviewPlot::onHover);
    connect(this, &QCustomPlot::mousePress, this, &LayerOverviewPlot::onPress);
    rebuild();
}

void LayerOverviewPlot::setTable(std::shared_ptr<const LayerScoreTable> table)
{
    m_table = std::move(table);
    rebuild();
}

void LayerOverviewPlot::setStatistic(SiblingStatistic statistic)
{
    m_statistic = statistic;
    rebuild();
}

int LayerOverviewPlot::rowCount() const
{
    return m_table ? static_cast<int>(m_table->families().size()) : 0;
}

int LayerOverviewPlot::columnCount() const
{
    return m_table ? static_cast<int>(m_table->blocks().size()) : 0;
}

int LayerOverviewPlot::columnOf(int block) const
{
    const std::vector<int>& blocks = m_table->blocks();
    const auto at = std::lower_bound(blocks.begin(), blocks.end(), block);
    return at != blocks.end() && *at == block ? static_cast<int>(at - blocks.begin()) : -1;
}

void LayerOverviewPlot::rebuild()
{
    const int rows = rowCount();
    const int columns = columnCount();
    m_memberAt.assign(static_cast<std::size_t>(rows),
                      std::vector<int>(static_cast<std::size_t>(columns), -1));
    QVector<double> markX, markY;
    // A one-row or one-column map still needs two cells for QCustomPlot to give it an extent: the
    // second stays NaN (grey) and lies outside the axis range.
    m_map->data()->setSize(std::max(columns, 2), std::max(rows, 2));
    m_map->data()->setRange(QCPRange(0, std::max(columns - 1, 1)), QCPRange(0, std::max(rows - 1, 1)));
    m_map->data()->fill(std::nan(""));
    m_tensorCells = m_comparedCells = 0;
    for (int f = 0; f < rows; ++f) {
        const LayerFamily& family = m_table->families()[static_cast<std::size_t>(f)];
        const std::vector<SiblingScore>& scores = m_table->scores(m_statistic, static_cast<std::size_t>(f));
        for (std::size_t m = 0; m < family.members.size(); ++m) {
            const int column = columnOf(family.members[m].block);
            int& slot = m_memberAt[static_cast<std::size_t>(f)][static_cast<std::size_t>(column)];
            if (slot >= 0)
                continue; // "layers.01" after "layers.1": the first keeps the cell
            slot = static_cast<int>(m);
            const SiblingScore& s = scores[m];
            double cell = std::nan("");
            if (isCount(m_statistic))
                cell = s.value > 0 ? kClamp : 0;
            else if (std::isfinite(s.z))
                cell = std::clamp(s.z, -kClamp, kClamp);
            m_map->data()->setCell(column, f, cell);
            ++m_tensorCells;
            m_comparedCells += std::isfinite(cell) ? 1 : 0;
            if (s.outlier || m_table->isLayerOutlier(static_cast<std::size_t>(f), m)) {
                markX << column;
                markY << f;
            }
        }
    }
    m_marks->setData(markX, markY, true);
    m_scale->axis()->setLabel(isCount(m_statistic)
                                  ? tr("red: has %1").arg(SiblingScores::name(m_statistic))
                                  : tr("robust z of %1 vs siblings").arg(SiblingScores::name(m_statistic)));
    xAxis->setRange(-0.5, std::max(columns, 1) - 0.5);
    yAxis->setRange(-0.5, std::max(rows, 1) - 0.5);
    // A row per family, each tall enough for its label, plus the block axis below.
    const QFontMetrics fm(yAxis->tickLabelFont());
    setMinimumHeight(std::max(120, rows * (fm.height() + 3) + 3 * fm.height() + 24));
    updateTicks();
    refresh();
}

void LayerOverviewPlot::updateTicks()
{
    const int rows = rowCount();
    const int columns = columnCount();
    const QFontMetrics fm(xAxis->tickLabelFont());
    // Columns: every k-th block number, as many as fit side by side with a two-character gap.
    auto xTicker = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker());
    xTicker->clear();
    if (columns > 0) {
        const int widest =
            fm.horizontalAdvance(QString::number(m_table->blocks().back())) + 2 * fm.averageCharWidth();
        const int span = axisRect()->width() > 0 ? axisRect()->width() : std::max(width() - 200, 100);
        const int step =
            std::max(1, static_cast<int>(std::ceil(double(columns) * widest / std::max(span, 1))));
        for (int c = 0; c < columns; c += step)
            xTicker->addTick(c, QString::number(m_table->blocks()[static_cast<std::size_t>(c)]));
    }
    // Rows: every family's pattern, elided in the middle (the block number sits in the middle of
    // the short ones, and the end says which tensor).
    auto yTicker = qSharedPointerCast<QCPAxisTickerText>(yAxis->ticker());
    yTicker->clear();
    const int tall = axisRect()->height() > 0 ? axisRect()->height() : rows * (fm.height() + 3);
    const int step = std::max(1, static_cast<int>(std::ceil(double(rows) * fm.height() / std::max(tall, 1))));
    for (int r = 0; r < rows; r += step)
        yTicker->addTick(r, fm.elidedText(m_table->families()[static_cast<std::size_t>(r)].pattern,
                                          Qt::ElideMiddle, fm.averageCharWidth() * 44));
    const double side = std::max(8.0, std::min(xAxis->coordToPixel(1) - xAxis->coordToPixel(0),
                                               std::fabs(yAxis->coordToPixel(1) - yAxis->coordToPixel(0))));
    m_marks->setScatterStyle(QCPScatterStyle(
        QCPScatterStyle::ssSquare, QPen(palette().color(QPalette::WindowText), 2), Qt::NoBrush, side));
}

void LayerOverviewPlot::resizeEvent(QResizeEvent* event)
{
    Plot::resizeEvent(event);
    // The axis rect has its new size only after a layout pass.
    plotLayout()->update(QCPLayoutElement::upLayout);
    updateTicks();
    refresh();
}

std::optional<QPoint> LayerOverviewPlot::cellCentre(std::size_t family, int block) const
{
    if (!m_table || family >= m_table->families().size())
        return std::nullopt;
    const int column = columnOf(block);
    if (column < 0)
        return std::nullopt;
    return QPoint(static_cast<int>(std::lround(xAxis->coordToPixel(column))),
                  static_cast<int>(std::lround(yAxis->coordToPixel(static_cast<double>(family)))));
}

QString LayerOverviewPlot::cellText(std::size_t family, int block) const
{
    if (!m_table || family >= m_table->families().size())
        return {};
    const int column = columnOf(block);
    if (column < 0)
        return {};
    const int member = m_memberAt[family][static_cast<std::size_t>(column)];
    if (member < 0)
        return {};
    const auto m = static_cast<std::size_t>(member);
    const LayerMember& lm = m_table->families()[family].members[m];
    return layerPointText(m_table->name(lm.tensor), lm.block, m_statistic,
                          m_table->scores(m_statistic, family)[m], m_table->isLayerOutlier(family, m));
}

int LayerOverviewPlot::markedCount() const
{
    return m_marks->data()->size();
}

std::optional<LayerOverviewPlot::Hit> LayerOverviewPlot::hitAt(const QPoint& pixel) const
{
    if (!m_table || !axisRect()->rect().contains(pixel))
        return std::nullopt;
    const long column = std::lround(xAxis->pixelToCoord(pixel.x()));
    const long row = std::lround(yAxis->pixelToCoord(pixel.y()));
    if (row < 0 || row >= rowCount() || column < 0 || column >= columnCount())
        return std::nullopt;
    const int member = m_memberAt[static_cast<std::size_t>(row)][static_cast<std::size_t>(column)];
    if (member < 0)
        return std::nullopt;
    return Hit{static_cast<std::size_t>(row), static_cast<std::size_t>(member)};
}

void LayerOverviewPlot::onHover(QMouseEvent* event)
{
    const std::optional<Hit> hit = hitAt(event->pos());
    if (!hit) {
        QToolTip::hideText();
        return;
    }
    const LayerMember& lm = m_table->families()[hit->family].members[hit->member];
    QToolTip::showText(event->globalPosition().toPoint(), cellText(hit->family, lm.block), this);
}

void LayerOverviewPlot::onPress(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    if (const std::optional<Hit> hit = hitAt(event->pos()))
        emit tensorActivated(m_table->name(m_table->families()[hit->family].members[hit->member].tensor));
}

} // namespace ts::ui
