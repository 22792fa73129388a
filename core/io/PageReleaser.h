#pragma once

#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

namespace ts {

// Drops the pages of a read-only mapping that readers are done with (MADV_DONTNEED), in batches.
// Why batches: every madvise that unmaps pages flushes the TLB of each CPU running a thread of the
// process (an inter-processor interrupt, costly in a VM); releasing every 4 MiB piece of a scan
// cost a two-thread F32 scan about a fifth of its speed. Adjacent ranges from different threads
// are merged, so a batch is usually one call. At most `batchBytes` of released ranges stay mapped.
class PageReleaser {
public:
    PageReleaser(void* base, std::uint64_t size, std::uint64_t batchBytes);
    PageReleaser(const PageReleaser&) = delete;
    PageReleaser& operator=(const PageReleaser&) = delete;

    // Thread-safe. The range is widened to whole pages; a neighbour still reading a shared edge
    // page of a shared file mapping simply faults it back in.
    void add(std::uint64_t offset, std::uint64_t length);

private:
    void drop(std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges) const;

    char* m_base;
    std::uint64_t m_size;
    std::uint64_t m_batchBytes;
    std::mutex m_mutex;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> m_pending; // [begin, end) in pages' bytes
    std::uint64_t m_pendingBytes = 0;
};

} // namespace ts
