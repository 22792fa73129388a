#include "write/SafetensorsWriter.h"

#include "format/HeaderParser.h"
#include "format/HeaderSerializer.h"
#include "format/LayoutValidator.h"
#include "format/WriterOrder.h"
#include "io/LittleEndian.h"
#include "io/ReadAhead.h"
#include "write/AtomicFile.h"

#include <QHash>

#include <algorithm>
#include <vector>

namespace ts {
namespace {

constexpr std::uint64_t kChunk = 8u << 20;
// Read-ahead chunks are smaller: two of them stay in the cores' caches between the converting
// thread and the writing one.
constexpr std::size_t kReadAheadChunk = 1u << 20;

Result<void> checkHeaderSize(const QByteArray& header, const QString& path)
{
    if (static_cast<std::uint64_t>(header.size()) - 8 > kMaxHeaderSize) {
        return makeError(ErrorCode::HeaderTooLarge, path,
                         QStringLiteral("the header would be %1 bytes; the format allows at most %2")
                             .arg(header.size() - 8)
                             .arg(kMaxHeaderSize));
    }
    return {};
}

// The source must still be the file whose header we hold: read() fails once its size changed,
// and the length prefix must be the one we parsed. Checked before and after the bulk copy, which
// (copy_file_range) does not go through read().
Result<void> checkSourceUnchanged(const SafetensorsFile& file)
{
    char prefix[8];
    if (auto r = file.source()->read(0, std::as_writable_bytes(std::span(prefix))); !r)
        return r;
    if (readLe64(prefix) != file.header().headerLength || file.source()->size() != file.fileSize()) {
        return makeError(
            ErrorCode::FileChanged, file.path(),
            QStringLiteral("the file changed on disk since it was opened; reopen it before saving"), {}, 0);
    }
    return {};
}

Error cancelled(const QString& path)
{
    return makeError(ErrorCode::Cancelled, path,
                     QStringLiteral("the save was cancelled; nothing was changed"));
}

// A source with no file behind it computes its bytes (a conversion) or holds them in memory:
// big ranges are read one chunk ahead on a helper thread while this one writes (ReadAhead).
Result<void> copyReadAhead(AtomicFile& out, const TensorLocation& from, const WriteOptions& options,
                           ReadAhead::Buffers& buffers)
{
    const std::uint64_t misaligned = out.written() % kReadAheadChunk;
    ReadAhead ahead(*from.source, from.offset, from.length, kReadAheadChunk, buffers,
                    static_cast<std::size_t>(kReadAheadChunk - misaligned));
    for (;;) {
        Result<std::span<const std::byte>> chunk = ahead.next();
        if (!chunk)
            return chunk.error();
        if (chunk->empty())
            return {};
        if (auto r = out.write(*chunk); !r)
            return r;
        options.control.progress.add(chunk->size());
        if (options.control.cancel.isCancelled())
            return cancelled(out.target());
    }
}

// Copies one range of a source into the output, by the kernel when the source is a file.
Result<void> copyRange(AtomicFile& out, const TensorLocation& from, const WriteOptions& options,
                       std::vector<std::byte>& buffer, ReadAhead::Buffers& ahead)
{
    const int fd = from.source->nativeHandle();
    if (fd < 0 && from.length >= 2 * kReadAheadChunk)
        return copyReadAhead(out, from, options, ahead);
    std::uint64_t offset = from.offset;
    std::uint64_t left = from.length;
    while (left > 0) {
        const std::uint64_t step = std::min(left, kChunk * 8);
        if (fd >= 0) {
            if (auto r = out.copyFrom(fd, offset, step); !r)
                return r;
        } else {
            for (std::uint64_t sub = 0; sub < step; sub += kChunk) {
                const auto n = static_cast<std::size_t>(std::min(kChunk, step - sub));
                buffer.resize(std::max(buffer.size(), n));
                if (auto r = from.source->read(offset + sub, std::span(buffer.data(), n)); !r)
                    return r;
                if (auto r = out.write(std::span(buffer.data(), n)); !r)
                    return r;
            }
        }
        offset += step;
        left -= step;
        options.control.progress.add(step);
        if (options.control.cancel.isCancelled())
            return cancelled(out.target());
    }
    return {};
}

} // namespace

std::vector<TensorInfo> SafetensorsWriter::planLayout(std::vector<WriterTensor>& tensors)
{
    std::stable_sort(tensors.begin(), tensors.end(), [](const WriterTensor& a, const WriterTensor& b) {
        return writerOrderLess(a.dtype, a.name, b.dtype, b.name);
    });
    std::vector<TensorInfo> layout;
    layout.reserve(tensors.size());
    std::uint64_t offset = 0;
    for (const WriterTensor& t : tensors) {
        layout.push_back(TensorInfo{t.name, t.dtype, t.shape, offset, offset + t.data.length});
        offset += t.data.length;
    }
    return layout;
}

Result<void> SafetensorsWriter::write(const QString& path, std::vector<WriterTensor> tensors,
                                      const std::optional<Metadata>& metadata, const WriteOptions& options)
{
    QHash<QString, int> seen;
    for (const WriterTensor& t : tensors) {
        if (seen.contains(t.name))
            return makeError(ErrorCode::DuplicateTensor, path,
                             QStringLiteral("two tensors are named \"%1\"").arg(t.name), t.name);
        seen.insert(t.name, 1);
        const auto count = checkedElementCount(t.shape);
        std::uint64_t bits = 0;
        if (!count || __builtin_mul_overflow(*count, static_cast<std::uint64_t>(dtypeBits(t.dtype)), &bits) ||
            bits % 8 != 0 || bits / 8 != t.data.length) {
            return makeError(
                ErrorCode::TensorInvalidInfo, path,
                QStringLiteral("tensor \"%1\" (%2 %3) does not match its %4 data bytes")
                    .arg(t.name, dtypeName(t.dtype), TensorInfo{t.name, t.dtype, t.shape, 0, 0}.shapeString())
                    .arg(t.data.length),
                t.name);
        }
    }
    const std::vector<TensorInfo> layout = planLayout(tensors);
    const QByteArray header = serializeHeader(layout, metadata, options.headerSlack);
    if (auto r = checkHeaderSize(header, path); !r)
        return r;
    AtomicFile out(path);
    if (auto r = out.open(); !r)
        return r;
    if (auto r =
            out.write(std::as_bytes(std::span(header.constData(), static_cast<std::size_t>(header.size()))));
        !r)
        return r;
    std::vector<std::byte> buffer;
    ReadAhead::Buffers ahead;
    for (const WriterTensor& t : tensors) {
        if (auto r = copyRange(out, t.data, options, buffer, ahead); !r)
            return r;
    }
    return out.commit();
}

Result<void> SafetensorsWriter::rewriteMetadata(const SafetensorsFile& file,
                                                const std::optional<Metadata>& metadata, const QString& path,
                                                const WriteOptions& options)
{
    const Header& old = file.header();
    // Buffer order as it is; zero-size tensors sharing an offset go in writer order, so that a
    // file the reference wrote comes back byte for byte.
    std::vector<TensorInfo> ordered = old.tensors;
    std::stable_sort(ordered.begin(), ordered.end(), [](const TensorInfo& a, const TensorInfo& b) {
        if (a.begin != b.begin || a.end != b.end)
            return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
        return writerOrderLess(a, b);
    });
    const QByteArray header = serializeHeader(ordered, metadata, options.headerSlack);
    if (auto r = checkHeaderSize(header, path); !r)
        return r;
    if (auto r = checkSourceUnchanged(file); !r)
        return r;
    AtomicFile out(path);
    if (auto r = out.open(); !r)
        return r;
    if (auto r =
            out.write(std::as_bytes(std::span(header.constData(), static_cast<std::size_t>(header.size()))));
        !r)
        return r;
    // The whole data buffer at once: same bytes, same offsets.
    std::vector<std::byte> buffer;
    ReadAhead::Buffers ahead;
    const TensorLocation data{file.source(), old.dataOffset(), old.dataSize()};
    if (auto r = copyRange(out, data, options, buffer, ahead); !r)
        return r;
    if (auto r = checkSourceUnchanged(file); !r)
        return r;
    return out.commit();
}

} // namespace ts
