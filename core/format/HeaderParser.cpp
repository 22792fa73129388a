#include "format/HeaderParser.h"

#include "base/Utf8.h"
#include "format/HeaderSchema.h"
#include "format/LayoutValidator.h"
#include "io/LittleEndian.h"

#include <QHash>

#include <simdjson.h>

#include <cstring>
#include <vector>

namespace ts {
namespace {

// Warnings the JSON text itself deserves, beyond what the schema reader saw.
void addTextWarnings(Header& header, const char* json, std::size_t size)
{
    if (size > 0 && json[0] != '{') {
        header.warnings.push_back(Diagnostic{
            QStringLiteral("LeadingWhitespace"),
            Severity::Warning,
            QStringLiteral(
                "the header starts with whitespace instead of '{'; the reference accepts it but the "
                "format's README requires '{', so strict readers reject this file"),
            {},
            8});
    }
    std::size_t end = size;
    while (end > 0 &&
           (json[end - 1] == ' ' || json[end - 1] == '\t' || json[end - 1] == '\n' || json[end - 1] == '\r'))
        --end;
    for (std::size_t i = end; i < size; ++i) {
        if (json[i] != ' ') {
            header.warnings.push_back(Diagnostic{
                QStringLiteral("NonSpacePadding"),
                Severity::Warning,
                QStringLiteral(
                    "the header is padded with tabs or line breaks at byte %1; the format's README "
                    "allows only spaces")
                    .arg(8 + i),
                {},
                8 + i});
            break;
        }
    }
}

void addNameWarnings(Header& header)
{
    int reported = 0;
    for (const TensorInfo& t : header.tensors) {
        bool control = false;
        for (const QChar c : t.name) {
            if (c.unicode() < 0x20 || c.unicode() == 0x7f) {
                control = true;
                break;
            }
        }
        if (control && reported++ < 20) {
            header.warnings.push_back(Diagnostic{
                QStringLiteral("ControlCharacterInName"), Severity::Warning,
                QStringLiteral(
                    "tensor name \"%1\" contains control characters (e.g. NUL): C-string based readers "
                    "see a different name")
                    .arg(QString(t.name).replace(QChar(0), QStringLiteral("\\0"))),
                t.name, std::nullopt});
        }
    }
}

} // namespace

Result<Header> parseHeaderBytes(const char* bytes, std::size_t available, std::uint64_t fileSize,
                                const QString& file)
{
    if (fileSize < 8 || available < 8) {
        return makeError(
            ErrorCode::HeaderTooSmall, file,
            QStringLiteral("the file is %1 bytes long, shorter than the 8-byte header length prefix")
                .arg(fileSize),
            {}, 0);
    }
    const std::uint64_t n = readLe64(bytes);
    if (n > kMaxHeaderSize) {
        return makeError(
            ErrorCode::HeaderTooLarge, file,
            QStringLiteral("the length prefix announces a %1-byte header; at most %2 bytes are allowed "
                           "(is this a .safetensors file?)")
                .arg(n)
                .arg(kMaxHeaderSize),
            {}, 0);
    }
    if (8 + n > fileSize) {
        return makeError(
            ErrorCode::InvalidHeaderLength, file,
            QStringLiteral("the length prefix announces a %1-byte header but only %2 bytes follow it: "
                           "the file is truncated or not a .safetensors file")
                .arg(n)
                .arg(fileSize - 8),
            {}, 0);
    }
    if (available < 8 + n)
        return makeError(ErrorCode::IoError, file, QStringLiteral("the header could not be read in full"), {},
                         8);

    const char* json = bytes + 8;
    const auto size = static_cast<std::size_t>(n);
    if (!simdjson::validate_utf8(json, size)) {
        const std::size_t at = firstInvalidUtf8(json, size).value_or(0);
        return makeError(ErrorCode::InvalidHeader, file,
                         QStringLiteral("the header is not valid UTF-8: bad byte 0x%1 at file byte %2")
                             .arg(static_cast<unsigned char>(json[at]), 2, 16, QLatin1Char('0'))
                             .arg(8 + at),
                         {}, 8 + at);
    }
    auto header = readHeaderSchema(json, size, available - 8, file);
    if (!header)
        return header.error();
    header->headerLength = n;
    addTextWarnings(*header, json, size);
    if (auto r = validateLayout(*header, fileSize, file); !r)
        return r.error();
    // JSON strings cannot hold raw control characters: a name has one only through an escape.
    if (std::memchr(json, '\\', size))
        addNameWarnings(*header);
    return header;
}

Result<Header> parseHeader(const ByteSource& source)
{
    const QString file = source.displayName();
    const std::uint64_t fileSize = source.size();
    if (fileSize < 8)
        return parseHeaderBytes(nullptr, 0, fileSize, file);
    char prefix[8];
    if (auto r = source.read(0, std::as_writable_bytes(std::span(prefix))); !r)
        return r.error();
    const std::uint64_t n = readLe64(prefix);
    if (n > kMaxHeaderSize || 8 + n > fileSize)
        return parseHeaderBytes(prefix, 8, fileSize, file);

    // Copied out of the file rather than parsed in the mapping: simdjson wants padding after the
    // text, and a copy cannot fault if the file is truncated under us.
    std::vector<char> buffer(8 + n + simdjson::SIMDJSON_PADDING, ' ');
    std::memcpy(buffer.data(), prefix, 8);
    if (auto r =
            source.read(8, std::as_writable_bytes(std::span(buffer.data() + 8, static_cast<std::size_t>(n))));
        !r)
        return r.error();
    return parseHeaderBytes(buffer.data(), static_cast<std::size_t>(8 + n), fileSize, file);
}

QByteArray readRawHeader(const ByteSource& source, std::uint64_t cap)
{
    if (source.size() <= 8)
        return {};
    char prefix[8];
    if (!source.read(0, std::as_writable_bytes(std::span(prefix))))
        return {};
    const std::uint64_t n = readLe64(prefix);
    const std::uint64_t len = std::min({n, source.size() - 8, cap});
    QByteArray raw(static_cast<qsizetype>(len), Qt::Uninitialized);
    if (!source.read(8, std::as_writable_bytes(std::span(raw.data(), static_cast<std::size_t>(len)))))
        return {};
    return raw;
}

} // namespace ts
