#include "format/HeaderScanner.h"

#include "base/HexDigit.h"
#include "base/NameIndex.h"
#include "format/Dtype.h"
#include "format/NameArena.h"

#include <QHash>

#include <limits>

namespace ts {
namespace {

// Duplicate names send the header to the DOM reader, which owns their warnings.
bool hasDuplicateName(const std::vector<TensorInfo>& tensors)
{
    NameIndex index;
    index.reserve(tensors.size());
    const auto nameOf = [&](int i) -> const QString& { return tensors[static_cast<std::size_t>(i)].name; };
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        if (index.insert(tensors[i].name, static_cast<int>(i), nameOf) >= 0)
            return true;
    }
    return false;
}

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

} // namespace

// The token steps, inline: a 100 MB header takes them hundreds of millions of times.
inline void HeaderScanner::skipSpace()
{
    while (m_at < m_json.size() && isSpace(m_json[m_at]))
        ++m_at;
}

inline bool HeaderScanner::peek(char c)
{
    skipSpace();
    return m_at < m_json.size() && m_json[m_at] == c;
}

inline bool HeaderScanner::expect(char c)
{
    if (!peek(c))
        return false;
    ++m_at;
    return true;
}

std::optional<HeaderScanner::Scan> HeaderScanner::scan(std::string_view json, std::size_t listed)
{
    if (json.size() > std::numeric_limits<std::uint32_t>::max())
        return std::nullopt;
    HeaderScanner counting(json, nullptr);
    if (!counting.top())
        return std::nullopt;

    Scan result;
    result.tensors.reserve(counting.m_tensors);
    NameArena names(static_cast<qsizetype>(counting.m_nameBytes + counting.m_tensors));
    HeaderScanner filling(json, &result);
    filling.m_names = &names;
    filling.m_listed = listed;
    if (!filling.top() || result.tensors.size() != counting.m_tensors)
        return std::nullopt;
    if (hasDuplicateName(result.tensors))
        return std::nullopt;
    return result;
}

bool HeaderScanner::top()
{
    if (!expect('{'))
        return false;
    if (expect('}')) {
        skipSpace();
        return m_at == m_json.size();
    }
    do {
        std::string_view key;
        if (!plainString(key) || !expect(':'))
            return false;
        if (key == "__metadata__") {
            if (m_sawMetadata || !metadata())
                return false;
            m_sawMetadata = true;
        } else if (!tensorEntry(key)) {
            return false;
        }
    } while (expect(','));
    if (!expect('}'))
        return false;
    skipSpace();
    return m_at == m_json.size();
}

bool HeaderScanner::tensorEntry(std::string_view name)
{
    TensorInfo* info = nullptr;
    if (m_fill) {
        info = &m_fill->tensors.emplace_back();
        info->name = m_names->add(name);
        if (info->name.isNull())
            return false;
    } else {
        ++m_tensors;
        m_nameBytes += name.size();
    }
    if (peek('['))
        return tensorArray(info);
    return tensorObject(info);
}

bool HeaderScanner::tensorObject(TensorInfo* info)
{
    if (!expect('{'))
        return false;
    bool haveDtype = false, haveShape = false, haveOffsets = false;
    do {
        std::string_view key;
        if (!plainString(key) || !expect(':'))
            return false;
        bool ok = false;
        if (key == "dtype" && !haveDtype)
            ok = haveDtype = dtype(info);
        else if (key == "shape" && !haveShape)
            ok = haveShape = shape(info);
        else if (key == "data_offsets" && !haveOffsets)
            ok = haveOffsets = offsets(info);
        if (!ok)
            return false;
    } while (expect(','));
    return expect('}') && haveDtype && haveShape && haveOffsets;
}

bool HeaderScanner::tensorArray(TensorInfo* info)
{
    if (!expect('[') || !dtype(info) || !expect(',') || !shape(info) || !expect(',') || !offsets(info) ||
        !expect(']'))
        return false;
    if (m_fill) {
        if (m_fill->firstArrayForms.size() < m_listed)
            m_fill->firstArrayForms.push_back(m_fill->tensors.size() - 1);
        ++m_fill->arrayForms;
    }
    return true;
}

bool HeaderScanner::dtype(TensorInfo* info)
{
    std::string_view text;
    if (!plainString(text))
        return false;
    const auto d = dtypeFromName(text);
    if (!d)
        return false;
    if (info)
        info->dtype = *d;
    return true;
}

bool HeaderScanner::shape(TensorInfo* info)
{
    if (!expect('['))
        return false;
    if (expect(']'))
        return true;
    do {
        std::uint64_t d = 0;
        if (!number(d))
            return false;
        if (info)
            info->shape.push_back(d);
    } while (expect(','));
    return expect(']');
}

bool HeaderScanner::offsets(TensorInfo* info)
{
    std::uint64_t begin = 0, end = 0;
    if (!expect('[') || !number(begin) || !expect(',') || !number(end) || !expect(']'))
        return false;
    if (info) {
        info->begin = begin;
        info->end = end;
    }
    return true;
}

