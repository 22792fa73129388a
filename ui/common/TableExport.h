#pragma once

#include <QByteArray>
#include <QString>

class QAbstractItemModel;
class QWidget;

namespace ts::ui {

// Results that leave the window: a table as CSV (what the view shows, in its order) and any bytes
// written atomically to a file the user picked.
class TableExport {
public:
    // RFC 4180 CSV of every row and column of `model` (its display text, header row first). A cell
    // that a spreadsheet would run as a formula (=, +, -, @, tab or CR first, and not a number) is
    // prefixed with ' : tensor names and metadata come from strangers' files.
    static QByteArray csv(const QAbstractItemModel& model);
    // Writes `bytes` to `path` through a temporary and a rename; an empty string, or the sentence
    // saying why not.
    static QString writeFile(const QString& path, const QByteArray& bytes);
    // Asks for a file name (`filter` as QFileDialog takes it) and writes `bytes` there, reporting a
    // failure in a message box. False when cancelled or failed.
    static bool saveAs(QWidget* parent, const QString& title, const QString& suggestedName,
                       const QString& filter, const QByteArray& bytes);
};

} // namespace ts::ui
