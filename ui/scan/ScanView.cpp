#include "scan/ScanView.h"

#include "base/Format.h"
#include "charts/LayerChartView.h"
#include "common/DisplayText.h"
#include "common/NaturalSortProxy.h"
#include "scan/ScanTableModel.h"

#include <QHeaderView>
#include <QLabel>
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
      m_progress(new QProgressBar(this)), m_status(new QLabel(this)), m_table(new ScanTableModel(this)),
      m_proxy(new NaturalSortProxy(this)), m_view(new QTableView(this)), m_layers(new LayerChartView(this))
{
    m_view->setObjectName(QStringLiteral("results"));
    m_start->setObjectName(QStringLiteral("scan"));
    m_nanInf->setObjectName(QStringLiteral("checkNanInf"));
    m_cancel->setObjectName(QStringLiteral("cancel"));
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
    connect(m_view, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        emit tensorActivated(index.data(ScanTableModel::TensorNameRole).toString());
    });
    updateButtons();
    m_status->setText(tr("Not scanned yet."));
}

void ScanView::setModel(std::shared_ptr<const Checkpoint> model)
{
    cancelScan();
    m_model = std::move(model);
    m_table->clear();
    m_layers->clear();
    m_progress->setValue(0);
    m_status->setText(tr("Not scanned yet."));
    m_start->setEnabled(m_model != nullptr);
    m_nanInf->setEnabled(m_model != nullptr);
}

void ScanView::updateButtons()
{
    const bool running = isRunning();
    m_start->setEnabled(!running && m_model);
    m_nanInf->setEnabled(!running && m_model);
    m_cancel->setEnabled(running);
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
    m_table->clear();
    m_layers->clear();
    m_progress->setValue(0);
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
    // The workers stop within one read; the result is dropped, the page is free now.
    m_job.cancel();
    updateButtons();
    m_progress->setValue(0);
    m_status->setText(tr("Scan cancelled."));
    emit scanFinished(false);
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
    m_progress->setValue(1000);
    int errors = 0;
    for (const Diagnostic& d : r.findings)
        errors += d.severity == Severity::Error;
    const bool nanInfOnly = m_check == Check::NanInfOnly;
    m_status->setText((nanInfOnly ? tr("NaN/Inf check: %1 tensors, %2 in %3 s \u00b7 %4 findings (%5 errors)")
                                  : tr("%1 tensors, %2 in %3 s \u00b7 %4 findings (%5 errors)"))
                          .arg(r.tensors.size())
                          .arg(formatBytes(r.bytes))
                          .arg(r.seconds, 0, 'f', 2)
                          .arg(r.findings.size())
                          .arg(errors));
    std::vector<QString> names;
    names.reserve(m_model->tensors().size());
    for (const CheckpointTensor& t : m_model->tensors())
        names.push_back(t.info.name);
    // ScanResult::tensors is in model order when ScanOptions::tensors is empty, as here. The
    // NaN/Inf check has no statistics to chart.
    if (nanInfOnly)
        m_layers->clear(tr("The NaN/Inf check computes no statistics to chart: Scan Model does."));
    else
        m_layers->setData(names, r.tensors);
    m_table->setResult(std::move(r.tensors), r.findings);
    // Findings first (errors before warnings): what the user scanned for.
    m_view->sortByColumn(ScanTableModel::FindingsColumn, Qt::DescendingOrder);
    m_view->resizeColumnsToContents();
    m_view->setColumnWidth(ScanTableModel::TensorColumn, std::min(m_view->columnWidth(0), 420));
    emit findingsReady(r.findings, m_check);
    emit scanFinished(true);
}

} // namespace ts::ui
