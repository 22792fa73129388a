#pragma once

class QAction;
class QMenu;
class QString;

namespace ts::diff {
struct DiffOptions;
}

namespace ts::ui {

class CompareView;
class MainWindow;

// File > Compare With...: asks for the two models (the current tab's is A) and opens their
// comparison as a tab of `window` (MainWindow::addPage). Returns the action, added to `menu`.
QAction* addCompareAction(MainWindow* window, QMenu* menu);
// Opens the comparison of `a` with `b` in a new tab of `window` and starts it.
CompareView* openComparison(MainWindow* window, const QString& a, const QString& b,
                            const diff::DiffOptions& options);

} // namespace ts::ui
