#include "compare/CompareView.h"

#include "base/Format.h"
#include "common/CountText.h"
#include "common/DisplayText.h"
#include "compare/CompareFilterProxy.h"
#include "compare/CompareJob.h"
#include "compare/CompareLayerChart.h"
#include "compare/CompareTableModel.h"
#include "compare/MetadataDiffModel.h"
#include "compare/PairDetailPanel.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace ts::ui {
namespace {

using namespace ts::diff;

QString phaseText(DiffPhase phase)
{
    switch (phase) {
    case DiffPhase::Identical:
        return QObject::tr("Finding identical tensors");
    case DiffPhase::Values:
        return QObject::tr("Comparing values");
    case DiffPhase::Rank:
        return QObject::tr("Estimating ranks");
    }
    return {};
}

QString kindPhrase(ChangeKind kind, int n)
{
    switch (kind) {
    case ChangeKind::SameValues:
        return QObject::tr("%1 with the same values").arg(n);
    case ChangeKind::Rounding:
        return QObject::tr("%1 rounded").arg(n);
    case ChangeKind::Scaled:
        return QObject::tr("%1 scaled").arg(n);
    case ChangeKind::Sparse:
        // Whole phrases, not an English "s" glued on: a translation cannot inflect a suffix.
        return n == 1 ? QObject::tr("1 sparse edit") : QObject::tr("%1 sparse edits").arg(n);
    case ChangeKind::LowRank:
        return QObject::tr("%1 low-rank").arg(n);
    case ChangeKind::NoiseLike:
        return QObject::tr("%1 noise-like").arg(n);
    case ChangeKind::FullRank:
        return QObject::tr("%1 full-rank").arg(n);
    case ChangeKind::Dense:
        return QObject::tr("%1 dense").arg(n);
    default:
        return QObject::tr("%1 %2").arg(n).arg(changeKindName(kind));
    }
}

} // namespace

CompareView::CompareView(QWidget* parent)
    : QWidget(parent), m_job(new CompareJob(this)), m_heading(new QLabel(this)),
      m_progress(new QProgressBar(this)), m_status(new QLabel(this)),
      m_cancel(new QPushButton(tr("Cancel"), this)), m_summary(new QLabel(this)),
      m_pages(new QTabWidget(this)), m_filter(new QLineEdit(this)), m_filterDelay(new QTimer(this)),
      m_showIdentical(new QCheckBox(tr("Show identical"), this)), m_table(new CompareTableModel(this)),
      m_proxy(new CompareFilterProxy(this)), m_view(new QTableView(this)),
      m_detail(new PairDetailPanel(this)), m_layers(new CompareLayerChart(this)),
      m_metadata(new MetadataDiffModel(this))
{
    m_heading->setTextFormat(Qt::PlainText);
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(260);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_heading, 1);
    bar->addWidget(m_status);
    bar->addWidget(m_progress);
    bar->addWidget(m_cancel);

    m_filter->setPlaceholderText(tr("Filter by name"));
    m_filter->setClearButtonEnabled(true);
    m_filterDelay->setSingleShot(true);
    m_filterDelay->setInterval(250); // typing a name filters once, not on every key
    m_proxy->setSourceModel(m_table);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(CompareTableModel::RelativeL2Column, Qt::DescendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(m_showIdentical);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addLayout(filterRow);
    leftLayout->addWidget(m_view, 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("compareSplitter"));
    split->addWidget(left);
    split->addWidget(m_detail);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    m_pages->addTab(split, tr("Changes"));
    m_pages->addTab(m_layers, tr("Layers"));
    auto* metadataView = new QTableView(this);
    metadataView->setModel(m_metadata);
    metadataView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    metadataView->verticalHeader()->hide();
    // A and B share the width: a long value on one side must not hide the other.
    metadataView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    metadataView->horizontalHeader()->setSectionResizeMode(MetadataDiffModel::AColumn, QHeaderView::Stretch);
    metadataView->horizontalHeader()->setSectionResizeMode(MetadataDiffModel::BColumn, QHeaderView::Stretch);
    metadataView->setWordWrap(false);
    m_pages->addTab(metadataView, tr("Metadata"));

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_summary);
    layout->addWidget(m_pages, 1);

    connect(m_job, &CompareJob::progress, this, &CompareView::onProgress);
    connect(m_job, &CompareJob::finished, this, &CompareView::onFinished);
    connect(m_job, &CompareJob::failed, this, &CompareView::onFailed);
    connect(m_cancel, &QPushButton::clicked, this, &CompareView::cancel);
    connect(m_filter, &QLineEdit::textChanged, m_filterDelay, qOverload<>(&QTimer::start));
    connect(m_filterDelay, &QTimer::timeout, this, [this] { m_proxy->setNameFilter(m_filter->text()); });
    connect(m_showIdentical, &QCheckBox::toggled, m_proxy, &CompareFilterProxy::setShowIdentical);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                m_detail->showPair(current.isValid() ? current.data(CompareTableModel::PairRole).toInt()
                                                     : -1);
            });
    connect(m_detail, &PairDetailPanel::rankEstimated, m_table, &CompareTableModel::pairChanged);
    connect(m_layers, &CompareLayerChart::pairActivated, this, [this](int pair) {
        m_pages->setCurrentIndex(0);
        selectRow(m_table->rowOfPair(pair));
    });
    setRunning(false);
}

