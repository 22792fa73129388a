#include "remote/SpanBuffers.h"

#include <mutex>
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

} // namespace

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
    return Buffer(new std::byte[static_cast<std::size_t>(bytes)]);
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
