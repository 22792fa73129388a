#include "window/WindowMemory.h"

#include <QMainWindow>
#include <QSettings>
#include <QSplitter>

namespace ts::ui {
namespace {

const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");
const QString kSplitters = QStringLiteral("splitters/");
// A list of [path, page] pairs, newest first: QSettings keys cannot hold arbitrary paths
// (slashes make groups), and a list keeps the bound and the order in one value.
const QString kPages = QStringLiteral("documents/lastPages");
const QString kSessionPaths = QStringLiteral("session/paths");
const QString kSessionCurrent = QStringLiteral("session/current");
const QString kReopen = QStringLiteral("session/reopenTabs");

} // namespace

void WindowMemory::saveWindow(const QMainWindow& window)
{
    QSettings settings;
    settings.setValue(kGeometry, window.saveGeometry());
    settings.setValue(kState, window.saveState());
}

bool WindowMemory::restoreWindow(QMainWindow& window)
{
    const QSettings settings;
    const QByteArray geometry = settings.value(kGeometry).toByteArray();
    if (geometry.isEmpty())
        return false;
    // restoreGeometry() keeps the window on a screen that exists now, and restores maximized.
    window.restoreGeometry(geometry);
    window.restoreState(settings.value(kState).toByteArray());
    return true;
}

void WindowMemory::saveSplitters(const QWidget& root)
{
    QSettings settings;
    const auto splitters = root.findChildren<QSplitter*>();
    for (const QSplitter* splitter : splitters) {
        if (!splitter->objectName().isEmpty())
            settings.setValue(kSplitters + splitter->objectName(), splitter->saveState());
    }
}

void WindowMemory::restoreSplitters(QWidget& root)
{
    const QSettings settings;
    const auto splitters = root.findChildren<QSplitter*>();
    for (QSplitter* splitter : splitters) {
        if (splitter->objectName().isEmpty())
            continue;
        const QByteArray state = settings.value(kSplitters + splitter->objectName()).toByteArray();
        // Marked so a view's own default split (TensorBrowser) does not override the user's.
        if (!state.isEmpty() && splitter->restoreState(state))
            splitter->setProperty("restored", true);
    }
}

int WindowMemory::lastPage(const QString& canonicalPath)
{
    const QVariantList pages = QSettings().value(kPages).toList();
    for (const QVariant& entry : pages) {
        const QVariantList pair = entry.toList();
        if (pair.size() == 2 && pair[0].toString() == canonicalPath)
            return pair[1].toInt();
    }
    return -1;
}

void WindowMemory::setLastPage(const QString& canonicalPath, int page)
{
    QSettings settings;
    QVariantList pages = settings.value(kPages).toList();
    pages.removeIf([&](const QVariant& entry) {
        const QVariantList pair = entry.toList();
        return pair.isEmpty() || pair[0].toString() == canonicalPath;
    });
    pages.prepend(QVariantList{canonicalPath, page});
    while (pages.size() > kMaxPages)
        pages.removeLast();
    settings.setValue(kPages, pages);
}

void WindowMemory::saveSession(const QStringList& paths, int current)
{
    QSettings settings;
    settings.setValue(kSessionPaths, paths);
    settings.setValue(kSessionCurrent, current);
}

QStringList WindowMemory::sessionPaths()
{
    return QSettings().value(kSessionPaths).toStringList();
}

int WindowMemory::sessionCurrent()
{
    return QSettings().value(kSessionCurrent, 0).toInt();
}

bool WindowMemory::reopensTabs()
{
    return QSettings().value(kReopen, false).toBool();
}

void WindowMemory::setReopensTabs(bool on)
{
    QSettings().setValue(kReopen, on);
}

} // namespace ts::ui
