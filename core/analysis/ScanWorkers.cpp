#include "analysis/ScanWorkers.h"

#include <algorithm>
#include <thread>

namespace ts {

ScanWorkers::ScanWorkers(int threads, CancelToken cancel) : m_threads(threads), m_cancel(std::move(cancel)) {}

int ScanWorkers::threadCount(int requested)
{
    const int threads = requested > 0 ? requested : static_cast<int>(std::thread::hardware_concurrency());
    return std::clamp(threads, 1, 256);
}

void ScanWorkers::run(const std::vector<ScanItem>& items, const Work& work)
{
    std::atomic<std::size_t> next{0};
    const int n = std::min<int>(m_threads, static_cast<int>(std::max<std::size_t>(1, items.size())));
    std::vector<std::thread> threads;
    threads.reserve(static_cast<std::size_t>(n));
    for (int t = 0; t < n; ++t)
        threads.emplace_back([&] { this->work(items, next, work); });
    for (std::thread& thread : threads)
        thread.join();
}

void ScanWorkers::work(const std::vector<ScanItem>& items, std::atomic<std::size_t>& next, const Work& fn)
{
    while (!m_cancel.isCancelled() && !m_failed.load(std::memory_order_relaxed)) {
        const std::size_t i = next.fetch_add(1);
        if (i >= items.size())
            return;
        for (const ScanSegment& segment : items[i].segments) {
            Result<void> ok = fn(segment);
            if (!ok) {
                std::lock_guard lock(m_errorMutex);
                if (!m_firstError && ok.error().code != ErrorCode::Cancelled)
                    m_firstError = ok.error();
                m_failed.store(true);
                break;
            }
        }
    }
}

std::optional<Error> ScanWorkers::stopped(const QString& file) const
{
    {
        std::lock_guard lock(m_errorMutex);
        if (m_firstError)
            return m_firstError;
    }
    if (m_cancel.isCancelled())
        return makeError(ErrorCode::Cancelled, file, QStringLiteral("the scan was cancelled"));
    return std::nullopt;
}

} // namespace ts
