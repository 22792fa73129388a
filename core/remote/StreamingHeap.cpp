#include "remote/StreamingHeap.h"

#include <mutex>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ts::remote {

void StreamingHeap::tune()
{
#if defined(__GLIBC__)
    static std::once_flag once;
    std::call_once(once, [] {
        constexpr int kMapThreshold = 32 << 20; // glibc's largest dynamic mmap threshold
        mallopt(M_MMAP_THRESHOLD, kMapThreshold);
        mallopt(M_TRIM_THRESHOLD, 2 * kMapThreshold);
    });
#endif
}

} // namespace ts::remote