CompareView::~CompareView() = default;

QString CompareView::title() const
{
    return QStringLiteral("%1 \u2194 %2").arg(QFileInfo(m_a).fileName(), QFileInfo(m_b).fileName());
}

QString CompareView::toolTip() const
{
    return tr("A: %1\nB: %2").arg(m_a, m_b);
}

QString CompareView::summaryText() const
{
    return m_summary->text();
}

QString CompareView::statusText() const
{
    return m_status->text();
}

bool CompareView::isRunning() const
{
    return m_job->isRunning();
}

void CompareView::setRunning(bool running)
{
    m_cancel->setVisible(running);
    m_progress->setVisible(running);
}

void CompareView::start(const QString& a, const QString& b, DiffOptions options)
{
    m_a = a;
    m_b = b;
    m_heading->setText(tr("A: %1    B: %2").arg(QFileInfo(a).fileName(), QFileInfo(b).fileName()));
    m_heading->setToolTip(toolTip());
    m_report.reset();
    m_table->clear();
    m_detail->setReport(nullptr);
    m_layers->clear();
    m_metadata->setChanges({});
    m_summary->clear();
    m_progress->setValue(0);
    m_status->setText(tr("Opening\u2026"));
    setRunning(true);
    m_job->start(a, b, std::move(options));
}

void CompareView::cancel()
{
    if (!m_job->isRunning())
        return;
    m_job->cancel();
    setRunning(false);
    m_status->setText(tr("Cancelled."));
    m_summary->setText(tr("The comparison was cancelled; nothing is shown."));
    emit finished(false);
}

void CompareView::onProgress(const DiffProgress& p)
{
    m_progress->setValue(p.bytesTotal ? static_cast<int>(1000.0 * static_cast<double>(p.bytesDone) /
                                                         static_cast<double>(p.bytesTotal))
                                      : 0);
    m_status->setText(
        tr("%1: %2 of %3").arg(phaseText(p.phase), formatBytes(p.bytesDone), formatBytes(p.bytesTotal)));
}

void CompareView::onFailed(const Error& error)
{
    setRunning(false);
    m_status->setText(tr("Failed."));
    m_summary->setText(tr("The comparison stopped: %1").arg(toolTipText(error.toString())));
    emit finished(false);
}

