#include "HelpText.h"

#include <QStringList>

namespace ts::docs {

QString HelpText::wrap(const QString& text, qsizetype indent, qsizetype column)
{
    QString result;
    bool lineStart = true;
    for (const QString& word : text.split(u' ', Qt::SkipEmptyParts)) {
        if (!lineStart && column + 1 + word.size() > kWidth) {
            result += u'\n' + QString(indent, u' ');
            column = indent;
            lineStart = true;
        }
        if (!lineStart) {
            result += u' ';
            ++column;
        }
        result += word;
        column += word.size();
        lineStart = false;
    }
    return result;
}

QString HelpText::row(const QString& term, const QString& text)
{
    QString start = QStringLiteral("  ") + term;
    if (start.size() + 2 > kTermColumn)
        start += u'\n' + QString(kTermColumn, u' ');
    else
        start = start.leftJustified(kTermColumn);
    return start + wrap(text, kTermColumn, kTermColumn) + u'\n';
}

} // namespace ts::docs
