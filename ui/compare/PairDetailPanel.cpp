#include "compare/PairDetailPanel.h"

#include "base/Format.h"
#include "common/DisplayText.h"
#include "compare/CompareTableModel.h"
#include "compare/DiffHeatmapPlot.h"
#include "compare/DiffHistogramPlot.h"
#include "diff/CheckpointDiff.h"
#include "diff/FlatIndex.h"
#include "diff/LowRankEstimator.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace ts::ui {
namespace {

using namespace ts::diff;

QString num(double v)
{
    return QString::number(v, 'g', 4);
}

QString cosineText(double c)
{
    if (std::isnan(c))
        return QObject::tr("undefined (a side is all zero)");
    const int digits =
        std::clamp(static_cast<int>(std::ceil(-std::log10(1 - std::fabs(c) + 1e-300))) + 2, 3, 12);
    return QString::number(c, 'f', digits);
}

QString row(const QString& label, const QString& value)
{
    return QStringLiteral("<tr><td style='padding-right:12px'>%1</td><td>%2</td></tr>")
        .arg(label.toHtmlEscaped(), value.toHtmlEscaped());
}

// A report with only the two checkpoints: what a worker needs to read a pair, without sharing the
// pairs the UI thread may write into.
DiffReport shellOf(const DiffReport& report)
{
    DiffReport shell;
    shell.a = report.a;
    shell.b = report.b;
    return shell;
}

} // namespace

PairDetailPanel::PairDetailPanel(QWidget* parent)
    : QWidget(parent), m_detailJob(this), m_rankJob(this), m_title(new QLabel(this)),
      m_verdict(new QLabel(this)), m_metrics(new QLabel(this)),
      m_rankButton(new QPushButton(tr("Estimate Rank"), this)), m_rank(new QLabel(this)),
      m_status(new QLabel(this)), m_values(new DiffHistogramPlot(tr("Values of A and B"), this)),
      m_diff(new DiffHistogramPlot(tr("B \u2212 A"), this)), m_heatmap(new DiffHeatmapPlot(this))
{
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true);
    m_verdict->setWordWrap(true);
    m_metrics->setTextFormat(Qt::RichText);
    m_metrics->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_rank->setWordWrap(true);
    m_rankButton->setToolTip(
        tr("The numerical rank of B \u2212 A by a randomized range finder: a merged LoRA is a "
           "low-rank update, a full fine-tune is not, noise has no structure. Reads both "
           "tensors a few more times."));
    m_diff->setLogCount(true); // changes are heavy-tailed: the few large ones stay visible
    auto* rankRow = new QHBoxLayout;
    rankRow->addWidget(m_rankButton);
    rankRow->addWidget(m_rank, 1);
    auto* histograms = new QHBoxLayout;
    histograms->addWidget(m_values, 1);
    histograms->addWidget(m_diff, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_verdict);
    layout->addWidget(m_metrics);
    layout->addLayout(rankRow);
    layout->addWidget(m_status);
    layout->addLayout(histograms, 2);
    layout->addWidget(m_heatmap, 3);
    m_layout = layout;
    connect(m_rankButton, &QPushButton::clicked, this, &PairDetailPanel::estimateRank);
    showPair(-1);
}

PairDetailPanel::~PairDetailPanel()
{
    cancelJobs();
}

void PairDetailPanel::setHeatmapShown(bool shown)
{
    // Without a heatmap (a vector, an identical pair) the histograms take its room.
    m_layout->setStretchFactor(m_heatmap, shown ? 3 : 0);
}

void PairDetailPanel::cancelJobs()
{
    m_detailJob.cancel();
    m_rankJob.cancel();
}

void PairDetailPanel::setReport(std::shared_ptr<DiffReport> report)
{
    m_report = std::move(report);
    showPair(-1);
}

