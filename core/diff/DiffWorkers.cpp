#include "diff/DiffWorkers.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace ts::diff {

DiffWorkers::DiffWorkers(int threads, CancelToken cancel)
    : m_threads(threads > 0 ? std::clamp(threads, 1, 256)
                            : std::max(1, static_cast<int>(std::thread::hardware_concurrency()))),
      m_cancel(std::move(cancel))
{
}

Result<void> DiffWorkers::run(std::size_t count, const std::function<Result<void>(std::size_t)>& task,
                              const std::function<void()>& tick, int intervalMs)
{
    if (count == 0)
        return {};
    std::mutex mutex;
    std::condition_variable wake;
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::optional<Error> firstError;
    std::optional<Error> cancelled;
    const int n = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(m_threads), count));
    int running = n;
    std::vector<std::thread> workers;
    workers.reserve(static_cast<std::size_t>(n));
    for (int t = 0; t < n; ++t) {
        workers.emplace_back([&] {
            while (!m_cancel.isCancelled() && !failed.load(std::memory_order_relaxed)) {
                const std::size_t i = next.fetch_add(1);
                if (i >= count)
                    break;
                Result<void> ok = task(i);
                if (!ok) {
                    std::lock_guard lock(mutex);
                    if (ok.error().code == ErrorCode::Cancelled) {
                        if (!cancelled)
                            cancelled = ok.error();
                    } else if (!firstError) {
                        firstError = ok.error();
                    }
                    failed.store(true);
                }
            }
            std::lock_guard lock(mutex);
            --running;
            wake.notify_all();
        });
    }
    const auto interval = std::chrono::milliseconds(std::max(1, intervalMs));
    {
        std::unique_lock lock(mutex);
        while (running > 0) {
            // Wakes for a finished worker or the next tick; a cancel is seen by the workers within
            // one read piece, and they wake this thread as they leave.
            if (!wake.wait_for(lock, interval, [&] { return running == 0; }) && tick) {
                lock.unlock();
                tick();
                lock.lock();
            }
        }
    }
    for (std::thread& w : workers)
        w.join();
    if (firstError)
        return *firstError;
    if (cancelled)
        return *cancelled;
    if (m_cancel.isCancelled())
        return makeError(ErrorCode::Cancelled, QString(), QStringLiteral("the comparison was cancelled"));
    return {};
}

} // namespace ts::diff
