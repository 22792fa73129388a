#pragma once

#include "base/Result.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace ts {

// Where a model's bytes live. Everything above the core reads bytes through this one small
// interface: a mapped local file today, a zip member (PyTorch checkpoints) or an HTTP range
// source later. Implementations must be safe to call from several threads at once.
class ByteSource {
public:
    virtual ~ByteSource() = default;

    // A name for messages: a file path, a URL, "archive.zip!member".
    virtual QString displayName() const = 0;
    virtual std::uint64_t size() const = 0;

    // Copies [offset, offset + dst.size()) into dst. A short read (the file shrank, the
    // connection dropped) is an error, never a crash.
    virtual Result<void> read(std::uint64_t offset, std::span<std::byte> dst) const = 0;

    // Zero-copy access when the bytes are already addressable (a mapping); an empty span when
    // the source cannot offer that. Reading a view never crashes, even if the file shrinks
    // meanwhile (SigbusGuard), but the bytes may then be zeros: after using a view, call
    // checkView() and discard what was computed from it if that fails.
    virtual std::span<const std::byte> view(std::uint64_t offset, std::uint64_t length) const
    {
        (void)offset;
        (void)length;
        return {};
    }

    // Bytes in place for as long as `keep` lives: what a streaming reader uses instead of view()
    // so a source whose bytes sit in buffers it may drop (an HTTP transfer) can lend them without
    // a copy. May wait exactly as read() would for the same bytes (so never on the UI thread
    // unless readsWithoutWaiting() said yes). Empty when the source cannot lend that range, or
    // copying is faster than lending (a local file); the reader then read()s it. The default is
    // view() with nothing to keep.
    struct HeldBytes {
        std::span<const std::byte> bytes;
        std::shared_ptr<const void> keep;
    };
    virtual HeldBytes hold(std::uint64_t offset, std::uint64_t length) const
    {
        return {view(offset, length), {}};
    }

    // Whether the bytes read through view(offset, length) were the file's: an error naming the
    // file and offset when it shrank, was truncated and grown back, or could not be paged in.
    virtual Result<void> checkView(std::uint64_t offset, std::uint64_t length) const
    {
        (void)offset;
        (void)length;
        return {};
    }

    // Tells the source a range is no longer needed, so a scan of a 100 GB file does not keep
    // 100 GB resident.
    virtual void release(std::uint64_t offset, std::uint64_t length) const
    {
        (void)offset;
        (void)length;
    }

    // True when what is on disk is no longer what was opened (replaced, truncated, grown).
    virtual bool changedOnDisk() const { return false; }

    // False when read(offset, length) would wait for a network (the bytes are neither in memory
    // nor in a local cache): a view that reads on the UI thread (the value grid) asks first and
    // has the bytes fetched on a worker instead of freezing the window.
    virtual bool readsWithoutWaiting(std::uint64_t offset, std::uint64_t length) const
    {
        (void)offset;
        (void)length;
        return true;
    }

    // How many bytes a streaming reader (TensorBlockReader) asks for at once: each piece is a
    // cancel point and a release of what was read. 4 MiB suits a source whose reads past its
    // read-ahead each cost a request (HTTP); a local file says less (MappedFile).
    static constexpr std::uint64_t kDefaultPieceBytes = 4 << 20;
    virtual std::uint64_t pieceBytes() const { return kDefaultPieceBytes; }

    // A POSIX file descriptor for kernel-side copies (copy_file_range); -1 when there is none.
    virtual int nativeHandle() const { return -1; }
};

} // namespace ts