void PairDetailPanel::showPair(int pair)
{
    cancelJobs(); // what a job of the previous pair still delivers is dropped
    m_pair = m_report && pair >= 0 && pair < static_cast<int>(m_report->pairs.size()) ? pair : -1;
    m_values->clearSeries();
    m_diff->clearSeries();
    m_status->clear();
    if (m_pair < 0) {
        m_title->setText(tr("Select a changed tensor to see how it changed."));
        m_verdict->clear();
        m_metrics->clear();
        m_rank->clear();
        m_rankButton->setEnabled(false);
        m_heatmap->clear(QString());
        setHeatmapShown(false);
        return;
    }
    showMetrics();
    showRank();
    startDetail();
}

void PairDetailPanel::showMetrics()
{
    const TensorPair& p = m_report->pairs[static_cast<std::size_t>(m_pair)];
    const TensorInfo& a = m_report->infoA(p);
    const TensorInfo& b = m_report->infoB(p);
    QString title = itemText(a.name);
    if (a.name != b.name)
        title += QStringLiteral(" \u2192 ") + itemText(b.name);
    m_title->setText(title);
    m_verdict->setText(toolTipText(p.note.isEmpty() ? p.verdict.text : p.note));
    QString html = QStringLiteral("<table>");
    html += row(tr("Dtype, shape"),
                a.dtype == b.dtype && a.shape == b.shape
                    ? QStringLiteral("%1 %2").arg(dtypeName(a.dtype), a.shapeString())
                    : QStringLiteral("A %1 %2, B %3 %4")
                          .arg(dtypeName(a.dtype), a.shapeString(), dtypeName(b.dtype), b.shapeString()));
    if (const ChangeMetrics* m = p.metrics ? &*p.metrics : nullptr) {
        if (m->maxAbsIndex)
            html +=
                row(tr("Max |B \u2212 A|"), tr("%1 at %2 (A %3, B %4)")
                                                .arg(num(m->maxAbsDiff), indexText(a.shape, *m->maxAbsIndex),
                                                     num(m->aAtMax), num(m->bAtMax)));
        html += row(tr("Mean |B \u2212 A|"), num(m->meanAbsDiff()));
        html += row(tr("Relative L2 \u2016"
                       "B \u2212 A\u2016 / \u2016"
                       "A\u2016"),
                    num(m->relativeL2()));
        html += row(tr("Cosine similarity"), cosineText(m->cosine()));
        html += row(tr("Values changed"), tr("%1 of %2 (%3%)")
                                              .arg(formatGrouped(m->changed), formatGrouped(m->elements))
                                              .arg(QString::number(100 * m->fractionChanged(), 'g', 3)));
        QStringList nonFinite;
        if (m->nanA + m->infA > 0)
            nonFinite << tr("A: %1 NaN, %2 Inf").arg(m->nanA).arg(m->infA);
        if (m->nanB + m->infB > 0)
            nonFinite << tr("B: %1 NaN, %2 Inf").arg(m->nanB).arg(m->infB);
        if (m->firstIntroduced)
            nonFinite << tr("%1 appeared, first at %2")
                             .arg(m->nonFiniteIntroduced)
                             .arg(indexText(a.shape, *m->firstIntroduced));
        if (m->firstRemoved)
            nonFinite << tr("%1 disappeared, first at %2")
                             .arg(m->nonFiniteRemoved)
                             .arg(indexText(a.shape, *m->firstRemoved));
        html += row(tr("NaN / Inf"), nonFinite.isEmpty() ? tr("none") : nonFinite.join(QStringLiteral("; ")));
    }
    html += QStringLiteral("</table>");
    m_metrics->setText(html);
}

