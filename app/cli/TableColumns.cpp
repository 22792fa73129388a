#include "TableColumns.h"

#include "base/TerminalText.h"

namespace ts::cli {

void TableColumns::measure(std::span<const QString> row)
{
    for (std::size_t i = 0; i < row.size(); ++i) {
        const auto column = static_cast<qsizetype>(i);
        if (m_widths.size() <= column)
            m_widths.append(0);
        m_widths[column] = std::max(m_widths[column], terminalWidth(terminalSafe(row[i])));
    }
}

void TableColumns::widen(std::size_t column, qsizetype width)
{
    const auto at = static_cast<qsizetype>(column);
    while (m_widths.size() <= at)
        m_widths.append(0);
    m_widths[at] = std::max(m_widths[at], width);
}

void TableColumns::appendLine(QString& out, std::span<const QString> row) const
{
    // Cells are escaped as they are measured and again as they are written, rather than kept:
    // terminalSafe() shares a cell that needs nothing. What it returns has nothing left for
    // terminalSafeLines() to escape, and only spaces are added.
    for (std::size_t i = 0; i < row.size(); ++i) {
        const QString cell = terminalSafe(row[i]);
        out += cell;
        if (i + 1 < row.size())
            out.resize(out.size() + std::max<qsizetype>(0, m_widths.value(static_cast<qsizetype>(i)) + 2 -
                                                               terminalWidth(cell)),
                       QLatin1Char(' '));
    }
}

QString TableColumns::line(const QStringList& row) const
{
    QString text;
    appendLine(text, cells(row));
    return text;
}

} // namespace ts::cli
