#include "window/FileOpenFilter.h"

#include "window/MainWindow.h"

#include <QCoreApplication>
#include <QFileOpenEvent>

namespace ts::ui {

FileOpenFilter::FileOpenFilter(QObject* parent) : QObject(parent)
{
    QCoreApplication::instance()->installEventFilter(this);
}

FileOpenFilter::~FileOpenFilter()
{
    if (QCoreApplication* app = QCoreApplication::instance())
        app->removeEventFilter(this);
}

void FileOpenFilter::setWindow(MainWindow* window)
{
    m_window = window;
    if (!m_window || m_pending.isEmpty())
        return;
    const QStringList paths = std::exchange(m_pending, {});
    m_window->openPaths(paths);
}

bool FileOpenFilter::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::FileOpen || watched != QCoreApplication::instance())
        return QObject::eventFilter(watched, event);
    const QString path = static_cast<QFileOpenEvent*>(event)->file();
    if (path.isEmpty())
        return false; // a URL, not a file: not ours
    if (!m_window) {
        m_pending << path;
        return true;
    }
    m_window->openPath(path);
    // Finder activates the application itself; the window only needs to come out of the Dock.
    m_window->setWindowState(m_window->windowState() & ~Qt::WindowMinimized);
    m_window->raise();
    m_window->activateWindow();
    return true;
}

} // namespace ts::ui