void PairDetailPanel::showRank()
{
    const TensorPair& p = m_report->pairs[static_cast<std::size_t>(m_pair)];
    const std::optional<QString> unsupported = LowRankEstimator::unsupported(m_report->infoA(p));
    m_rankButton->setEnabled(p.metrics && p.status == PairStatus::Changed && !unsupported &&
                             !m_rankJob.isRunning());
    if (p.rank) {
        const RankEstimate& r = *p.rank;
        if (r.rank == 0)
            m_rank->setText(
                tr("Rank 0: no direction stands above the noise floor (its %1 strongest hold %2%).")
                    .arg(r.sketch)
                    .arg(QString::number(100 * r.capturedSketch, 'g', 3)));
        else
            m_rank->setText(tr("Rank %1%2 of %3 \u00d7 %4: the top %1 hold %5% of \u2016"
                               "B \u2212 A\u2016\u00b2; "
                               "the next singular value is %6\u00d7 smaller.")
                                .arg(r.rank)
                                .arg(r.lowerBound ? tr(" or more") : QString())
                                .arg(r.rows)
                                .arg(r.cols)
                                .arg(QString::number(100 * r.captured, 'g', 6))
                                .arg(QString::number(r.gap, 'g', 3)));
    } else if (unsupported) {
        m_rank->setText(*unsupported);
    } else if (!p.rankNote.isEmpty()) {
        m_rank->setText(p.rankNote);
    } else {
        m_rank->setText(p.metrics ? tr("Not estimated yet.") : QString());
    }
}

QString PairDetailPanel::metricsText() const
{
    return m_metrics->text();
}

QString PairDetailPanel::rankText() const
{
    return m_rank->text();
}

void PairDetailPanel::startDetail()
{
    const TensorPair p = m_report->pairs[static_cast<std::size_t>(m_pair)];
    if (!p.metrics) {
        m_heatmap->clear(p.status == PairStatus::Identical ? tr("Identical: nothing to draw.") : p.note);
        setHeatmapShown(false);
        return;
    }
    m_status->setText(tr("Reading both tensors\u2026"));
    const DiffReport shell = shellOf(*m_report);
    m_detailJob.start(
        [shell, p](const JobControl& control) {
            return PairDetailBuilder::build(shell, p, kBins, kMaxCells, control);
        },
        [this](Result<PairDetail> r) {
            if (!r) {
                m_status->setText(toolTipText(r.error().toString()));
                m_heatmap->clear(QString());
                setHeatmapShown(false);
                emit detailReady();
                return;
            }
            m_status->clear();
            m_values->setSeries(
                {{r->a, tr("A"), QColor(0x3b, 0x82, 0xf6)}, {r->b, tr("B"), QColor(0xf5, 0x9e, 0x0b)}});
            m_diff->setSeries({{r->diff, tr("B \u2212 A"), QColor(0xd9, 0x48, 0x1c)}});
            if (r->heatmap)
                m_heatmap->setGrid(std::move(*r->heatmap));
            else
                m_heatmap->clear(r->heatmapNote);
            setHeatmapShown(r->heatmap.has_value());
            emit detailReady();
        });
}

void PairDetailPanel::estimateRank()
{
    if (m_pair < 0 || m_rankJob.isRunning())
        return;
    const TensorPair p = m_report->pairs[static_cast<std::size_t>(m_pair)];
    m_rankButton->setEnabled(false);
    m_rank->setText(tr("Estimating the rank\u2026"));
    const int shown = m_pair;
    const DiffReport shell = shellOf(*m_report);
    m_rankJob.start(
        [shell, p](const JobControl& control) { return CheckpointDiff::estimateRank(shell, p, control); },
        [this, shown](Result<RankEstimate> r) {
            if (!r) {
                m_rank->setText(toolTipText(r.error().message));
                m_rankButton->setEnabled(true);
                emit rankFinished();
                return;
            }
            TensorPair& pair = m_report->pairs[static_cast<std::size_t>(shown)];
            pair.rank = std::move(*r);
            pair.verdict = classifyChange(*pair.metrics, m_report->infoA(pair).dtype,
                                          m_report->infoB(pair).dtype, pair.rank);
            showMetrics();
            showRank();
            emit rankEstimated(shown);
            emit rankFinished();
        });
}

} // namespace ts::ui
