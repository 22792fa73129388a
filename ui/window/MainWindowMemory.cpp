// The window between runs: window memory, the theme, and the shortcuts list.

#include "window/MainWindow.h"

#include "document/DocumentWidget.h"
#include "window/ShortcutsDialog.h"
#include "window/Theme.h"
#include "window/WindowMemory.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>

namespace ts::ui {

void MainWindow::createMemoryActions(QMenu* file, QAction* afterInFile, QMenu* view, QMenu* help)
{
    const QList<QAction*> fileActions = file->actions();
    const qsizetype at = fileActions.indexOf(afterInFile);
    QAction* before = at >= 0 && at + 1 < fileActions.size() ? fileActions[at + 1] : nullptr;
    auto* reopen = new QAction(tr("Reopen &Tabs at Start"), file);
    reopen->setCheckable(true);
    reopen->setChecked(WindowMemory::reopensTabs());
    reopen->setStatusTip(tr("When Tensorscope starts without files, open the tabs it had when it closed."));
    connect(reopen, &QAction::toggled, this, &WindowMemory::setReopensTabs);
    file->insertAction(before, reopen);

    view->addSeparator();
    m_themeMenu = view->addMenu(tr("T&heme"));
    auto* group = new QActionGroup(m_themeMenu);
    const std::pair<Theme::Kind, QString> themes[] = {
        {Theme::System, tr("&System")}, {Theme::Light, tr("&Light")}, {Theme::Dark, tr("&Dark")}};
    for (const auto& [kind, label] : themes) {
        QAction* a = m_themeMenu->addAction(label, this, [kind = kind] { Theme::choose(kind); });
        a->setCheckable(true);
        a->setData(kind);
        group->addAction(a);
    }
    m_themeMenu->actions()[0]->setToolTip(tr("The platform's own style and colours"));
    // The check follows the theme in force, which --dark or restoreFromLastRun() may have changed.
    connect(m_themeMenu, &QMenu::aboutToShow, this, [this] {
        const auto actions = m_themeMenu->actions();
        for (QAction* a : actions)
            a->setChecked(a->data().toInt() == Theme::current());
    });

    QAction* keys = new QAction(tr("&Keyboard Shortcuts"), help);
    connect(keys, &QAction::triggered, this, &MainWindow::showShortcuts);
    help->insertAction(help->actions().value(0), keys);
}

void MainWindow::restoreFromLastRun(bool reopenTabs)
{
    m_remember = true;
    Theme::applyStored();
    WindowMemory::restoreWindow(*this);
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (DocumentWidget* doc = document(i))
            WindowMemory::restoreSplitters(*doc);
    }
    if (reopenTabs && WindowMemory::reopensTabs()) {
        const QStringList paths = WindowMemory::sessionPaths();
        openPaths(paths);
        const int current = WindowMemory::sessionCurrent();
        if (current >= 0 && current < m_tabs->count())
            m_tabs->setCurrentIndex(current);
    }
}

void MainWindow::rememberDocument(DocumentWidget* doc)
{
    if (!m_remember)
        return;
    WindowMemory::restoreSplitters(*doc);
    connect(doc, &DocumentWidget::loaded, this, [doc] {
        // Before anyone listening to documentLoaded (--page, --select) chooses a page of their own.
        const int page = WindowMemory::lastPage(doc->path());
        if (doc->state() == DocumentWidget::State::Loaded && page >= DocumentWidget::SummaryPage &&
            page <= DocumentWidget::ScanPage)
            doc->showPage(static_cast<DocumentWidget::Page>(page));
    });
    // The pages only change once the document is loaded, so the first change is the restore
    // above (storing what was read) or the user's choice.
    connect(doc, &DocumentWidget::pageChanged, doc,
            [doc](DocumentWidget::Page p) { WindowMemory::setLastPage(doc->path(), p); });
}

void MainWindow::rememberOnClose()
{
    if (!m_remember)
        return;
    WindowMemory::saveWindow(*this);
    if (DocumentWidget* doc = currentDocument())
        WindowMemory::saveSplitters(*doc);
    // Only models reopen: another view (a comparison) is not a path to open again.
    QStringList paths;
    int current = -1;
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (DocumentWidget* doc = document(i)) {
            if (i == m_tabs->currentIndex())
                current = static_cast<int>(paths.size());
            paths << doc->path();
        }
    }
    WindowMemory::saveSession(paths, current);
}

QList<QAction*> MainWindow::shortcutActions() const
{
    // The menus' actions in menu order, then any other action of the window with a shortcut.
    QList<QAction*> actions;
    const std::function<void(const QList<QAction*>&)> collect = [&](const QList<QAction*>& list) {
        for (QAction* a : list) {
            if (a->menu())
                collect(a->menu()->actions());
            else if (!a->shortcuts().isEmpty() && !actions.contains(a))
                actions << a;
        }
    };
    collect(menuBar()->actions());
    const auto all = findChildren<QAction*>();
    for (QAction* a : all) {
        if (!a->shortcuts().isEmpty() && !actions.contains(a))
            actions << a;
    }
    return actions;
}

void MainWindow::showShortcuts()
{
    auto* dialog = new ShortcutsDialog(shortcutActions(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

} // namespace ts::ui
