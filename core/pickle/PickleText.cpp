#include "pickle/PickleText.h"

#include "base/HexDigit.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

namespace ts::pickle {
namespace {

void appendUtf8(std::string& out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

} // namespace

std::optional<std::string> decodeQuotedString(std::string_view line)
{
    if (line.size() < 2 || line.front() != line.back() || (line.front() != '\'' && line.front() != '"'))
        return std::nullopt;
    const std::string_view body = line.substr(1, line.size() - 2);
    std::string out;
    out.reserve(body.size());
    for (std::size_t i = 0; i < body.size(); ++i) {
        const char c = body[i];
        if (c != '\\' || i + 1 == body.size()) {
            out += c;
            continue;
        }
        const char e = body[++i];
        switch (e) {
        case '\n':
            break; // a line continuation
        case '\\':
        case '\'':
        case '"':
            out += e;
            break;
        case 'a':
            out += '\a';
            break;
        case 'b':
            out += '\b';
            break;
        case 'f':
            out += '\f';
            break;
        case 'n':
            out += '\n';
            break;
        case 'r':
            out += '\r';
            break;
        case 't':
            out += '\t';
            break;
        case 'v':
            out += '\v';
            break;
        case 'x': {
            const int hi = i + 1 < body.size() ? hexDigitValue(body[i + 1]) : -1;
            const int lo = i + 2 < body.size() ? hexDigitValue(body[i + 2]) : -1;
            if (hi < 0 || lo < 0)
                return std::nullopt; // "invalid \x escape": escape_decode raises
            out += static_cast<char>(hi * 16 + lo);
            i += 2;
            break;
        }
        default:
            if (e >= '0' && e <= '7') {
                int v = e - '0';
                for (int k = 0; k < 2 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7'; ++k)
                    v = v * 8 + (body[++i] - '0');
                out += static_cast<char>(v & 0xFF);
            } else {
                out += '\\';
                out += e;
            }
        }
    }
    return out;
}

std::optional<std::string> decodeRawUnicodeEscape(std::string_view line)
{
    std::string out;
    out.reserve(line.size());
    for (std::size_t i = 0; i < line.size(); ++i) {
        const auto c = static_cast<unsigned char>(line[i]);
        if (c == '\\' && i + 1 < line.size() && (line[i + 1] == 'u' || line[i + 1] == 'U')) {
            const std::size_t digits = line[i + 1] == 'u' ? 4 : 8;
            if (i + 2 + digits > line.size())
                return std::nullopt; // "truncated \uXXXX escape"
            std::uint32_t cp = 0;
            for (std::size_t k = 0; k < digits; ++k) {
                const int h = hexDigitValue(line[i + 2 + k]);
                if (h < 0)
                    return std::nullopt;
                cp = cp * 16 + static_cast<std::uint32_t>(h);
            }
            if (cp > 0x10FFFF)
                return std::nullopt;
            appendUtf8(out, cp);
            i += 1 + digits;
        } else {
            appendUtf8(out, c);
        }
    }
    return out;
}

std::string latin1ToUtf8(std::string_view bytes)
{
    std::string out;
    out.reserve(bytes.size());
    for (char c : bytes)
        appendUtf8(out, static_cast<unsigned char>(c));
    return out;
}

std::optional<std::string> utf8ToLatin1(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            out += static_cast<char>(c);
        } else if ((c & 0xE0) == 0xC0 && i + 1 < text.size()) {
            const std::uint32_t cp = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(text[i + 1]) & 0x3Fu);
            if (cp > 0xFF)
                return std::nullopt;
            out += static_cast<char>(cp);
            ++i;
        } else {
            return std::nullopt;
        }
    }
    return out;
}

std::optional<DecimalInt> decodeDecimal(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    if (!text.empty() && text.back() == 'L')
        text.remove_suffix(1);
    bool negative = false;
    if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
        negative = text.front() == '-';
        text.remove_prefix(1);
    }
    if (text.empty())
        return std::nullopt;
    // Magnitude as little-endian base-256 digits: multiply by ten and add, digit by digit.
    std::vector<std::uint8_t> mag;
    for (char c : text) {
        if (c == '_')
            continue;
        if (c < '0' || c > '9')
            return std::nullopt;
        unsigned carry = static_cast<unsigned>(c - '0');
        for (std::uint8_t& b : mag) {
            const unsigned v = b * 10u + carry;
            b = static_cast<std::uint8_t>(v & 0xFF);
            carry = v >> 8;
        }
        while (carry) {
            mag.push_back(static_cast<std::uint8_t>(carry & 0xFF));
            carry >>= 8;
        }
        if (mag.size() > 4096)
            return std::nullopt; // a 10,000-digit integer is no checkpoint's
    }
    DecimalInt r;
    // Two's complement: one spare byte for the sign, negated when negative.
    mag.push_back(0);
    if (negative) {
        unsigned carry = 1;
        for (std::uint8_t& b : mag) {
            const unsigned v = static_cast<std::uint8_t>(~b) + carry;
            b = static_cast<std::uint8_t>(v & 0xFF);
            carry = v >> 8;
        }
    }
    const std::string bytes(reinterpret_cast<const char*>(mag.data()), mag.size());
    if (littleEndianFitsInt64(bytes)) {
        r.fits = true;
        r.value = littleEndianToInt64(bytes);
    } else {
        r.littleEndian = bytes;
    }
    return r;
}

std::optional<double> decodeFloat(std::string_view text)
{
    while (!text.empty() && (text.back() == ' ' || text.back() == '\r'))
        text.remove_suffix(1);
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    if (text == "inf" || text == "+inf")
        return std::numeric_limits<double>::infinity();
    if (text == "-inf")
        return -std::numeric_limits<double>::infinity();
    if (text == "nan" || text == "-nan" || text == "+nan")
        return std::numeric_limits<double>::quiet_NaN();
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return v;
}

bool littleEndianFitsInt64(std::string_view bytes)
{
    if (bytes.size() <= 8)
        return true;
    // Longer encodings fit when the extra bytes only repeat the sign.
    const auto sign = static_cast<unsigned char>(bytes[7]) & 0x80 ? '\xFF' : '\0';
    for (std::size_t i = 8; i < bytes.size(); ++i) {
        if (bytes[i] != sign)
            return false;
    }
    return true;
}

std::int64_t littleEndianToInt64(std::string_view bytes)
{
    if (bytes.empty())
        return 0;
    const std::size_t n = bytes.size() < 8 ? bytes.size() : 8;
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i)
        v |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * i);
    if (n < 8 && (static_cast<unsigned char>(bytes[n - 1]) & 0x80))
        v |= ~0ull << (8 * n); // sign-extend
    return static_cast<std::int64_t>(v);
}

} // namespace ts::pickle
