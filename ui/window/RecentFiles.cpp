#include "window/RecentFiles.h"

#include <QSettings>

namespace ts::ui {
namespace {

const QString kKey = QStringLiteral("recentFiles");

void store(const QStringList& paths)
{
    QSettings().setValue(kKey, paths);
}

} // namespace

QStringList RecentFiles::paths()
{
    return QSettings().value(kKey).toStringList();
}

void RecentFiles::add(const QString& path)
{
    QStringList list = paths();
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > kMaxEntries)
        list.removeLast();
    store(list);
}

void RecentFiles::remove(const QString& path)
{
    QStringList list = paths();
    list.removeAll(path);
    store(list);
}

void RecentFiles::clear()
{
    store({});
}

} // namespace ts::ui
