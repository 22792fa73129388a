#include "window/MainWindow.h"

#include "audit/ReportExportDialog.h"
#include "base/Format.h"
#include "compare/CompareAction.h"
#include "conversion/ConvertDialog.h"
#include "document/DocumentWidget.h"
#include "io/RemoteLocation.h"
#include "network/TransferStatus.h"
#include "window/RecentFiles.h"
#include "window/StartPage.h"
#include "window/WindowMemory.h"

#include <QAction>
#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QProgressBar>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QUndoGroup>

namespace ts::ui {
namespace {

QString canonical(const QString& path)
{
    if (RemoteLocation::isRemote(path)) // a URL is what it says; its credentials are kept for reading
        return path.trimmed();
    const QFileInfo info(path);
    const QString c = info.canonicalFilePath();
    return c.isEmpty() ? info.absoluteFilePath() : c;
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_stack(new QStackedWidget(this)), m_start(new StartPage(this)),
      m_tabs(new QTabWidget(this)), m_statusPath(new QLabel(this)), m_statusSize(new QLabel(this)),
      m_busy(new QProgressBar(this)), m_transfers(new TransferStatus(this))
{
    setAcceptDrops(true);
    resize(1280, 820);
    m_tabs->setTabsClosable(true);
    m_tabs->setMovable(true);
    m_tabs->setDocumentMode(true);
    m_stack->addWidget(m_start);
    m_stack->addWidget(m_tabs);
    setCentralWidget(m_stack);

    m_statusPath->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_busy->setRange(0, 0);
    m_busy->setMaximumWidth(120);
    m_busy->setMaximumHeight(14);
    m_busy->hide();
    statusBar()->addWidget(m_statusPath, 1);
    statusBar()->addPermanentWidget(m_transfers);
    statusBar()->addPermanentWidget(m_statusSize);
    statusBar()->addPermanentWidget(m_busy);

    createActions();
    connect(m_start, &StartPage::openRequested, this, [this](const QString& path) { openPath(path); });
    connect(m_start, &StartPage::openFileRequested, this, &MainWindow::openFileDialog);
    connect(m_start, &StartPage::openFolderRequested, this, &MainWindow::openFolderDialog);
    connect(m_start, &StartPage::openUrlRequested, this, &MainWindow::openUrlDialog);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateWindowState);
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, &MainWindow::closeDocument);
    updateWindowState();
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open\u2026"), this, &MainWindow::openFileDialog);
    open->setShortcut(QKeySequence::Open);
    QAction* openFolder = file->addAction(tr("Open &Folder\u2026"), this, &MainWindow::openFolderDialog);
    openFolder->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    QAction* openUrl = file->addAction(tr("Open &URL\u2026"), this, &MainWindow::openUrlDialog);
    openUrl->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_U));
    openUrl->setStatusTip(tr("Open a model on a server by its URL, reading only what is needed."));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::updateRecentMenu);
    file->addSeparator();
    QAction* reload = file->addAction(tr("&Reload"), this, [this] {
        if (DocumentWidget* doc = currentDocument())
            doc->requestReload();
    });
    reload->setShortcuts({QKeySequence::Refresh, QKeySequence(Qt::CTRL | Qt::Key_R)});
    QAction* close = file->addAction(tr("&Close Tab"), this, [this] {
        if (m_tabs->count() > 0)
            closeDocument(m_tabs->currentIndex());
    });
    close->setShortcut(QKeySequence::Close);
    file->addSeparator();
    QAction* convert = file->addAction(tr("Con&vert\u2026"), this, [this] {
        DocumentWidget* doc = currentDocument();
        if (!doc || !doc->result().ok())
            return;
        // Non-modal: a long conversion should not freeze the rest of the window.
        auto* dialog = new ConvertDialog(doc->result().model, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        // An input that changed on disk is the document's news: its banner offers the reload.
        connect(dialog, &ConvertDialog::failed, doc, &DocumentWidget::reportError);
        dialog->show();
    });
    convert->setStatusTip(tr("Change dtypes, select, rename or shard the tensors into a new file."));
    m_documentActions << convert;
    QAction* report = file->addAction(tr("E&xport Report\u2026"), this, [this] {
        DocumentWidget* doc = currentDocument();
        if (!doc || !doc->result().ok())
            return;
        // Non-modal, as Convert: hashing and scanning a large model take a while.
        auto* dialog = new ReportExportDialog(doc->result().model, doc->path(), doc->result().profile, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    report->setObjectName(QStringLiteral("exportReportAction"));
    report->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    report->setStatusTip(
        tr("Write an audit report: files and SHA-256, architecture, parameters, findings, metadata."));
    m_documentActions << report;
    addCompareAction(this, file); // a comparison tab (ui/compare), with or without a model open
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* find = edit->addAction(tr("&Find"), this, [this] {
        if (DocumentWidget* doc = currentDocument())
            doc->focusSearch();
    });
    find->setShortcut(QKeySequence::Find);
    createEditingActions(file, close, edit, find);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    const QString pages[] = {tr("&Summary"), tr("&Tensors"), tr("&Metadata"), tr("Raw &Header"), tr("S&can")};
    for (int page = 0; page < 5; ++page) {
        QAction* a = view->addAction(pages[page], this, [this, page] { showPage(page); });
        a->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + page)));
        m_documentActions << a;
    }
    view->addSeparator();
    QAction* next = view->addAction(tr("&Next Tab"), this, [this] {
        if (m_tabs->count() > 1)
            m_tabs->setCurrentIndex((m_tabs->currentIndex() + 1) % m_tabs->count());
    });
    next->setShortcut(QKeySequence::NextChild);
    QAction* previous = view->addAction(tr("&Previous Tab"), this, [this] {
        if (m_tabs->count() > 1)
            m_tabs->setCurrentIndex((m_tabs->currentIndex() + m_tabs->count() - 1) % m_tabs->count());
    });
    previous->setShortcut(QKeySequence::PreviousChild);

    // The whole-model scan: menu and toolbar, as it is the main thing users come for.
    QMenu* analysis = menuBar()->addMenu(tr("&Analysis"));
    QAction* scan = analysis->addAction(tr("&Scan Model"), this, [this] {
        if (DocumentWidget* doc = currentDocument())
            doc->startScan();
    });
    scan->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    scan->setStatusTip(tr("Read every tensor: NaN, Inf, zeros, extremes; findings join the audit list."));
    QAction* nanInf = analysis->addAction(tr("Check for &NaN/Inf"), this, [this] {
        if (DocumentWidget* doc = currentDocument())
            doc->startScan(ScanView::Check::NanInfOnly);
    });
    nanInf->setStatusTip(tr("Only look for NaN and Inf values, at memory speed: no statistics."));
    QToolBar* analysisBar = addToolBar(tr("Analysis"));
    analysisBar->setObjectName(QStringLiteral("analysisToolBar"));
    analysisBar->setMovable(false);
    analysisBar->addAction(scan);
    m_documentActions << scan << nanInf;

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Tensorscope"), this, [this] {
        // The licence follows from what the program links: QCustomPlot is GPL, so the whole is too.
        QMessageBox::about(
            this, tr("About Tensorscope"),
            tr("<h3>Tensorscope %1</h3><p>An inspector for .safetensors model files.</p>"
               "<p>Tensorscope is free software under the GNU General Public License, version 3 "
               "or (at your option) any later version (GPL-3.0-or-later). It comes with "
               "ABSOLUTELY NO WARRANTY.</p>"
               "<p>It uses QCustomPlot (GPL-3.0) and Qt %2 (GNU LGPL version 3).</p>")
                .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
    });
    createMemoryActions(file, m_recentMenu->menuAction(), view, help);
    m_documentActions << reload << close << find;
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList paths = RecentFiles::paths();
    for (const QString& path : paths) {
        const QString label = RemoteLocation::isRemote(path)
                                  ? tr("%1 (%2)").arg(RemoteLocation::fileName(path), QUrl(path).host())
                                  : QFileInfo(path).fileName();
        QAction* a = m_recentMenu->addAction(label, this, [this, path] { openPath(path); });
        a->setToolTip(path);
        a->setStatusTip(path);
    }
    if (paths.isEmpty())
        m_recentMenu->addAction(tr("No recent files"))->setEnabled(false);
    m_recentMenu->addSeparator();
    m_recentMenu
        ->addAction(tr("Clear Recent"), this,
                    [this] {
                        RecentFiles::clear();
                        m_start->refresh();
                    })
        ->setEnabled(!paths.isEmpty());
}

