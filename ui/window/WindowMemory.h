#pragma once

#include <QStringList>

class QMainWindow;
class QWidget;

namespace ts::ui {

// What the window remembers between runs, in QSettings: its geometry and state, the splitter
// positions of the document views (by the splitters' objectNames), the page last shown for each
// model (by canonical path, the newest kMaxPages), and the tabs of the last session.
class WindowMemory {
public:
    static constexpr int kMaxPages = 50;

    static void saveWindow(const QMainWindow& window);
    static bool restoreWindow(QMainWindow& window);

    // Every named QSplitter under `root`; unnamed ones are skipped (their names are their keys).
    static void saveSplitters(const QWidget& root);
    static void restoreSplitters(QWidget& root);

    // -1 when the path has no page remembered.
    static int lastPage(const QString& canonicalPath);
    static void setLastPage(const QString& canonicalPath, int page);

    static void saveSession(const QStringList& paths, int current);
    static QStringList sessionPaths();
    static int sessionCurrent();
    // File > Reopen Tabs at Start: off unless chosen.
    static bool reopensTabs();
    static void setReopensTabs(bool on);
};

} // namespace ts::ui
