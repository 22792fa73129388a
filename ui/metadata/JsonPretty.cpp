#include "metadata/JsonPretty.h"

#include "base/Format.h"
#include "format/JsonSyntax.h"

#include <QString>

namespace ts::ui {
namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// Index of the next non-whitespace byte at or after i.
qsizetype skipSpace(const QByteArray& s, qsizetype i)
{
    while (i < s.size() && isSpace(s[i]))
        ++i;
    return i;
}

// Index just past the string whose opening quote is at `open` (or the end of `s`).
qsizetype stringEnd(const QByteArray& s, qsizetype open, qsizetype limit)
{
    qsizetype i = open + 1;
    while (i < limit && s[i] != '"') {
        if (s[i] == '\\')
            ++i;
        ++i;
    }
    return std::min(i + 1, limit);
}

// When the array opening at `open` holds only scalars, returns the index of its ']' (the end of
// the text when that is cut off first: a shape cut at the read limit stays one line); else -1.
qsizetype flatArrayEnd(const QByteArray& s, qsizetype open)
{
    for (qsizetype i = open + 1; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '"') {
            i = stringEnd(s, i, s.size()) - 1;
        } else if (c == ']') {
            return i;
        } else if (c == '[' || c == '{' || c == '}') {
            return -1;
        }
    }
    return s.size();
}

// The output with its two bounds: each line is clipped (and says by how much) and the whole
// stops growing at kPrettyJsonMaxBytes.
class PrettyWriter {
public:
    explicit PrettyWriter(int indent, qsizetype reserve) : m_indent(indent)
    {
        m_out.reserve(std::min(reserve, kPrettyJsonMaxBytes + kPrettyJsonMaxLineBytes));
    }

    bool full() const { return m_full; }

    void put(char c) { put(&c, 1); }
    void put(const QByteArray& s, qsizetype from, qsizetype n) { put(s.constData() + from, n); }
    void put(const char* p, qsizetype n)
    {
        if (m_clipped > 0) {
            m_clipped += n;
            return;
        }
        const qsizetype room = kPrettyJsonMaxLineBytes - (m_out.size() - m_lineStart);
        if (n <= room) {
            m_out.append(p, n);
            return;
        }
        qsizetype take = std::max<qsizetype>(0, room);
        // Not inside a UTF-8 sequence: back up to the lead byte of the character cut in two.
        while (take > 0 && take < n && (static_cast<unsigned char>(p[take]) & 0xC0) == 0x80)
            --take;
        m_out.append(p, take);
        m_clipped = n - take;
        m_clippedLines = true;
    }

    void newline(int depth)
    {
        endLine();
        if (m_out.size() >= kPrettyJsonMaxBytes || ++m_lines >= kPrettyJsonMaxLines) {
            m_full = true;
            return;
        }
        m_out += '\n';
        m_lineStart = m_out.size();
        m_deepNesting = m_deepNesting || depth > kPrettyJsonMaxIndentLevels;
        m_out.append(qBound(0, depth, kPrettyJsonMaxIndentLevels) * m_indent, ' ');
    }

    PrettyJson finish(qsizetype consumed, qsizetype total)
    {
        endLine();
        consumed = std::min(consumed, total);
        if (consumed < total) {
            m_out += QStringLiteral("\n\u2026 too large to show: the text stops here, after %1 of %2 bytes.")
                         .arg(formatGrouped(static_cast<std::uint64_t>(consumed)),
                              formatGrouped(static_cast<std::uint64_t>(total)))
                         .toUtf8();
        }
        return PrettyJson{std::move(m_out), consumed < total, m_clippedLines, m_deepNesting};
    }

private:
    void endLine()
    {
        if (m_clipped > 0) {
            m_out += QStringLiteral(" \u2026 (%1 more bytes on this line)")
                         .arg(formatGrouped(static_cast<std::uint64_t>(m_clipped)))
                         .toUtf8();
            m_clipped = 0;
        }
    }

    int m_indent;
    QByteArray m_out;
    qsizetype m_lineStart = 0;
    qsizetype m_lines = 1;
    qsizetype m_clipped = 0; // bytes of the current line left out
    bool m_full = false;
    bool m_clippedLines = false;
    bool m_deepNesting = false;
};

} // namespace

PrettyJson prettyJson(const QByteArray& json, int indent)
{
    PrettyWriter out(indent, json.size() + json.size() / 2);
    int depth = 0;
    qsizetype i = 0;
    while (i < json.size() && !out.full()) {
        const char c = json[i];
        if (c == '"') {
            // Copy the string verbatim, escapes included.
            const qsizetype end = stringEnd(json, i, json.size());
            out.put(json, i, end - i);
            i = end;
            continue;
        }
        if (isSpace(c)) {
            ++i;
            continue;
        }
        if (c == '[') {
            // Shapes and offsets read best on one line: [4096, 4096].
            if (const qsizetype close = flatArrayEnd(json, i); close > 0) {
                out.put('[');
                for (qsizetype j = i + 1; j < close; ++j) {
                    const char d = json[j];
                    if (d == '"') {
                        const qsizetype end = stringEnd(json, j, close);
                        out.put(json, j, end - j);
                        j = end - 1;
                    } else if (d == ',') {
                        out.put(", ", 2);
                    } else if (!isSpace(d)) {
                        out.put(d);
                    }
                }
                if (close < json.size())
                    out.put(']');
                i = close + 1;
                continue;
            }
        }
        if (c == '{' || c == '[') {
            const qsizetype next = skipSpace(json, i + 1);
            if (next < json.size() && (json[next] == '}' || json[next] == ']')) {
                out.put(c);
                out.put(json[next]);
                i = next + 1;
                continue;
            }
            out.put(c);
            ++depth;
            out.newline(depth);
        } else if (c == '}' || c == ']') {
            --depth;
            out.newline(depth);
            out.put(c);
        } else if (c == ',') {
            out.put(c);
            out.newline(depth);
        } else if (c == ':') {
            out.put(": ", 2);
        } else {
            out.put(c);
        }
        ++i;
    }
    return out.finish(i, json.size());
}

bool looksLikeJsonContainer(const QString& text)
{
    const QStringView t = QStringView(text).trimmed();
    if (t.size() < 2 || !(t.startsWith(QLatin1Char('{')) || t.startsWith(QLatin1Char('['))))
        return false;
    return isJsonText(t);
}

} // namespace ts::ui
