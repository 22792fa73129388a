#include "base/TerminalText.h"

#include <algorithm>
#include <iterator>

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

namespace {

// The ranges of East Asian Width W and F (Unicode 15 EastAsianWidth.txt, merged where adjacent
// and limited to blocks that are wide throughout), sorted for a binary search.
struct Range {
    char32_t first;
    char32_t last;
};
constexpr Range kWide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},   {0x23F0, 0x23F0},
    {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},   {0x2648, 0x2653},   {0x267F, 0x267F},
    {0x2693, 0x2693},   {0x26A1, 0x26A1},   {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},
    {0x26CE, 0x26CE},   {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},
    {0x26FA, 0x26FA},   {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},   {0x2728, 0x2728},
    {0x274C, 0x274C},   {0x274E, 0x274E},   {0x2753, 0x2755},   {0x2757, 0x2757},   {0x2795, 0x2797},
    {0x27B0, 0x27B0},   {0x27BF, 0x27BF},   {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},
    {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
    {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},
    {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4}, {0x17000, 0x18CFF}, {0x1AFF0, 0x1B2FF},
    {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251},
    {0x1F260, 0x1F265}, {0x1F300, 0x1F320}, {0x1F32D, 0x1F335}, {0x1F337, 0x1F37C}, {0x1F37E, 0x1F393},
    {0x1F3A0, 0x1F3CA}, {0x1F3CF, 0x1F3D3}, {0x1F3E0, 0x1F3F0}, {0x1F3F4, 0x1F3F4}, {0x1F3F8, 0x1F43E},
    {0x1F440, 0x1F440}, {0x1F442, 0x1F4FC}, {0x1F4FF, 0x1F53D}, {0x1F54B, 0x1F54E}, {0x1F550, 0x1F567},
    {0x1F57A, 0x1F57A}, {0x1F595, 0x1F596}, {0x1F5A4, 0x1F5A4}, {0x1F5FB, 0x1F64F}, {0x1F680, 0x1F6C5},
    {0x1F6CC, 0x1F6CC}, {0x1F6D0, 0x1F6D2}, {0x1F6D5, 0x1F6D7}, {0x1F6DC, 0x1F6DF}, {0x1F6EB, 0x1F6EC},
    {0x1F6F4, 0x1F6FC}, {0x1F7E0, 0x1F7EB}, {0x1F7F0, 0x1F7F0}, {0x1F90C, 0x1F93A}, {0x1F93C, 0x1F945},
    {0x1F947, 0x1F9FF}, {0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

bool isWide(char32_t c)
{
    const auto* it = std::upper_bound(std::begin(kWide), std::end(kWide), c,
                                      [](char32_t v, const Range& r) { return v < r.first; });
    return it != std::begin(kWide) && c <= (it - 1)->last;
}

int columnsOf(char32_t c)
{
    if (c < 0x300)
        return 1; // Latin, and the controls terminalSafe() has escaped already
    switch (QChar::category(c)) {
    case QChar::Mark_NonSpacing:
    case QChar::Mark_Enclosing:
    case QChar::Other_Format: // zero-width joiner and space, soft hyphen's kin, bidi marks
        return 0;
    default:
        break;
    }
    if (c >= 0x1160 && c <= 0x11FF)
        return 0; // Hangul vowels and finals join the leading consonant's two columns
    return isWide(c) ? 2 : 1;
}

} // namespace

qsizetype terminalWidth(QStringView text)
{
    qsizetype columns = 0;
    const qsizetype n = text.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar u = text[i];
        if (u.unicode() < 0x300) {
            ++columns;
            continue;
        }
        char32_t c = u.unicode();
        if (u.isHighSurrogate() && i + 1 < n && text[i + 1].isLowSurrogate())
            c = QChar::surrogateToUcs4(u, text[++i]);
        columns += columnsOf(c);
    }
    return columns;
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