bool HeaderScanner::number(std::uint64_t& value)
{
    skipSpace();
    const std::size_t start = m_at;
    std::uint64_t v = 0;
    while (m_at < m_json.size() && m_json[m_at] >= '0' && m_json[m_at] <= '9') {
        if (__builtin_mul_overflow(v, 10, &v) ||
            __builtin_add_overflow(v, static_cast<std::uint64_t>(m_json[m_at] - '0'), &v))
            return false; // serde reads it as a float: the DOM reader words that error
        ++m_at;
    }
    const std::size_t digits = m_at - start;
    if (digits == 0 || (digits > 1 && m_json[start] == '0'))
        return false;
    // A fraction or an exponent makes it a float.
    if (m_at < m_json.size() && (m_json[m_at] == '.' || m_json[m_at] == 'e' || m_json[m_at] == 'E'))
        return false;
    value = v;
    return true;
}

bool HeaderScanner::plainString(std::string_view& text)
{
    if (!expect('"'))
        return false;
    const std::size_t start = m_at;
    while (m_at < m_json.size()) {
        const auto c = static_cast<unsigned char>(m_json[m_at]);
        if (c == '"') {
            text = m_json.substr(start, m_at - start);
            ++m_at;
            return true;
        }
        if (c == '\\' || c < 0x20)
            return false;
        ++m_at;
    }
    return false;
}

bool HeaderScanner::anyString(QString* text)
{
    if (!expect('"'))
        return false;
    std::string_view plain;
    const std::size_t start = m_at;
    // Most metadata strings have no escapes; those that do are decoded into UTF-8 first.
    std::string decoded;
    bool escaped = false;
    std::size_t runStart = start;
    while (m_at < m_json.size()) {
        const auto c = static_cast<unsigned char>(m_json[m_at]);
        if (c == '"') {
            if (escaped)
                decoded.append(m_json.substr(runStart, m_at - runStart));
            else
                plain = m_json.substr(start, m_at - start);
            ++m_at;
            if (text) {
                const std::string_view utf8 = escaped ? std::string_view(decoded) : plain;
                *text = QString::fromUtf8(utf8.data(), static_cast<qsizetype>(utf8.size()));
            }
            return true;
        }
        if (c < 0x20)
            return false;
        if (c != '\\') {
            ++m_at;
            continue;
        }
        escaped = true;
        decoded.append(m_json.substr(runStart, m_at - runStart));
        if (m_at + 1 >= m_json.size())
            return false;
        const char e = m_json[m_at + 1];
        m_at += 2;
        switch (e) {
        case '"':
            decoded += '"';
            break;
        case '\\':
            decoded += '\\';
            break;
        case '/':
            decoded += '/';
            break;
        case 'b':
            decoded += '\b';
            break;
        case 'f':
            decoded += '\f';
            break;
        case 'n':
            decoded += '\n';
            break;
        case 'r':
            decoded += '\r';
            break;
        case 't':
            decoded += '\t';
            break;
        case 'u': {
            if (m_at + 4 > m_json.size())
                return false;
            std::uint32_t unit = 0;
            for (int i = 0; i < 4; ++i) {
                const int h = hexDigitValue(m_json[m_at + static_cast<std::size_t>(i)]);
                if (h < 0)
                    return false;
                unit = unit * 16 + static_cast<std::uint32_t>(h);
            }
            m_at += 4;
            // Surrogates (paired or not) and NUL are left to the DOM reader and Qt's decoder.
            if (unit == 0 || (unit >= 0xD800 && unit <= 0xDFFF))
                return false;
            if (unit < 0x80) {
                decoded += static_cast<char>(unit);
            } else if (unit < 0x800) {
                decoded += static_cast<char>(0xC0 | (unit >> 6));
                decoded += static_cast<char>(0x80 | (unit & 0x3F));
            } else {
                decoded += static_cast<char>(0xE0 | (unit >> 12));
                decoded += static_cast<char>(0x80 | ((unit >> 6) & 0x3F));
                decoded += static_cast<char>(0x80 | (unit & 0x3F));
            }
            break;
        }
        default:
            return false;
        }
        runStart = m_at;
    }
    return false;
}

bool HeaderScanner::metadata()
{
    if (!expect('{'))
        return false; // null, or not an object: the DOM reader warns or fails
    std::vector<Metadata::Entry> entries;
    if (!expect('}')) {
        do {
            QString key, value;
            if (!anyString(m_fill ? &key : nullptr) || !expect(':') || !anyString(m_fill ? &value : nullptr))
                return false;
            if (m_fill)
                entries.emplace_back(std::move(key), std::move(value));
        } while (expect(','));
        if (!expect('}'))
            return false;
    }
    if (m_fill) {
        // Repeated keys earn a warning the DOM reader words.
        QHash<QString, bool> seen;
        seen.reserve(static_cast<qsizetype>(entries.size()));
        for (const auto& [key, value] : entries) {
            if (seen.contains(key))
                return false;
            seen.insert(key, true);
        }
        m_fill->metadata = Metadata::fromUniqueEntries(std::move(entries));
    }
    return true;
}

} // namespace ts
