#include "format/JsonSyntax.h"

#include <string_view>
#include <vector>

namespace ts {
namespace {

// One pass over UTF-16 text. Everything JSON gives meaning to is ASCII, so the text never needs
// converting; the container stack is the only memory, one byte per open level.
class JsonChecker {
public:
    JsonChecker(QStringView text, int maxDepth) : m_text(text), m_maxDepth(maxDepth) {}

    bool run()
    {
        skipSpace();
        for (;;) {
            if (!value())
                return false;
            // After a value: close containers or move to the next element.
            for (;;) {
                skipSpace();
                if (m_open.empty())
                    return m_pos == m_text.size();
                const char16_t c = peek();
                if (c == u',') {
                    ++m_pos;
                    skipSpace();
                    if (m_open.back() == u'{' && !memberName())
                        return false;
                    break;
                }
                if ((c == u']' && m_open.back() == u'[') || (c == u'}' && m_open.back() == u'{')) {
                    ++m_pos;
                    m_open.pop_back();
                    continue;
                }
                return false;
            }
        }
    }

private:
    char16_t peek() const { return m_pos < m_text.size() ? m_text[m_pos].unicode() : u'\0'; }

    void skipSpace()
    {
        while (m_pos < m_text.size()) {
            const char16_t c = m_text[m_pos].unicode();
            if (c != u' ' && c != u'\t' && c != u'\n' && c != u'\r')
                return;
            ++m_pos;
        }
    }

    // A scalar, or containers opened down to their first scalar or empty container.
    bool value()
    {
        for (;;) {
            const char16_t c = peek();
            if (c == u'[' || c == u'{') {
                if (static_cast<int>(m_open.size()) >= m_maxDepth)
                    return false;
                ++m_pos;
                skipSpace();
                if (peek() == (c == u'[' ? u']' : u'}')) {
                    ++m_pos;
                    return true;
                }
                m_open.push_back(c);
                if (c == u'{' && !memberName())
                    return false;
                continue;
            }
            if (c == u'"')
                return string();
            if (c == u'-' || (c >= u'0' && c <= u'9'))
                return number();
            return literal(u"true") || literal(u"false") || literal(u"null");
        }
    }

    // `"name" :` with the whitespace after the colon.
    bool memberName()
    {
        if (peek() != u'"' || !string())
            return false;
        skipSpace();
        if (peek() != u':')
            return false;
        ++m_pos;
        skipSpace();
        return true;
    }

    // As lenient as Qt's parser, which the metadata editor checks with: raw control characters
    // and unknown escapes are taken as they are; only \u needs its four hex digits.
    bool string()
    {
        ++m_pos; // the opening quote
        while (m_pos < m_text.size()) {
            const char16_t c = m_text[m_pos++].unicode();
            if (c == u'"')
                return true;
            if (c != u'\\')
                continue;
            if (m_pos >= m_text.size())
                return false;
            if (m_text[m_pos++].unicode() != u'u')
                continue;
            for (int i = 0; i < 4; ++i, ++m_pos) {
                const char16_t h = peek();
                if (!((h >= u'0' && h <= u'9') || (h >= u'a' && h <= u'f') || (h >= u'A' && h <= u'F')))
                    return false;
            }
        }
        return false;
    }

    bool digits()
    {
        const qsizetype start = m_pos;
        while (peek() >= u'0' && peek() <= u'9')
            ++m_pos;
        return m_pos > start;
    }

    bool number()
    {
        const qsizetype start = m_pos;
        if (peek() == u'-')
            ++m_pos;
        if (peek() == u'0')
            ++m_pos;
        else if (!digits())
            return false;
        if (peek() == u'.') {
            ++m_pos;
            if (!digits())
                return false;
        }
        if (peek() == u'e' || peek() == u'E') {
            ++m_pos;
            if (peek() == u'+' || peek() == u'-')
                ++m_pos;
            if (!digits())
                return false;
        }
        // Qt refuses a number a double cannot hold (1e400, and 1e-400 that would become 0).
        bool ok = false;
        (void)m_text.sliced(start, m_pos - start).toDouble(&ok);
        return ok;
    }

    bool literal(std::u16string_view word)
    {
        if (m_text.mid(m_pos).startsWith(QStringView(word.data(), static_cast<qsizetype>(word.size())))) {
            m_pos += static_cast<qsizetype>(word.size());
            return true;
        }
        return false;
    }

    QStringView m_text;
    int m_maxDepth;
    qsizetype m_pos = 0;
    std::vector<char16_t> m_open;
};

} // namespace

bool isJsonText(QStringView text, int maxDepth)
{
    return JsonChecker(text, maxDepth).run();
}

} // namespace ts
