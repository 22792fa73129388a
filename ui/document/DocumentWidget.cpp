#include "document/DocumentWidget.h"

#include "checkpoint/TensorLayout.h"
#include "format/Dtype.h"

#include "document/UnsavedChangesPrompt.h"

#include "base/Format.h"
#include "document/ErrorView.h"
#include "document/JournalBanner.h"
#include "document/PickleBanner.h"
#include "document/ReloadBanner.h"
#include "io/RemoteLocation.h"
#include "metadata/MetadataView.h"
#include "metadata/RawHeaderView.h"
#include "scan/ScanView.h"
#include "summary/AuditModel.h"
#include "summary/CheckpointSummary.h"
#include "summary/SummaryView.h"
#include "summary/ValuesVerdict.h"
#include "tensor/StatsJob.h"
#include "tensor/StatsPanel.h"
#include "tensor/TensorBrowser.h"
#include "tensor/TensorDetailsView.h"
#include "tensor/TensorVisualsPanel.h"
#include "window/Preferences.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QLabel>
#include <QLoggingCategory>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTimer>
#include <QTreeView>
#include <QUndoStack>
#include <QUrl>
#include <QVBoxLayout>

#include <utility>

namespace ts::ui {
namespace {

Q_LOGGING_CATEGORY(lcDocument, "tensorscope.document", QtWarningMsg)

// inotify misses some changes (network file systems, a watch lost on replace): a slow stat()
// poll catches those.
constexpr int kPollMs = 2000;

} // namespace

DocumentWidget::DocumentWidget(const QString& path, QWidget* parent)
    : QWidget(parent), m_path(path), m_fsWatcher(new QFileSystemWatcher(this)), m_poll(new QTimer(this)),
      m_banner(new ReloadBanner(this)), m_journalBanner(new JournalBanner(this)),
      m_pickleBanner(new PickleBanner(this)), m_stack(new QStackedWidget(this)),
      m_loadingPage(new QWidget(this)), m_loadingDetail(new QLabel(this)),
      m_loadCancel(new QPushButton(tr("Cancel"), this)), m_error(new ErrorView(this)),
      m_pages(new QTabWidget(this)), m_summary(new SummaryView(this)), m_browser(new TensorBrowser(this)),
      m_metadata(new MetadataView(this)), m_rawHeader(new RawHeaderView(this)), m_undo(new QUndoStack(this))
{
    auto* loadingLayout = new QVBoxLayout(m_loadingPage);
    const bool remote = RemoteLocation::isRemote(path);
    auto* loadingLabel = new QLabel(remote ? tr("Reading the header of %1 from %2\u2026")
                                                 .arg(RemoteLocation::fileName(path), QUrl(path).host())
                                           : tr("Opening %1\u2026").arg(QFileInfo(path).fileName()),
                                    m_loadingPage);
    auto* busy = new QProgressBar(m_loadingPage);
    busy->setRange(0, 0);
    busy->setMaximumWidth(240);
    loadingLayout->addStretch(1);
    loadingLayout->addWidget(loadingLabel, 0, Qt::AlignHCenter);
    loadingLayout->addWidget(busy, 0, Qt::AlignHCenter);
    // A server can be slow, or silent: what has come so far, and a way out.
    loadingLayout->addWidget(m_loadingDetail, 0, Qt::AlignHCenter);
    loadingLayout->addWidget(m_loadCancel, 0, Qt::AlignHCenter);
    loadingLayout->addStretch(1);
    m_loadingDetail->setVisible(remote);
    m_loadCancel->setVisible(remote);
    connect(m_loadCancel, &QPushButton::clicked, this, &DocumentWidget::cancelLoading);

    m_pages->setDocumentMode(true);
    m_pages->addTab(m_summary, tr("Summary"));
    m_pages->addTab(m_browser, tr("Tensors"));
    m_pages->addTab(m_metadata, tr("Metadata"));
    m_pages->addTab(m_rawHeader, tr("Raw Header"));
    // Tensor visuals and the scan: statistics computed on demand, shared by the panels.
    m_stats = new StatsJob(this);
    connect(m_stats, &StatsJob::readFailed, this, &DocumentWidget::reportError);
    connect(m_browser, &TensorBrowser::readFailed, this, &DocumentWidget::reportError);
    m_scan = new ScanView(this);
    m_pages->addTab(m_scan, tr("Scan"));
    m_browser->details()->addPanel(new StatsPanel(m_stats));
    m_visuals = new TensorVisualsPanel(m_stats);
    m_browser->details()->addPanel(m_visuals, TensorDetailsView::Place::Pictures);
    // The plots need width more than the tree does: give the details side the larger share.
    if (auto* split = m_browser->findChild<QSplitter*>(QString(), Qt::FindDirectChildrenOnly)) {
        split->setStretchFactor(0, 2);
        split->setStretchFactor(1, 3);
        split->setSizes({520, 780});
    }
    connect(m_scan, &ScanView::tensorActivated, this, &DocumentWidget::selectTensor);
    const auto toAudit = [this](const std::vector<Diagnostic>& findings, ScanView::Check check) {
        // A NaN/Inf check looked at nothing else: the full scan's other findings stand.
        const QStringList replacing =
            check == ScanView::Check::NanInfOnly
                ? QStringList{QStringLiteral("NanValues"), QStringLiteral("InfValues")}
                : QStringList{};
        m_summary->auditModel()->addDiagnostics(QStringLiteral("scan"), findings, replacing);
    };
    connect(m_scan, &ScanView::findingsReady, this, toAudit);
    connect(m_scan, &ScanView::partialFindingsReady, this,
            [toAudit](const std::vector<Diagnostic>& findings, ScanView::Check check) {
                toAudit(findings, check);
            });
    // The summary's verdict on the values follows every scan and check, whoever started it.
    ValuesVerdict* verdict = m_summary->valuesVerdict();
    connect(m_scan, &ScanView::scanStarted, verdict, &ValuesVerdict::setChecking);
    connect(m_scan, &ScanView::findingsReady, verdict,
            [verdict](const std::vector<Diagnostic>& findings, ScanView::Check check) {
                verdict->setChecked(check, findings);
            });
    connect(m_scan, &ScanView::partialFindingsReady, verdict,
            [verdict](const std::vector<Diagnostic>& findings, ScanView::Check check, qsizetype scanned,
                      qsizetype planned) { verdict->setPartial(check, findings, scanned, planned); });
    connect(m_scan, &ScanView::scanFinished, verdict, [verdict](bool ok) {
        // A cancelled scan's partial verdict (setPartial, just before) stands.
        if (!ok && verdict->state() != ValuesVerdict::State::Stopped)
            verdict->setStopped();
    });
    connect(verdict, &ValuesVerdict::checkRequested, this, [this](ScanView::Check check) {
        // The quick check reports on the summary where it was asked for; a full scan shows its table.
        if (check == ScanView::Check::NanInfOnly)
            m_scan->startScan(check);
        else
            startScan(check);
    });
    connect(m_pages, &QTabWidget::currentChanged, this,
            [this](int page) { emit pageChanged(static_cast<Page>(page)); });
    m_stack->addWidget(m_loadingPage);
    m_stack->addWidget(m_error);
    m_stack->addWidget(m_pages);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_banner);
    layout->addWidget(m_journalBanner);
    layout->addWidget(m_pickleBanner);
    layout->addWidget(m_stack, 1);
    m_banner->hide();
    m_journalBanner->hide();
    m_pickleBanner->hide();
    connect(m_pickleBanner, &PickleBanner::auditRequested, this, [this] {
        showPage(SummaryPage);
        if (auto* audit = m_summary->findChild<QWidget*>(QStringLiteral("audit")))
            m_summary->ensureWidgetVisible(audit);
    });
    connect(m_journalBanner, &JournalBanner::restoreRequested, this, &DocumentWidget::restoreJournal);
    connect(m_journalBanner, &JournalBanner::deleteRequested, this, &DocumentWidget::deleteJournal);
    connect(m_summary, &SummaryView::removeLeftoversRequested, this, &DocumentWidget::removeLeftovers);

