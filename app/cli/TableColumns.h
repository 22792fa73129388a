#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <span>

namespace ts::cli {

// Left-aligned text columns measured row by row and then written row by row, so a listing need
// not hold its rows (`ls` measures with it and writes its own UTF-8 lines to the widths).
// Every cell goes through terminalSafe(): pass raw values. Widths are terminal columns
// (terminalWidth(): a CJK character takes two, a combining accent none), not UTF-16 units.
class TableColumns {
public:
    void measure(std::span<const QString> row);
    void measure(const QStringList& row) { measure(cells(row)); }
    // Widens a column to `width` columns, for a caller that knows a cell's width without
    // making its text.
    void widen(std::size_t column, qsizetype width);
    // A column's width in terminal columns: for a caller that writes its own lines (ls writes UTF-8).
    qsizetype width(std::size_t column) const { return m_widths.value(static_cast<qsizetype>(column)); }
    // Appends one line, no newline: each cell but the last padded to its column's width plus two.
    void appendLine(QString& out, std::span<const QString> row) const;
    QString line(const QStringList& row) const;

private:
    static std::span<const QString> cells(const QStringList& row)
    {
        return {row.constData(), static_cast<std::size_t>(row.size())};
    }
    QList<qsizetype> m_widths;
};

} // namespace ts::cli
