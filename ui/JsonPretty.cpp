#include "JsonPretty.h"

#include <QJsonDocument>
#include <QJsonParseError>
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

// When the array opening at `open` holds only scalars, returns the index of its ']'; else -1.
qsizetype flatArrayEnd(const QByteArray& s, qsizetype open)
{
    for (qsizetype i = open + 1; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '"') {
            for (++i; i < s.size() && s[i] != '"'; ++i) {
                if (s[i] == '\\')
                    ++i;
            }
        } else if (c == ']') {
            return i;
        } else if (c == '[' || c == '{' || c == '}') {
            return -1;
        }
    }
    return -1;
}

} // namespace

QByteArray prettyJsonText(const QByteArray& json, int indent)
{
    QByteArray out;
    out.reserve(json.size() + json.size() / 2);
    int depth = 0;
    auto newline = [&] {
        out += '\n';
        out += QByteArray(qMax(0, depth) * indent, ' ');
    };
    qsizetype i = 0;
    while (i < json.size()) {
        const char c = json[i];
        if (c == '"') {
            // Copy the string verbatim, escapes included.
            const qsizetype start = i++;
            while (i < json.size() && json[i] != '"') {
                if (json[i] == '\\')
                    ++i;
                ++i;
            }
            ++i;
            out += json.mid(start, i - start);
            continue;
        }
        if (isSpace(c)) {
            ++i;
            continue;
        }
        if (c == '[') {
            // Shapes and offsets read best on one line: [4096, 4096].
            if (const qsizetype close = flatArrayEnd(json, i); close > 0) {
                out += '[';
                for (qsizetype j = i + 1; j < close; ++j) {
                    const char d = json[j];
                    if (d == '"') {
                        const qsizetype start = j++;
                        while (j < close && json[j] != '"') {
                            if (json[j] == '\\')
                                ++j;
                            ++j;
                        }
                        out += json.mid(start, j - start + 1);
                    } else if (d == ',') {
                        out += ", ";
                    } else if (!isSpace(d)) {
                        out += d;
                    }
                }
                out += ']';
                i = close + 1;
                continue;
            }
        }
        if (c == '{' || c == '[') {
            const qsizetype next = skipSpace(json, i + 1);
            if (next < json.size() && (json[next] == '}' || json[next] == ']')) {
                out += c;
                out += json[next];
                i = next + 1;
                continue;
            }
            out += c;
            ++depth;
            newline();
        } else if (c == '}' || c == ']') {
            --depth;
            newline();
            out += c;
        } else if (c == ',') {
            out += c;
            newline();
        } else if (c == ':') {
            out += ": ";
        } else {
            out += c;
        }
        ++i;
    }
    return out;
}

bool looksLikeJsonContainer(const QString& text)
{
    const QString t = text.trimmed();
    if (t.size() < 2 || !(t.startsWith(QLatin1Char('{')) || t.startsWith(QLatin1Char('['))))
        return false;
    QJsonParseError error{};
    QJsonDocument::fromJson(t.toUtf8(), &error);
    return error.error == QJsonParseError::NoError;
}

} // namespace ts::ui
