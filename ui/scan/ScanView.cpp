#include "scan/ScanView.h"

#include "analysis/ScanJson.h"
#include "base/Format.h"
#include "charts/LayerChartView.h"
#include "common/CountText.h"
#include "common/DisplayText.h"
#include "common/NaturalSortProxy.h"
#include "common/TableExport.h"
#include "scan/ScanTableModel.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace ts::ui {
namespace {

QString eta(double seconds)
{
    if (seconds < 0)
        return QStringLiteral("\u2026");
    if (seconds < 60)
        return QObject::tr("%1 s").arg(std::ceil(seconds));
    return QObject::tr("%1 min %2 s").arg(static_cast<int>(seconds) / 60).arg(static_cast<int>(seconds) % 60);
}

} // namespace

ScanView::ScanView(QWidget* parent)
    : QWidget(parent), m_start(new QPushButton(tr("Scan Model"), this)),
      m_nanInf(new QPushButton(tr("Check NaN/Inf"), this)), m_cancel(new QPushButton(tr("Cancel"), this)),
      m_export(new QPushButton(tr("Export"), this)), m_progress(new QProgressBar(this)),
      m_status(new QLabel(this)), m_table(new ScanTableModel(this)), m_proxy(new NaturalSortProxy(this)),
      m_view(new QTableView(this)), m_layers(new LayerChartView(this))
{
    m_view->setObjectName(QStringLiteral("results"));
    m_start->setObjectName(QStringLiteral("scan"));
    m_nanInf->setObjectName(QStringLiteral("checkNanInf"));
    m_cancel->setObjectName(QStringLiteral("cancel"));
    m_export->setObjectName(QStringLiteral("export"));
    m_export->setToolTip(
        tr("Save the table as CSV, or the whole scan as the JSON of tensorscope-cli scan --json."));
    m_export->setEnabled(false);
    auto* exportMenu = new QMenu(m_export);
    exportMenu->addAction(tr("Table as CSV\u2026"), this, [this] {
        TableExport::saveAs(this, tr("Export Scan Table"), suggestedName(QStringLiteral(".scan.csv")),
                            tr("CSV files (*.csv)"), resultsCsv());
    });
    exportMenu->addAction(tr("Scan as JSON\u2026"), this, [this] {
        TableExport::saveAs(this, tr("Export Scan"), suggestedName(QStringLiteral(".scan.json")),
                            tr("JSON files (*.json)"), resultsJson());
    });
    m_export->setMenu(exportMenu);
    m_start->setToolTip(
        tr("Read every tensor and compute its statistics; findings join the summary's audit list."));
    m_nanInf->setToolTip(
        tr("Only look for NaN and Inf values: reads the model at memory speed and computes no "
           "statistics (Scan Model computes them)."));
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(true);
    m_progress->setMinimumWidth(220);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_start);
    bar->addWidget(m_nanInf);
    bar->addWidget(m_cancel);
    bar->addWidget(m_export);
    bar->addWidget(m_progress, 1);
    bar->addWidget(m_status, 2);

    m_proxy->setSourceModel(m_table);
    m_proxy->setSortRole(ScanTableModel::SortRole);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ScanTableModel::TensorColumn, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setAlternatingRowColors(true);
    m_view->setToolTip(tr("Double-click a row to show the tensor."));

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("scanSplitter")); // its key in WindowMemory: keep it stable
    splitter->addWidget(m_view);
    splitter->addWidget(m_layers);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(splitter, 1);

    connect(m_start, &QPushButton::clicked, this, [this] { startScan(Check::Full); });
    connect(m_nanInf, &QPushButton::clicked, this, [this] { startScan(Check::NanInfOnly); });
    connect(m_cancel, &QPushButton::clicked, this, &ScanView::cancelScan);
    connect(m_layers, &LayerChartView::tensorActivated, this, &ScanView::tensorActivated);
    connect(m_view, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        emit tensorActivated(index.data(ScanTableModel::TensorNameRole).toString());
    });
    updateButtons();
    m_status->setText(tr("Not scanned yet."));
}

void ScanView::setModel(std::shared_ptr<const Checkpoint> model)
{
    m_job.cancel(); // the model it read is gone: nothing of it is shown
    updateButtons();
    m_model = std::move(model);
    clearResults();
    m_status->setText(tr("Not scanned yet."));
    m_start->setEnabled(m_model != nullptr);
    m_nanInf->setEnabled(m_model != nullptr);
}

void ScanView::keepResultsFor(std::shared_ptr<const Checkpoint> model)
{
    m_job.cancel();
    m_model = std::move(model);
    updateButtons();
}

void ScanView::republish()
{
    if (!m_results)
        return;
    const ScanResult& r = *m_results->result;
    if (r.complete)
        emit findingsReady(r.findings, m_results->check);
    else
        emit partialFindingsReady(r.findings, m_results->check, static_cast<qsizetype>(r.tensors.size()),
                                  static_cast<qsizetype>(r.planned));
}

void ScanView::clearResults()
{
    m_results.reset();
    m_export->setEnabled(false);
    m_table->clear();
    m_layers->clear();
    m_progress->setValue(0);
}

void ScanView::updateButtons()
{
    const bool running = isRunning();
    m_start->setEnabled(!running && m_model);
    m_nanInf->setEnabled(!running && m_model);
    m_cancel->setEnabled(running);
}

QString ScanView::suggestedName(const QString& suffix) const
{
    if (!m_model)
        return suffix.mid(1);
    return QFileInfo(m_model->path()).completeBaseName() + suffix;
}

