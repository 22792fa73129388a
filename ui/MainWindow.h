#pragma once

#include <QMainWindow>

class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QStackedWidget;
class QTabWidget;

namespace ts::ui {

class DocumentWidget;
class StartPage;

// The Tensorscope window: a start page, or one tab per open model.
class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    // The one way in for the command line, File > Open, Open Recent, the start page and drops.
    // Opening a path that is already open switches to its tab.
    DocumentWidget* openPath(const QString& path);
    void openPaths(const QStringList& paths);

    DocumentWidget* currentDocument() const;
    DocumentWidget* document(int index) const;
    int documentCount() const;
    QTabWidget* tabs() const { return m_tabs; }
    StartPage* startPage() const { return m_start; }
    bool isShowingStartPage() const;

    void openFileDialog();
    void openFolderDialog();
    void closeDocument(int index);

signals:
    // A document finished loading (or failed); for the --screenshot option and tests.
    void documentLoaded(ts::ui::DocumentWidget* document);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void updateRecentMenu();
    void updateWindowState();
    void showPage(int page);

    QStackedWidget* m_stack;
    StartPage* m_start;
    QTabWidget* m_tabs;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_statusPath;
    QLabel* m_statusSize;
    QProgressBar* m_busy;
    QList<QAction*> m_documentActions;
};

} // namespace ts::ui
