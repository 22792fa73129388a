#pragma once

#include "analysis/ScanPlan.h"
#include "base/CancelToken.h"
#include "base/Error.h"
#include "base/Result.h"

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

namespace ts {

// The threads of a scan. run() hands a plan's items out in order to its worker threads, which
// call the pass's function on every segment of the item they took. The first error (other than
// a cancel) is kept and makes the others stop before their next item; a cancel stops them
// within one 4 MiB piece (the token is the one the reads poll).
class ScanWorkers {
public:
    using Work = std::function<Result<void>(const ScanSegment&)>;

    ScanWorkers(int threads, CancelToken cancel);

    // Blocks until every item is done or the pass stopped. `work` is called from several
    // threads at once, each with its own segment.
    void run(const std::vector<ScanItem>& items, const Work& work);
    // Why the scan must end now: the first read error of any pass, or Cancelled (naming `file`)
    // once the token is cancelled, even after the last item finished; nullopt to go on.
    std::optional<Error> stopped(const QString& file) const;

    // `requested` threads (0: one per core), between 1 and 256.
    static int threadCount(int requested);

private:
    void work(const std::vector<ScanItem>& items, std::atomic<std::size_t>& next, const Work& fn);

    int m_threads;
    CancelToken m_cancel;
    std::atomic<bool> m_failed{false};
    mutable std::mutex m_errorMutex;
    std::optional<Error> m_firstError;
};

} // namespace ts
