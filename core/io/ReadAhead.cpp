#include "io/ReadAhead.h"

#include <algorithm>

namespace ts {

ReadAhead::ReadAhead(const ByteSource& source, std::uint64_t offset, std::uint64_t length, std::size_t chunk,
                     Buffers& buffers, std::size_t firstChunk)
    : m_source(source), m_offset(offset), m_length(length), m_chunk(std::max<std::size_t>(chunk, 1)),
      m_first(firstChunk > 0 ? firstChunk : m_chunk), m_slots{Slot{&buffers[0], 0, false, std::nullopt},
                                                              Slot{&buffers[1], 0, false, std::nullopt}},
      m_helper([this] { run(); })
{
}

ReadAhead::~ReadAhead()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_changed.notify_all();
    m_helper.join();
}

std::uint64_t ReadAhead::chunkStart(std::uint64_t k) const
{
    return k == 0 ? 0 : m_first + (k - 1) * m_chunk;
}

void ReadAhead::run()
{
    const ReadScope scope(m_scope);
    for (std::uint64_t k = 0; chunkStart(k) < m_length; ++k) {
        Slot& slot = m_slots[k % 2];
        {
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock, [&] { return m_stop || !slot.filled; });
            if (m_stop)
                return;
        }
        // The consumer does not touch this slot until it is marked filled.
        const std::uint64_t at = chunkStart(k);
        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(chunkStart(k + 1), m_length) - at);
        if (slot.bytes->size() < n)
            slot.bytes->resize(n);
        Result<void> r = m_source.read(m_offset + at, std::span(slot.bytes->data(), n));
        {
            std::lock_guard lock(m_mutex);
            slot.size = n;
            slot.error = r ? std::nullopt : std::optional<Error>(r.error());
            slot.filled = true;
        }
        m_changed.notify_all();
        if (!r)
            return;
    }
}

Result<std::span<const std::byte>> ReadAhead::next()
{
    std::unique_lock lock(m_mutex);
    if (m_taken > 0) // the consumer is done with the previous chunk: the helper may refill it
        m_slots[(m_taken - 1) % 2].filled = false;
    m_changed.notify_all();
    if (chunkStart(m_taken) >= m_length)
        return std::span<const std::byte>();
    Slot& slot = m_slots[m_taken % 2];
    m_changed.wait(lock, [&] { return slot.filled; });
    if (slot.error) {
        m_length = 0; // nothing after an error
        return *slot.error;
    }
    ++m_taken;
    return std::span<const std::byte>(slot.bytes->data(), slot.size);
}

} // namespace ts
