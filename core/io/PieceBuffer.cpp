#include "io/PieceBuffer.h"

#include <array>
#include <utility>

namespace ts {
namespace {

struct Spare {
    std::unique_ptr<std::uint64_t[]> storage;
    std::size_t words = 0;
};

// Two per thread: a comparison reads two tensors in step, each through its own buffer.
using Spares = std::array<Spare, 2>;

// Buffers smaller than this are cheap to allocate (they come from the heap, not from a new
// mapping) and are not kept.
constexpr std::size_t kKeepFromBytes = 256 << 10;

Spares& spares()
{
    thread_local Spares s;
    return s;
}

} // namespace

PieceBuffer::~PieceBuffer()
{
    if (m_words * sizeof(std::uint64_t) < kKeepFromBytes)
        return;
    // Into an empty slot, else in place of a smaller spare: the next pieces are as large.
    Spare* smallest = nullptr;
    for (Spare& s : spares()) {
        if (!smallest || s.words < smallest->words)
            smallest = &s;
    }
    if (smallest->words < m_words) {
        smallest->storage = std::move(m_storage);
        smallest->words = m_words;
    }
}

std::byte* PieceBuffer::reserve(std::size_t bytes)
{
    const std::size_t words = bytes / sizeof(std::uint64_t) + 1;
    if (m_words < words) {
        Spare* fit = nullptr; // the smallest spare that is large enough
        for (Spare& s : spares()) {
            if (s.words >= words && (!fit || s.words < fit->words))
                fit = &s;
        }
        if (fit) {
            m_storage = std::move(fit->storage);
            m_words = std::exchange(fit->words, 0);
        } else {
            m_storage = std::make_unique_for_overwrite<std::uint64_t[]>(words);
            m_words = words;
        }
    }
    return reinterpret_cast<std::byte*>(m_storage.get());
}

std::size_t PieceBuffer::spareBytesOnThisThread()
{
    std::size_t bytes = 0;
    for (const Spare& s : spares())
        bytes += s.words * sizeof(std::uint64_t);
    return bytes;
}

} // namespace ts
