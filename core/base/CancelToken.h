#pragma once

#include <atomic>
#include <memory>

namespace ts {

// Asks long work to stop. Every copy shares one flag: the owner keeps a copy and hands others to
// the work, which polls isCancelled() between pieces (a 4 MiB read, a heatmap row, a write chunk),
// so a cancel is seen well within 100 ms. A handle, like a shared_ptr: cancel() is const because
// it changes the shared flag, not the handle. Copying costs one reference count; polling one
// relaxed load.
class CancelToken {
public:
    CancelToken();

    void cancel() const { m_flag->store(true, std::memory_order_relaxed); }
    bool isCancelled() const { return m_flag->load(std::memory_order_relaxed); }

private:
    std::shared_ptr<std::atomic<bool>> m_flag;
};

} // namespace ts
