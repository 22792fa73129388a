#pragma once

#include <QStringList>

namespace ts::ui {

// The most recently opened paths, newest first, kept in QSettings.
class RecentFiles {
public:
    static constexpr int kMaxEntries = 12;

    static QStringList paths();
    static void add(const QString& path);
    static void remove(const QString& path);
    static void clear();
};

} // namespace ts::ui
