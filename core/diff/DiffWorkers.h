#pragma once

#include "base/CancelToken.h"
#include "base/Result.h"

#include <cstddef>
#include <functional>

namespace ts::diff {

// Runs the tasks of one phase of a comparison on worker threads while the calling thread reports
// progress: `tick` is called on it at most every `intervalMs` while tasks run, never from a worker.
// Workers stop taking tasks at the first error or when `cancel` is cancelled; run() returns the first
// error that is not Cancelled, else Cancelled when the flag was set, else success.
class DiffWorkers {
public:
    DiffWorkers(int threads, CancelToken cancel);

    Result<void> run(std::size_t count, const std::function<Result<void>(std::size_t)>& task,
                     const std::function<void()>& tick, int intervalMs);

private:
    int m_threads;
    CancelToken m_cancel;
};

} // namespace ts::diff
