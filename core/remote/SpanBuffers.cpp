#include "remote/SpanBuffers.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace ts::remote {
namespace {

struct Idle {
    std::mutex mutex;
    std::vector<std::pair<std::uint64_t, SpanBuffers::Buffer>> buffers;
    std::uint64_t bytes = 0;
};

Idle& idle()
{
    static Idle instance; // destroyed at exit, freeing what is kept
    return instance;
}

// The huge page size on x86-64 and arm64 (4 KiB granules); elsewhere the advice is ignored.
constexpr std::size_t kHugePage = 2 << 20;

SpanBuffers::Buffer allocate(std::uint64_t bytes)
{
    const auto n = static_cast<std::size_t>(bytes);
    if (bytes < SpanBuffers::kSmallest) {
        void* small = std::malloc(std::max<std::size_t>(n, 1));
        if (!small)
            throw std::bad_alloc();
        return SpanBuffers::Buffer(static_cast<std::byte*>(small));
    }
    const std::size_t rounded = (n + kHugePage - 1) / kHugePage * kHugePage;
    void* p = std::aligned_alloc(kHugePage, rounded);
    if (!p)
        throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    // Advice only: without transparent huge pages (or with them off) it fails and 4 KiB pages serve.
    ::madvise(p, rounded, MADV_HUGEPAGE);
#endif
    return SpanBuffers::Buffer(static_cast<std::byte*>(p));
}

} // namespace

void SpanBuffers::Free::operator()(std::byte* p) const
{
    std::free(p);
}

SpanBuffers::Buffer SpanBuffers::take(std::uint64_t bytes)
{
    if (bytes >= kSmallest) {
        Idle& i = idle();
        std::lock_guard lock(i.mutex);
        for (auto it = i.buffers.begin(); it != i.buffers.end(); ++it) {
            if (it->first == bytes) {
                Buffer b = std::move(it->second);
                i.buffers.erase(it);
                i.bytes -= bytes;
                return b;
            }
        }
    }
    return allocate(bytes);
}

void SpanBuffers::give(Buffer buffer, std::uint64_t bytes)
{
    if (!buffer || bytes < kSmallest)
        return;
    Idle& i = idle();
    std::lock_guard lock(i.mutex);
    if (i.bytes + bytes > kKeptBytes)
        return; // freed here, outside nobody's budget
    i.buffers.emplace_back(bytes, std::move(buffer));
    i.bytes += bytes;
}

} // namespace ts::remote