QByteArray ScanView::resultsCsv() const
{
    return m_results ? TableExport::csv(*m_proxy) : QByteArray();
}

QByteArray ScanView::resultsJson() const
{
    if (!m_results || !m_model)
        return {};
    return scanResultJson(*m_model, *m_results->result, m_results->check == Check::NanInfOnly);
}

QString ScanView::statusText() const
{
    return m_status->text();
}

void ScanView::startScan(Check check)
{
    if (!m_model)
        return;
    m_check = check;
    ScanOptions options;
    options.nanInfOnly = check == Check::NanInfOnly;
    // Free for dtypes of 16 bits or fewer; F32 and wider models are read a second time for them.
    options.quantiles = !options.nanInfOnly;
    // A cancel shows what was finished rather than nothing.
    options.partialOnCancel = true;
    clearResults();
    m_status->setText((options.nanInfOnly ? tr("Checking %1 for NaN/Inf\u2026") : tr("Scanning %1\u2026"))
                          .arg(formatBytes(m_model->totalTensorBytes())));
    // A scan that runs is superseded: its workers stop within one read, its result is dropped.
    m_job.start(
        [model = m_model, options](const JobControl& control) {
            ModelScanner scanner(model, options);
            scanner.setControl(control);
            return scanner.run();
        },
        [this](Result<ScanResult> result) { onFinished(std::move(result)); },
        [this](const ScanProgress& p) { onProgress(p); });
    updateButtons();
    emit scanStarted(check);
}

void ScanView::cancelScan()
{
    if (!isRunning())
        return;
    // The workers stop within one read; the result, partial, still arrives (onFinished).
    m_job.requestStop();
    m_cancel->setEnabled(false);
    m_status->setText(tr("Cancelling\u2026"));
}

void ScanView::onProgress(const ScanProgress& p)
{
    if (p.bytesTotal == 0)
        return;
    m_progress->setValue(
        static_cast<int>(1000.0 * static_cast<double>(p.bytesDone) / static_cast<double>(p.bytesTotal)));
    m_status->setText(tr("%1 of %2 \u00b7 %3/s \u00b7 ETA %4")
                          .arg(formatBytes(p.bytesDone), formatBytes(p.bytesTotal),
                               formatBytes(static_cast<std::uint64_t>(p.bytesPerSecond)), eta(p.etaSeconds)));
}

void ScanView::onFinished(Result<ScanResult> result)
{
    updateButtons();
    if (!result) {
        m_progress->setValue(0);
        m_status->setText(tr("Scan failed: %1").arg(toolTipText(result.error().toString())));
        emit scanFinished(false);
        return;
    }
    ScanResult& r = result.value();
    m_progress->setValue(r.complete ? 1000 : m_progress->value());
    int errors = 0;
    for (const Diagnostic& d : r.findings)
        errors += d.severity == Severity::Error;
    const bool nanInfOnly = m_check == Check::NanInfOnly;
    const QString tensors = CountText::tensors(r.tensors.size());
    const QString findings = CountText::findings(r.findings.size());
    const QString errorCount = CountText::errors(static_cast<std::uint64_t>(errors));
    if (r.complete)
        m_status->setText((nanInfOnly ? tr("NaN/Inf check: %1, %2 in %3 s \u00b7 %4 (%5)")
                                      : tr("%1, %2 in %3 s \u00b7 %4 (%5)"))
                              .arg(tensors, formatBytes(r.bytes))
                              .arg(r.seconds, 0, 'f', 2)
                              .arg(findings, errorCount));
    else
        m_status->setText(
            tr("Cancelled after %1 of %2 (%3) \u00b7 %4 (%5) so far; findings across "
               "tensors need the whole scan.")
                .arg(r.tensors.size())
                .arg(CountText::tensors(r.planned), formatBytes(r.bytes), findings, errorCount));
    m_results = Shown{m_check, std::make_shared<const ScanResult>(std::move(r))};
    const ScanResult& shown = *m_results->result;
    if (nanInfOnly) {
        m_layers->clear(tr("The NaN/Inf check computes no statistics to chart: Scan Model does."));
    } else {
        // The chart's names and statistics pair up: the model's order for a whole scan
        // (ScanOptions::tensors is empty, as here), the finished tensors' own names for a
        // cancelled one. Siblings are compared only when their shapes and dtypes agree: the
        // model's infos, read while the chart scores them (it keeps no pointer into the model).
        std::vector<QString> names;
        std::vector<const TensorInfo*> infos;
        names.reserve(shown.tensors.size());
        infos.reserve(shown.tensors.size());
        for (const TensorStats& t : shown.tensors) {
            names.push_back(t.name);
            const int index = m_model ? m_model->indexOf(t.name) : -1;
            infos.push_back(index >= 0 ? &m_model->tensors()[static_cast<std::size_t>(index)].info : nullptr);
        }
        m_layers->setData(names, shown.tensors, infos);
    }
    m_table->setResult(m_results->result);
    m_export->setEnabled(true);
    // Findings first (errors before warnings): what the user scanned for.
    m_view->sortByColumn(ScanTableModel::FindingsColumn, Qt::DescendingOrder);
    m_view->resizeColumnsToContents();
    m_view->setColumnWidth(ScanTableModel::TensorColumn, std::min(m_view->columnWidth(0), 420));
    republish();
    emit scanFinished(m_results->result->complete);
}

} // namespace ts::ui
