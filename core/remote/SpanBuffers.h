#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace ts::remote {

// Where a Range transfer's body goes: buffers of the large request sizes, handed back when the
// transfer ends and given to the next one of that size. Why: a scan asks for 16 MiB spans one
// after another; a fresh allocation each time is a fresh mapping the kernel faults in, zeroes
// and unmaps again, which on the benchmark's loopback scan cost about a fifth of the CPU
// (tests/bench/remote/RESULTS.md). The bytes are not initialised: the network writes them before
// anyone reads them. Buffers of a megabyte and more are asked to be backed by huge pages: the first
// window of a scan still comes fresh, and in 4 KiB pages that was 37,000 page faults in our
// network thread's copy, the most expensive thing it did on this virtual machine.
class SpanBuffers {
public:
    struct Free {
        void operator()(std::byte* p) const;
    };
    using Buffer = std::unique_ptr<std::byte[], Free>;

    static Buffer take(std::uint64_t bytes);
    static void give(Buffer buffer, std::uint64_t bytes);

    static constexpr std::uint64_t kSmallest = 1 << 20;   // smaller ones come and go with malloc
    static constexpr std::uint64_t kKeptBytes = 64 << 20; // idle buffers kept at most
};

} // namespace ts::remote