void CompareView::onFinished(std::shared_ptr<DiffReport> report)
{
    m_report = std::move(report);
    setRunning(false);
    const DiffReport::Counts c = m_report->counts();
    QStringList kinds;
    for (int k = 0; k < static_cast<int>(std::size(c.byKind)); ++k) {
        if (c.byKind[k] > 0)
            kinds << kindPhrase(static_cast<ChangeKind>(k), c.byKind[k]);
    }
    QString text;
    if (m_report->identical()) {
        text = tr("Identical: %1 with the same bytes and the same metadata.")
                   .arg(CountText::tensors(m_report->pairs.size()));
    } else {
        text = tr("%1: %2 identical, %3 changed%4")
                   .arg(CountText::pairs(m_report->pairs.size()))
                   .arg(c.identical)
                   .arg(c.changed)
                   .arg(kinds.isEmpty()
                            ? QString()
                            : QStringLiteral(" (") + kinds.join(QStringLiteral(", ")) + QLatin1Char(')'));
        if (c.notCompared > 0)
            text += tr(", %1 not compared").arg(c.notCompared);
        QStringList more;
        if (c.renamed + c.suggested > 0)
            more << tr("%1 renamed (%2 suggested)").arg(c.renamed + c.suggested).arg(c.suggested);
        if (c.dtypeChanged > 0)
            more << tr("%1 in another dtype").arg(c.dtypeChanged);
        if (c.reshaped > 0)
            more << tr("%1 reshaped").arg(c.reshaped);
        if (c.added + c.removed > 0)
            more << tr("%1 only in B, %2 only in A").arg(c.added).arg(c.removed);
        if (c.metadata > 0)
            more << (c.metadata == 1 ? tr("1 metadata key differs")
                                     : tr("%1 metadata keys differ").arg(c.metadata));
        text += QStringLiteral(". ") +
                (more.isEmpty() ? QString() : more.join(QStringLiteral("; ")) + QLatin1Char('.'));
    }
    for (const QString& note : m_report->notes)
        text += QLatin1Char(' ') + note + QLatin1Char('.');
    m_summary->setText(text);
    m_status->setText(
        tr("Read %1 in %2 s.").arg(formatBytes(m_report->bytesRead)).arg(m_report->seconds, 0, 'f', 2));
    m_table->setReport(m_report);
    m_detail->setReport(m_report);
    m_layers->setReport(*m_report);
    m_metadata->setChanges(m_report->metadata);
    m_pages->setTabText(0, tr("Changes (%1)").arg(c.changed + c.notCompared + c.added + c.removed));
    m_pages->setTabText(2, tr("Metadata (%1)").arg(c.metadata));
    // Identical pairs are hidden; when nothing else is left, show them rather than an empty table.
    if (c.changed + c.notCompared + c.added + c.removed == 0)
        m_showIdentical->setChecked(true);
    m_view->resizeColumnsToContents();
    m_view->setColumnWidth(CompareTableModel::TensorColumn,
                           std::min(m_view->columnWidth(CompareTableModel::TensorColumn), 320));
    if (m_proxy->rowCount() > 0)
        m_view->setCurrentIndex(m_proxy->index(0, 0)); // the most changed tensor first
    emit finished(true);
}

void CompareView::selectRow(int sourceRow)
{
    if (sourceRow < 0)
        return;
    QModelIndex index = m_proxy->mapFromSource(m_table->index(sourceRow, 0));
    if (!index.isValid()) { // hidden: an identical pair, or filtered out
        m_filter->clear();
        m_proxy->setNameFilter(QString());
        m_showIdentical->setChecked(true);
        index = m_proxy->mapFromSource(m_table->index(sourceRow, 0));
    }
    if (!index.isValid())
        return;
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index);
}

bool CompareView::selectTensor(const QString& name)
{
    for (int row = 0; row < m_table->rowCount(); ++row) {
        if (m_table->index(row, 0).data(CompareTableModel::TensorNameRole).toString() == name) {
            selectRow(row);
            return true;
        }
    }
    return false;
}

} // namespace ts::ui
