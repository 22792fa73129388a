#include "io/PageReleaser.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>

namespace ts {

PageReleaser::PageReleaser(void* base, std::uint64_t size, std::uint64_t batchBytes)
    : m_base(static_cast<char*>(base)), m_size(size), m_batchBytes(batchBytes)
{
}

void PageReleaser::add(std::uint64_t offset, std::uint64_t length)
{
    if (!m_base || offset >= m_size || length == 0)
        return;
    static const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    const std::uint64_t first = offset / page * page;
    const std::uint64_t last = (std::min(offset + length, m_size) + page - 1) / page * page;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> batch;
    {
        std::lock_guard lock(m_mutex);
        m_pending.emplace_back(first, last);
        m_pendingBytes += last - first;
        if (m_pendingBytes < m_batchBytes)
            return;
        batch.swap(m_pending);
        m_pendingBytes = 0;
    }
    drop(std::move(batch)); // outside the lock: other readers keep queueing meanwhile
}

void PageReleaser::drop(std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges) const
{
    if (ranges.empty())
        return;
    std::sort(ranges.begin(), ranges.end());
    std::uint64_t begin = ranges.front().first;
    std::uint64_t end = ranges.front().second;
    for (std::size_t i = 1; i <= ranges.size(); ++i) {
        if (i < ranges.size() && ranges[i].first <= end) { // touching or overlapping: one call
            end = std::max(end, ranges[i].second);
            continue;
        }
        ::madvise(m_base + begin, end - begin, MADV_DONTNEED);
        if (i < ranges.size()) {
            begin = ranges[i].first;
            end = ranges[i].second;
        }
    }
}

} // namespace ts
