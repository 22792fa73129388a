#include "format/JsonNumberNormalizer.h"

#include <cstring>
#include <string_view>

namespace ts {
namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// True when the integer token (optional '-', then digits) does not fit serde_json's integer
// types: u64 for non-negative, i64 for negative.
bool integerOutOfRange(std::string_view token)
{
    const bool negative = !token.empty() && token.front() == '-';
    std::string_view digits = negative ? token.substr(1) : token;
    const std::string_view limit =
        negative ? std::string_view("9223372036854775808") : std::string_view("18446744073709551615");
    if (digits.size() != limit.size())
        return digits.size() > limit.size();
    return digits > limit;
}

} // namespace

bool mayContainNegativeZero(const char* json, std::size_t size)
{
    // memchr is much faster than memmem for a two-byte needle; '-' is rare outside names.
    const char* end = json + size;
    for (const char* p = json; p < end;) {
        p = static_cast<const char*>(std::memchr(p, '-', static_cast<std::size_t>(end - p)));
        if (!p || p + 1 >= end)
            return false;
        if (p[1] == '0')
            return true;
        ++p;
    }
    return false;
}

std::optional<QByteArray> normalizeJsonNumbers(const char* json, std::size_t size)
{
    QByteArray out;
    bool changed = false;
    std::size_t copiedUpTo = 0;
    bool inString = false;
    std::size_t i = 0;
    while (i < size) {
        const char c = json[i];
        if (inString) {
            if (c == '\\')
                i += 2;
            else {
                if (c == '"')
                    inString = false;
                ++i;
            }
            continue;
        }
        if (c == '"') {
            inString = true;
            ++i;
            continue;
        }
        if (c != '-' && !isDigit(c)) {
            ++i;
            continue;
        }
        // A number token: find its extent and whether it is an integer.
        const std::size_t start = i;
        ++i;
        bool integer = true;
        while (i < size && (isDigit(json[i]) || json[i] == '.' || json[i] == 'e' || json[i] == 'E' ||
                            json[i] == '+' || json[i] == '-')) {
            if (!isDigit(json[i]))
                integer = false;
            ++i;
        }
        if (!integer)
            continue;
        const std::string_view token(json + start, i - start);
        if (token == "-0" || integerOutOfRange(token)) {
            if (!changed)
                out.reserve(static_cast<qsizetype>(size + 16));
            out.append(json + copiedUpTo, static_cast<qsizetype>(i - copiedUpTo));
            out.append(".0");
            copiedUpTo = i;
            changed = true;
        }
    }
    if (!changed)
        return std::nullopt;
    out.append(json + copiedUpTo, static_cast<qsizetype>(size - copiedUpTo));
    return out;
}

} // namespace ts