DocumentWidget* MainWindow::openPath(const QString& path)
{
    const QString target = canonical(path);
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (DocumentWidget* open = document(i); open && open->path() == target) {
            m_tabs->setCurrentIndex(i);
            return open;
        }
    }
    auto* doc = new DocumentWidget(target, m_tabs);
    const int index = m_tabs->addTab(doc, doc->displayName());
    m_tabs->setTabToolTip(index,
                          RemoteLocation::isRemote(target) ? RemoteLocation::redacted(target) : target);
    m_tabs->setCurrentIndex(index);
    watchEditing(doc);
    watchRemote(doc);
    rememberDocument(doc);
    connect(doc, &DocumentWidget::openRequested, this,
            [this](const QString& location) { openPath(location); });
    connect(doc, &DocumentWidget::stateChanged, this, [this, doc] {
        const int i = m_tabs->indexOf(doc);
        if (i >= 0)
            m_tabs->setTabText(i, tabTitle(doc));
        if (doc == currentDocument())
            updateWindowState();
    });
    connect(doc, &DocumentWidget::loaded, this, [this, doc] {
        if (doc->state() == DocumentWidget::State::Loaded) {
            // A URL is remembered without a password it may carry; a token never is in one.
            RecentFiles::add(doc->isRemote() ? RemoteLocation::redacted(doc->path()) : doc->path());
            m_start->refresh();
        }
        emit documentLoaded(doc);
    });
    updateWindowState();
    return doc;
}

