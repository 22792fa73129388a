#pragma once

#include "base/Result.h"
#include "io/ByteSource.h"
#include "io/ReadScope.h"

#include <array>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <vector>

namespace ts {

// Reads a range of a ByteSource chunk by chunk on a helper thread, one chunk ahead of the
// consumer. Why: a writer's source may compute its bytes (ConvertingSource converts dtypes on
// read); with the read on another core, converting chunk k+1 overlaps writing chunk k, so a
// conversion takes about max(convert, write) instead of their sum. The source's read() must be
// safe to call from another thread (every ByteSource's is: they are const and keep no cursor).
class ReadAhead {
public:
    // The two chunk buffers are the caller's, so a writer copying many tensors allocates (and the
    // kernel zeroes) them once, not per tensor: that cost more than the overlap saved.
    using Buffers = std::array<std::vector<std::byte>, 2>;
    // `firstChunk` (0: `chunk`) lets a writer end the first chunk where its file offset becomes a
    // multiple of `chunk`: aligned 1 MiB writes went ~10% faster into the page cache here.
    ReadAhead(const ByteSource& source, std::uint64_t offset, std::uint64_t length, std::size_t chunk,
              Buffers& buffers, std::size_t firstChunk = 0);
    ~ReadAhead(); // stops the helper (it finishes the read in hand) and joins it
    ReadAhead(const ReadAhead&) = delete;
    ReadAhead& operator=(const ReadAhead&) = delete;

    // The next chunk in order, valid until the following call; an empty span after the last.
    // A read error is returned once, in its place, and ends the stream.
    Result<std::span<const std::byte>> next();

private:
    void run();
    std::uint64_t chunkStart(std::uint64_t k) const; // offset of chunk k in the range (may pass its end)

    const ByteSource& m_source;
    const std::uint64_t m_offset;
    std::uint64_t m_length; // set to 0 after a read error: the stream ends there
    const std::size_t m_chunk;
    const std::size_t m_first;
    std::uint64_t m_taken = 0; // chunks handed to the consumer

    struct Slot {
        std::vector<std::byte>* bytes = nullptr;
        std::size_t size = 0;
        bool filled = false;
        std::optional<Error> error;
    };
    Slot m_slots[2];
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_stop = false;
    // The consumer's cancel flag and transfer counter, for a source that waits for a network.
    const ReadScope::Captured m_scope = ReadScope::capture();
    std::thread m_helper; // last: starts once every member above exists
};

} // namespace ts