    connect(m_banner, &ReloadBanner::reloadRequested, this, &DocumentWidget::requestReload);
    connect(m_error, &ErrorView::reloadRequested, this, &DocumentWidget::requestReload);
    connect(m_error, &ErrorView::accessTokenRequested, this, &DocumentWidget::accessTokenRequested);
    connect(m_error, &ErrorView::openRequested, this, &DocumentWidget::openRequested);
    connect(m_summary, &SummaryView::tensorActivated, this, &DocumentWidget::selectTensor);
    connect(m_summary, &SummaryView::elementActivated, this, &DocumentWidget::selectTensorAt);
    connect(m_fsWatcher, &QFileSystemWatcher::fileChanged, this, &DocumentWidget::checkForChanges);
    connect(m_poll, &QTimer::timeout, this, &DocumentWidget::checkForChanges);
    connect(m_undo, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
    m_poll->setInterval(kPollMs);
    reload();
}

QString DocumentWidget::displayName() const
{
    if (m_result.model)
        return m_result.model->displayName();
    if (isRemote())
        return RemoteLocation::fileName(m_path);
    const QFileInfo info(m_path);
    return info.fileName().isEmpty() ? m_path : info.fileName();
}

void DocumentWidget::requestReload()
{
    if (isSaving())
        return; // the save reloads the document itself when it ends
    const ConfirmDiscard ask = m_confirmDiscard ? m_confirmDiscard : &UnsavedChangesPrompt::confirmReload;
    if (isModified() && !ask(this, displayName()))
        return;
    reload();
}

void DocumentWidget::reload()
{
    m_loadingDetail->setText(QString());
    m_loadCancel->setEnabled(true);
    m_state = State::Loading;
    m_banner->hide();
    m_poll->stop();
    m_stack->setCurrentWidget(m_loadingPage);
    // A previous load still running is superseded: its token is cancelled (a wait for a server
    // ends) and its late result is dropped. What a server sent so far is the job's progress.
    m_load.start([path = m_path](const JobControl& control) { return loadModel(path, control); },
                 [this](LoadResult result) { apply(std::move(result)); },
                 [this](const Progress& progress) {
                     if (m_loadCancel->isEnabled())
                         m_loadingDetail->setText(tr("%1 received").arg(formatBytes(progress.bytesDone)));
                 });
    emit stateChanged();
}

void DocumentWidget::apply(LoadResult result)
{
    // What the UI thread spends on a load, to keep an eye on it: QT_LOGGING_RULES="tensorscope.*=true".
    QElapsedTimer timer;
    timer.start();
    const std::shared_ptr<const Checkpoint> previous = m_result.model;
    const bool saved = std::exchange(m_reloadAfterSave, false);
    m_result = std::move(result);
    if (m_result.ok()) {
        const Checkpoint& model = *m_result.model;
        // The scan read the values, which neither our own metadata save nor a Reload of a file
        // that did not change on disk (same inode, size and mtime as mapped) touches: keep it.
        // A change by another program may have rewritten any byte, so its results go.
        const bool keepScan = previous && m_scan->hasResults() && sameTensorLayout(*previous, model) &&
                              (saved || !previous->changedOnDisk());
        m_summary->setSummary(summarize(model, *m_result.tree), model.warnings());
        m_summary->setProfile(m_result.profile);
        m_stats->setModel(m_result.model);
        if (keepScan)
            m_scan->keepResultsFor(m_result.model);
        else
            m_scan->setModel(m_result.model);
        m_browser->setModel(m_result.model, m_result.tree);
        // A (re)load shows the file as it is now: edits of the previous contents cannot be undone into it.
        m_undo->clear();
        // A format whose metadata cannot be saved (a pickle checkpoint) gets no edits to lose.
        m_metadata->setUndoStack(model.isSharded() || !model.capabilities().editMetadata ? nullptr : m_undo);
        m_metadata->setMetadata(model.metadata());
        m_rawHeader->setHeader(m_result);
        m_pickleBanner->setCheckpoint(m_result.model);
        m_stack->setCurrentWidget(m_pages);
        m_state = State::Loaded;
        m_summary->valuesVerdict()->setNotChecked();
        if (keepScan)
            m_scan->republish();
        // A model on a server is not read whole to open it: the check is a button away.
        else if (!isRemote() && Preferences::checkNanInfOnOpen() &&
                 model.totalTensorBytes() <= Preferences::checkNanInfLimitBytes() &&
                 model.tensors().size() <= Preferences::checkNanInfMaxTensors())
            m_scan->startScan(ScanView::Check::NanInfOnly);
    } else {
        m_pickleBanner->hide();
        m_error->setResult(m_result);
        m_undo->clear();
        m_metadata->setUndoStack(nullptr);
        m_stats->setModel(nullptr);
        m_scan->setModel(nullptr);
        m_browser->setModel(nullptr, nullptr);
        m_stack->setCurrentWidget(m_error);
        m_state = State::Failed;
    }
    showJournals();
    watchFiles();
    qCDebug(lcDocument) << "applied" << m_path << "in" << timer.elapsed() << "ms on the UI thread";
    emit stateChanged();
    emit loaded();
}

void DocumentWidget::watchFiles()
{
    if (!m_fsWatcher->files().isEmpty())
        m_fsWatcher->removePaths(m_fsWatcher->files());
    QStringList files;
    if (m_result.model) {
        files << m_result.model->files();
    }
    if (QFileInfo(m_path).isFile())
        files << m_path;
    files.removeDuplicates();
    if (!files.isEmpty())
        m_fsWatcher->addPaths(files);
    m_poll->start();
}

void DocumentWidget::checkForChanges()
{
    // Our own save changes the file: the reload after it shows the result, not a banner.
    if (m_state == State::Loading || isSaving() || m_banner->isVisibleTo(this))
        return;
    bool changed = false;
    if (m_result.model) {
        changed = m_result.model->changedOnDisk();
    } else {
        // A file that failed to open: any change may have fixed it.
        changed = !m_fsWatcher->files().isEmpty() && sender() == m_fsWatcher;
    }
    if (!changed)
        return;
    m_poll->stop();
    if (isRemote()) {
        m_banner->setMessage(
            tr("%1 changed on the server while it was being read. Reload to read the new file.")
                .arg(displayName()));
        m_banner->reloadButton()->setEnabled(true);
        m_banner->show();
        return;
    }
    const bool exists = QFileInfo::exists(m_path);
    m_banner->setMessage(
        exists ? tr("%1 changed on disk. What is shown may no longer match the file.").arg(displayName())
               : tr("%1 was removed or renamed on disk.").arg(displayName()));
    m_banner->reloadButton()->setEnabled(exists);
    m_banner->show();
}

bool DocumentWidget::isRemote() const
{
    return RemoteLocation::isRemote(m_path);
}

void DocumentWidget::cancelLoading()
{
    if (m_state != State::Loading || !m_load.isRunning())
        return;
    m_load.requestStop(); // its result is still delivered: the error page says it was cancelled
    m_loadCancel->setEnabled(false);
    m_loadingDetail->setText(tr("Cancelling\u2026"));
}

bool DocumentWidget::isReloadPromptVisible() const
{
    return m_banner->isVisibleTo(this);
}

void DocumentWidget::reportError(const Error& error)
{
    // Only the files that are open now: a late error of a reloaded model's read says nothing new.
    if (error.code != ErrorCode::FileChanged || m_state != State::Loaded || isSaving())
        return;
    m_poll->stop();
    // More precise than the watcher's "changed on disk", which may already be showing.
    m_banner->setMessage((isRemote() ? tr("%1 changed on the server (%2). Reload to read the new file.")
                                     : tr("%1 changed on disk (%2). Reload to see the file as it is now."))
                             .arg(displayName(), error.message));
    m_banner->reloadButton()->setEnabled(isRemote() || QFileInfo::exists(m_path));
    m_banner->show();
}

void DocumentWidget::showPage(Page page)
{
    if (m_state == State::Loaded)
        m_pages->setCurrentIndex(page);
}

DocumentWidget::Page DocumentWidget::currentPage() const
{
    return static_cast<Page>(m_pages->currentIndex());
}

void DocumentWidget::focusSearch()
{
    if (m_state != State::Loaded)
        return;
    if (currentPage() == HeaderPage) {
        m_rawHeader->focusSearch();
        return;
    }
    showPage(TensorsPage);
    m_browser->focusFilter();
}

void DocumentWidget::startScan(ScanView::Check check)
{
    if (m_state != State::Loaded)
        return;
    m_pages->setCurrentWidget(m_scan);
    m_scan->startScan(check);
}

bool DocumentWidget::selectTensorAt(const QString& name, quint64 fileOffset)
{
    if (!selectTensor(name))
        return false;
    const int index = m_result.model->indexOf(name);
    const CheckpointTensor& t = m_result.model->tensors()[static_cast<std::size_t>(index)];
    if (fileOffset < t.offset || fileOffset >= t.offset + t.info.byteSize())
        return true;
    const std::uint64_t flat =
        (fileOffset - t.offset) * 8 / static_cast<std::uint64_t>(dtypeBits(t.info.dtype));
    return m_visuals->showElement(flat);
}

bool DocumentWidget::selectTensor(const QString& name)
{
    if (m_state != State::Loaded)
        return false;
    showPage(TensorsPage);
    return m_browser->selectTensor(name);
}

} // namespace ts::ui
