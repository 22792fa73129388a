#pragma once

#include "document/UnsavedChangesPrompt.h"

#include <QMainWindow>

#include <functional>

class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QStackedWidget;
class QTabWidget;
class QUndoGroup;

namespace ts::ui {

class DocumentWidget;
class StartPage;
class TransferStatus;

// The Tensorscope window: a start page, or one tab per open model.
class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    // The one way in for the command line, File > Open, Open Recent, the start page and drops.
    // Opening a path that is already open switches to its tab.
    DocumentWidget* openPath(const QString& path);
    void openPaths(const QStringList& paths);

    // Shows a view that is not one model (a comparison of two) in its own tab, which the window
    // closes like any other; returns its index.
    int addPage(QWidget* page, const QString& title, const QString& toolTip);

    // The document in the current tab or tab `index`; null for a tab that holds another view.
    DocumentWidget* currentDocument() const;
    DocumentWidget* document(int index) const;
    int documentCount() const; // every tab, documents and other views
    QTabWidget* tabs() const { return m_tabs; }
    StartPage* startPage() const { return m_start; }
    bool isShowingStartPage() const;

    void openFileDialog();
    void openFolderDialog();
    // File > Open URL (MainWindowRemote.cpp).
    void openUrlDialog();
    void closeDocument(int index);

    // Editing (MainWindowEditing.cpp). Save and Save As start a save of the current document;
    // the prompt asked before closing a document with unsaved edits can be replaced (tests).
    void saveCurrent();
    void saveCurrentAs();
    void showPreferences();
    void setUnsavedChangesPrompt(UnsavedChangesPrompt::Ask ask) { m_askUnsaved = std::move(ask); }
    QUndoGroup* undoGroup() const { return m_undoGroup; }
    QAction* saveAction() const { return m_save; }

    // Window memory (MainWindowMemory.cpp). Off until called, so screenshots and tests that do
    // not ask see a fresh window: restores the stored theme, geometry and state, and from now on
    // restores each document's splitters and last page and saves all of it as the window closes.
    // With `reopenTabs` (no paths were given) and File > Reopen Tabs at Start checked, the last
    // session's tabs open again.
    void restoreFromLastRun(bool reopenTabs);
    // Help > Keyboard Shortcuts, built from the window's actions.
    void showShortcuts();
    QList<QAction*> shortcutActions() const;

signals:
    // A document finished loading (or failed); for the --screenshot option and tests.
    void documentLoaded(ts::ui::DocumentWidget* document);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void createActions();
    void updateRecentMenu();
    void updateWindowState();
    void showPage(int page);
    void createMemoryActions(QMenu* file, QAction* afterInFile, QMenu* view, QMenu* help);
    void rememberDocument(DocumentWidget* doc);
    void rememberOnClose();
    void createEditingActions(QMenu* file, QAction* beforeInFile, QMenu* edit, QAction* beforeInEdit);
    void watchEditing(DocumentWidget* doc);
    void watchRemote(DocumentWidget* doc); // MainWindowRemote.cpp
    void updateEditingState(DocumentWidget* doc);
    QString tabTitle(DocumentWidget* doc) const;
    // True when `docs` may close now. Asks about each one with unsaved edits; when some are to be
    // saved, starts the saves and calls `then` once all succeeded (and returns false).
    bool confirmClose(const QList<DocumentWidget*>& docs, const std::function<void()>& then);

    QStackedWidget* m_stack;
    StartPage* m_start;
    QTabWidget* m_tabs;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_statusPath;
    QLabel* m_statusSize;
    QProgressBar* m_busy;
    TransferStatus* m_transfers;
    QList<QAction*> m_documentActions;
    QUndoGroup* m_undoGroup = nullptr;
    QAction* m_save = nullptr;
    QAction* m_saveAs = nullptr;
    UnsavedChangesPrompt::Ask m_askUnsaved = &UnsavedChangesPrompt::ask;
    bool m_closeConfirmed = false;
    bool m_remember = false;
    QMenu* m_themeMenu = nullptr;
};

} // namespace ts::ui
