#include "format/RawHeader.h"

#include "format/HeaderParser.h"
#include "io/LittleEndian.h"
#include "io/MappedFile.h"

#include <QFile>

#include <array>

namespace ts {

RawHeader RawHeader::ofSafetensors(const ByteSource& source, std::uint64_t cap)
{
    RawHeader header;
    header.source = source.displayName();
    if (source.size() >= 8) {
        std::array<char, 8> prefix{};
        if (source.read(0, std::as_writable_bytes(std::span(prefix))))
            header.declaredBytes = readLe64(prefix.data());
    }
    header.bytes = readRawHeader(source, cap);
    return header;
}

RawHeader RawHeader::ofFile(const QString& path, std::uint64_t cap)
{
    if (path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
        RawHeader header;
        header.source = path;
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return header;
        header.bytes = f.read(static_cast<qint64>(cap));
        header.declaredBytes = static_cast<std::uint64_t>(f.size());
        return header;
    }
    auto source = MappedFile::open(path);
    if (!source) {
        RawHeader header;
        header.source = path;
        return header;
    }
    return ofSafetensors(*source.value(), cap);
}

} // namespace ts
