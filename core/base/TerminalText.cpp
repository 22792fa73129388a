#include "base/TerminalText.h"

namespace ts {
namespace {

bool isHazard(char16_t c)
{
    return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029 ||
           (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

void appendEscape(QString& out, char16_t c)
{
    static const char hex[] = "0123456789abcdef";
    switch (c) {
    case u'\t':
        out += QLatin1String("\\t");
        return;
    case u'\n':
        out += QLatin1String("\\n");
        return;
    case u'\r':
        out += QLatin1String("\\r");
        return;
    default:
        break;
    }
    if (c < 0x80) {
        out += QLatin1String("\\x");
        out += QLatin1Char(hex[c >> 4]);
        out += QLatin1Char(hex[c & 15]);
        return;
    }
    // \u: U+0085 is two bytes in UTF-8, so \x85 would name the wrong thing.
    out += QLatin1String("\\u");
    for (int shift = 12; shift >= 0; shift -= 4)
        out += QLatin1Char(hex[(c >> shift) & 15]);
}

bool needsEscape(char16_t c, bool keepLines)
{
    return keepLines ? c != u'\n' && isHazard(c) : c == u'\\' || isHazard(c);
}

qsizetype firstToEscape(QStringView text, bool keepLines)
{
    qsizetype first = 0;
    const char16_t* chars = text.utf16();
    const qsizetype size = text.size();
    // Nearly every name is printable ASCII without a backslash: eight characters at a time, without
    // a branch per character (the compiler makes it a vector compare), before the full test.
    const auto plain = [](char16_t c) {
        return static_cast<unsigned>(static_cast<char16_t>(c - 0x20) < 0x5f) &
               static_cast<unsigned>(c != u'\\');
    };
    while (first + 8 <= size) {
        unsigned all = 1;
        for (int k = 0; k < 8; ++k)
            all &= plain(chars[first + k]);
        if (!all)
            break;
        first += 8;
    }
    while (first < size && !needsEscape(chars[first], keepLines))
        ++first;
    return first;
}

QString escape(QStringView text, bool keepLines)
{
    const auto needs = [keepLines](char16_t c) { return needsEscape(c, keepLines); };
    const qsizetype first = firstToEscape(text, keepLines);
    if (first == text.size())
        return text.toString(); // the common case: nothing to escape
    QString out;
    out.reserve(text.size() + 16);
    out += text.left(first);
    for (qsizetype i = first; i < text.size(); ++i) {
        const char16_t c = text[i].unicode();
        if (!needs(c))
            out += QChar(c);
        else if (c == u'\\')
            out += QLatin1String("\\\\");
        else
            appendEscape(out, c);
    }
    return out;
}

} // namespace

QString terminalSafe(QStringView value)
{
    return escape(value, false);
}

QString terminalSafe(const QString& value)
{
    // Shared, not copied, when there is nothing to escape: a listing of millions of names.
    return firstToEscape(value, false) == value.size() ? value : escape(value, false);
}

QString terminalSafeLines(QStringView text)
{
    return escape(text, true);
}

QString terminalSafeLines(const QString& text)
{
    return firstToEscape(text, true) == text.size() ? text : escape(text, true);
}

} // namespace ts
