#include "diff/ByteRanges.h"

#include "io/PieceBuffer.h"

#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <memory>

namespace ts::diff {
namespace {

constexpr std::uint64_t kPiece = TensorBlockReader::kReadBytes;

Error readError(const TensorLocation& at, const QString& name, const Error& cause, std::uint64_t offset)
{
    return makeError(cause.code, at.source ? at.source->displayName() : QString(),
                     QStringLiteral("cannot read tensor \"%1\": %2").arg(name, cause.message), name, offset);
}

Error noSource(const QString& name)
{
    return makeError(ErrorCode::IoError, QString(),
                     QStringLiteral("tensor \"%1\" has no byte source").arg(name), name);
}

std::optional<Error> cancelled(const JobControl& control, const TensorLocation& at, const QString& name)
{
    if (!control.cancel.isCancelled())
        return std::nullopt;
    return makeError(ErrorCode::Cancelled, at.source->displayName(),
                     QStringLiteral("the comparison was cancelled"), name);
}

// One piece of one side: in place when the source lends it (an HTTP transfer), else a read into
// `buffer` (a local file: MappedFile::hold says why).
struct Piece {
    const TensorLocation* location = nullptr;
    const QString* name = nullptr;
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
    std::span<const std::byte> mapped;
    std::shared_ptr<const void> keep;

    Result<const std::byte*> bytes(PieceBuffer& buffer)
    {
        ByteSource::HeldBytes held = location->source->hold(offset, length);
        mapped = held.bytes;
        keep = std::move(held.keep);
        if (!mapped.empty())
            return mapped.data();
        const auto span = std::span<std::byte>(buffer.reserve(static_cast<std::size_t>(length)),
                                               static_cast<std::size_t>(length));
        if (Result<void> r = location->source->read(offset, span); !r)
            return readError(*location, *name, r.error(), offset);
        return span.data();
    }
    // After the bytes were used: a view that met a shrunken file read zeros, which must be an
    // error rather than a verdict.
    Result<void> finish(const JobControl& control)
    {
        if (mapped.empty())
            return {};
        const Result<void> intact = location->source->checkView(offset, length);
        location->source->release(offset, length);
        if (!intact)
            return readError(*location, *name, intact.error(), offset);
        control.progress.add(length);
        return {};
    }
};

} // namespace

Result<bool> sameBytes(const TensorLocation& a, const QString& nameA, const TensorLocation& b,
                       const QString& nameB, std::uint64_t from, std::uint64_t length,
                       const JobControl& control)
{
    if (!a.source)
        return noSource(nameA);
    if (!b.source)
        return noSource(nameB);
    PieceBuffer bufferA, bufferB;
    for (std::uint64_t done = 0; done < length; done += kPiece) {
        if (auto stop = cancelled(control, a, nameA))
            return *stop;
        const std::uint64_t n = std::min(kPiece, length - done);
        Piece pa{&a, &nameA, a.offset + from + done, n, {}, {}};
        Piece pb{&b, &nameB, b.offset + from + done, n, {}, {}};
        Result<const std::byte*> x = pa.bytes(bufferA);
        if (!x)
            return x.error();
        Result<const std::byte*> y = pb.bytes(bufferB);
        if (!y)
            return y.error();
        const bool same = std::memcmp(*x, *y, static_cast<std::size_t>(n)) == 0;
        if (Result<void> r = pa.finish(control); !r)
            return r.error();
        if (Result<void> r = pb.finish(control); !r)
            return r.error();
        if (pa.mapped.empty())
            control.progress.add(n);
        if (pb.mapped.empty())
            control.progress.add(n);
        if (!same)
            return false;
    }
    return true;
}

Result<std::uint64_t> contentHash(const TensorLocation& location, const QString& name,
                                  const JobControl& control)
{
    if (!location.source)
        return noSource(name);
    const std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> state(XXH3_createState(), &XXH3_freeState);
    if (!state || XXH3_64bits_reset(state.get()) != XXH_OK)
        return makeError(ErrorCode::IoError, location.source->displayName(),
                         QStringLiteral("cannot start a content hash"), name);
    PieceBuffer buffer;
    for (std::uint64_t done = 0; done < location.length; done += kPiece) {
        if (auto stop = cancelled(control, location, name))
            return *stop;
        const std::uint64_t n = std::min(kPiece, location.length - done);
        Piece piece{&location, &name, location.offset + done, n, {}, {}};
        Result<const std::byte*> bytes = piece.bytes(buffer);
        if (!bytes)
            return bytes.error();
        XXH3_64bits_update(state.get(), *bytes, static_cast<std::size_t>(n));
        if (Result<void> r = piece.finish(control); !r)
            return r.error();
        if (piece.mapped.empty())
            control.progress.add(n);
    }
    return static_cast<std::uint64_t>(XXH3_64bits_digest(state.get()));
}

} // namespace ts::diff
