#include "report/HtmlText.h"

#include "base/Format.h"
#include "base/TerminalText.h"

namespace ts::html {

namespace {

QString escapeMarkup(const QString& safe)
{
    QString out;
    out.reserve(safe.size() + safe.size() / 8);
    for (QChar c : safe) {
        switch (c.unicode()) {
        case u'&':
            out += QLatin1String("&amp;");
            break;
        case u'<':
            out += QLatin1String("&lt;");
            break;
        case u'>':
            out += QLatin1String("&gt;");
            break;
        case u'"':
            out += QLatin1String("&quot;");
            break;
        case u'\'':
            out += QLatin1String("&#39;");
            break;
        default:
            out += c;
        }
    }
    return out;
}

} // namespace

QString text(const QString& value)
{
    return escapeMarkup(terminalSafe(value));
}

QString lines(const QString& value, qsizetype maxChars)
{
    return escapeMarkup(terminalSafeLines(elideText(value, maxChars)));
}

QString cut(const QString& value, qsizetype maxChars)
{
    return text(elideText(value, maxChars));
}

QString grouped(std::uint64_t n)
{
    return formatGrouped(n);
}

} // namespace ts::html
