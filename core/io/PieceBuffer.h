#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace ts {

// The buffer a streaming reader copies each piece of a tensor into: 8-byte aligned, not
// initialised, and handed on to the next reader on the same thread when this one is done.
//
// Why handed on: a whole-model scan makes one TensorBlockReader per 8 MiB chunk, and a conversion
// one read per 1 MiB it writes, so a buffer per reader is a fresh multi-MiB allocation every few
// MiB. glibc serves that from a new mapping or from a heap top it trims after each free, and the
// kernel faults in and zeroes those pages again each time (on this VM 4 KiB at a time). Two spares
// per thread (a comparison reads two tensors in step) bound what is kept to two pieces per thread
// that ever read, freed when the thread ends; a third reader at once simply allocates.
class PieceBuffer {
public:
    PieceBuffer() = default;
    ~PieceBuffer();
    PieceBuffer(const PieceBuffer&) = delete;
    PieceBuffer& operator=(const PieceBuffer&) = delete;
    PieceBuffer(PieceBuffer&& other) noexcept
        : m_storage(std::move(other.m_storage)), m_words(std::exchange(other.m_words, 0))
    {
    }
    PieceBuffer& operator=(PieceBuffer&& other) noexcept
    {
        std::swap(m_storage, other.m_storage); // ours goes to `other`, which may keep it as a spare
        std::swap(m_words, other.m_words);
        return *this;
    }

    // At least `bytes` usable bytes; contents unspecified. Grows, never shrinks.
    std::byte* reserve(std::size_t bytes);
    std::size_t capacity() const { return m_words * sizeof(std::uint64_t); }

    // For tests: the bytes this thread's spares hold (0 when there are none).
    static std::size_t spareBytesOnThisThread();

private:
    std::unique_ptr<std::uint64_t[]> m_storage;
    std::size_t m_words = 0;
};

} // namespace ts
