#include "format/HeaderSerializer.h"

#include "io/LittleEndian.h"

namespace ts {

void appendJsonString(QByteArray& out, const QString& text)
{
    static const char hex[] = "0123456789abcdef";
    const QByteArray utf8 = text.toUtf8();
    out.append('"');
    for (const char ch : utf8) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"':
            out.append("\\\"");
            break;
        case '\\':
            out.append("\\\\");
            break;
        case '\b':
            out.append("\\b");
            break;
        case '\f':
            out.append("\\f");
            break;
        case '\n':
            out.append("\\n");
            break;
        case '\r':
            out.append("\\r");
            break;
        case '\t':
            out.append("\\t");
            break;
        default:
            if (c < 0x20) {
                out.append("\\u00");
                out.append(hex[c >> 4]);
                out.append(hex[c & 15]);
            } else {
                out.append(ch);
            }
        }
    }
    out.append('"');
}

QByteArray serializeHeader(const std::vector<TensorInfo>& tensors, const std::optional<Metadata>& metadata,
                           std::uint64_t slack)
{
    QByteArray json;
    json.reserve(static_cast<qsizetype>(64 + tensors.size() * 96));
    json.append('{');
    bool first = true;
    if (metadata) {
        json.append("\"__metadata__\":{");
        bool firstEntry = true;
        for (const auto& [key, value] : metadata->entries()) {
            if (!firstEntry)
                json.append(',');
            firstEntry = false;
            appendJsonString(json, key);
            json.append(':');
            appendJsonString(json, value);
        }
        json.append('}');
        first = false;
    }
    for (const TensorInfo& t : tensors) {
        if (!first)
            json.append(',');
        first = false;
        appendJsonString(json, t.name);
        json.append(":{\"dtype\":\"");
        json.append(dtypeNameLatin1(t.dtype));
        json.append("\",\"shape\":[");
        for (std::size_t i = 0; i < t.shape.size(); ++i) {
            if (i)
                json.append(',');
            json.append(QByteArray::number(static_cast<qulonglong>(t.shape[i])));
        }
        json.append("],\"data_offsets\":[");
        json.append(QByteArray::number(static_cast<qulonglong>(t.begin)));
        json.append(',');
        json.append(QByteArray::number(static_cast<qulonglong>(t.end)));
        json.append("]}");
    }
    json.append('}');
    const std::uint64_t unpadded = static_cast<std::uint64_t>(json.size()) + slack;
    const std::uint64_t padded = (unpadded + 7) / 8 * 8;
    json.append(QByteArray(static_cast<qsizetype>(padded - static_cast<std::uint64_t>(json.size())), ' '));

    QByteArray out;
    out.reserve(8 + json.size());
    appendLe64(out, padded);
    out.append(json);
    return out;
}

} // namespace ts