void MainWindow::openPaths(const QStringList& paths)
{
    for (const QString& path : paths)
        openPath(path);
}

void MainWindow::openFileDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Open Model"), QString(),
        tr("Models (*.safetensors *.safetensors.index.json *.json *.bin *.pt *.pth *.ckpt *.pkl);;"
           "Safetensors models (*.safetensors *.safetensors.index.json *.json);;"
           "PyTorch checkpoints (*.bin *.pt *.pth *.ckpt *.pkl);;All files (*)"));
    openPaths(files);
}

void MainWindow::openFolderDialog()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Open Sharded Model Folder"));
    if (!folder.isEmpty())
        openPath(folder);
}

int MainWindow::addPage(QWidget* page, const QString& title, const QString& toolTip)
{
    const int index = m_tabs->addTab(page, title);
    m_tabs->setTabToolTip(index, toolTip);
    m_tabs->setCurrentIndex(index);
    updateWindowState();
    return index;
}

void MainWindow::closeDocument(int index)
{
    QWidget* page = m_tabs->widget(index);
    if (!page)
        return;
    DocumentWidget* doc = document(index);
    if (!doc) {
        // Another view (a comparison): nothing to save, nothing to remember.
        m_tabs->removeTab(index);
        page->deleteLater();
        updateWindowState();
        return;
    }
    if (!confirmClose({doc}, [this, doc = QPointer<DocumentWidget>(doc)] {
            if (doc)
                closeDocument(m_tabs->indexOf(doc));
        }))
        return;
    if (m_remember)
        WindowMemory::saveSplitters(*doc); // the next document opened starts where this one was
    m_undoGroup->removeStack(doc->undoStack());
    m_tabs->removeTab(index);
    doc->deleteLater();
    updateWindowState();
}

DocumentWidget* MainWindow::currentDocument() const
{
    return qobject_cast<DocumentWidget*>(m_tabs->currentWidget());
}

DocumentWidget* MainWindow::document(int index) const
{
    return qobject_cast<DocumentWidget*>(m_tabs->widget(index));
}

int MainWindow::documentCount() const
{
    return m_tabs->count();
}

bool MainWindow::isShowingStartPage() const
{
    return m_stack->currentWidget() == m_start;
}

void MainWindow::showPage(int page)
{
    if (DocumentWidget* doc = currentDocument())
        doc->showPage(static_cast<DocumentWidget::Page>(page));
}

void MainWindow::updateWindowState()
{
    DocumentWidget* doc = currentDocument();
    updateEditingState(doc);
    m_stack->setCurrentWidget(m_tabs->count() > 0 ? static_cast<QWidget*>(m_tabs) : m_start);
    for (QAction* a : std::as_const(m_documentActions))
        a->setEnabled(doc != nullptr);
    if (!doc && m_tabs->count() > 0) {
        // A tab that is not one model (a comparison) names itself.
        setWindowTitle(tr("%1 \u2014 Tensorscope").arg(m_tabs->tabText(m_tabs->currentIndex())));
        m_statusPath->setText(m_tabs->tabToolTip(m_tabs->currentIndex()));
        m_statusSize->clear();
        m_busy->hide();
        m_transfers->setCheckpoint(nullptr);
        return;
    }
    if (!doc) {
        setWindowTitle(tr("Tensorscope"));
        m_statusPath->setText(tr("Open a model with Ctrl+O or drop one here."));
        m_statusSize->clear();
        m_busy->hide();
        m_transfers->setCheckpoint(nullptr);
        return;
    }
    setWindowTitle(tr("%1 \u2014 Tensorscope").arg(tabTitle(doc)));
    m_statusPath->setText(doc->isRemote() ? RemoteLocation::redacted(doc->path()) : doc->path());
    m_transfers->setCheckpoint(doc->result().model);
    m_busy->setVisible(doc->state() == DocumentWidget::State::Loading || doc->isSaving());
    const auto& result = doc->result();
    if (doc->state() == DocumentWidget::State::Loaded) {
        const Checkpoint& model = *result.model;
        m_statusSize->setText(tr("%1 \u00b7 %2 tensors \u00b7 %3 parameters")
                                  .arg(formatBytes(model.totalFileBytes()),
                                       formatGrouped(model.tensors().size()),
                                       formatCount(model.totalParameters())));
    } else if (doc->state() == DocumentWidget::State::Failed) {
        m_statusSize->setText(tr("cannot be opened"));
    } else {
        m_statusSize->setText(tr("opening\u2026"));
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls()) {
        for (const QUrl& url : event->mimeData()->urls()) {
            // A link dragged from a browser opens as a URL.
            if (url.isLocalFile() || RemoteLocation::isRemote(url.toString())) {
                event->acceptProposedAction();
                return;
            }
        }
    }
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
        else if (RemoteLocation::isRemote(url.toString()))
            paths << url.toString();
    }
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    openPaths(paths);
}

} // namespace ts::ui
