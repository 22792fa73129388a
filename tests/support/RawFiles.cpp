#include "RawFiles.h"

namespace ts::test {

QByteArray le64(std::uint64_t n)
{
    QByteArray b(8, Qt::Uninitialized);
    for (int i = 0; i < 8; ++i)
        b[i] = static_cast<char>((n >> (8 * i)) & 0xff);
    return b;
}

QByteArray rawSafetensors(const QByteArray& header, const QByteArray& data, int align)
{
    QByteArray h = header;
    while (align > 1 && h.size() % align != 0)
        h.append(' ');
    return le64(static_cast<std::uint64_t>(h.size())) + h + data;
}

QByteArray u8Safetensors(const std::vector<std::pair<QString, int>>& tensors, const QByteArray& metadataJson)
{
    QByteArray header = "{";
    QByteArray data;
    if (!metadataJson.isEmpty())
        header += "\"__metadata__\":" + metadataJson;
    for (const auto& [name, bytes] : tensors) {
        if (header.size() > 1)
            header += ',';
        const qsizetype begin = data.size();
        for (int i = 0; i < bytes; ++i)
            data.append(static_cast<char>((begin + i) * 31 + 7));
        header += "\"" + name.toUtf8() + "\":{\"dtype\":\"U8\",\"shape\":[" + QByteArray::number(bytes) +
                  "],\"data_offsets\":[" + QByteArray::number(begin) + "," + QByteArray::number(data.size()) +
                  "]}";
    }
    header += "}";
    return rawSafetensors(header, data);
}

} // namespace ts::test
