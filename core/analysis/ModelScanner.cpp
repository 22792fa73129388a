#include "analysis/ModelScanner.h"

#include "analysis/DeadRowFindings.h"
#include "analysis/DuplicateFindings.h"
#include "analysis/NanInfCounter.h"
#include "analysis/ScanFindings.h"
#include "analysis/ScanFolds.h"
#include "analysis/SiblingFindings.h"
#include "analysis/TensorAnalyzer.h"
#include "analysis/TensorBlockReader.h"
#include "analysis/ValueAccumulator.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace ts {
namespace {

using Clock = std::chrono::steady_clock;

// A piece of one tensor: elements [first, first + count), the `part`-th of its tensor.
struct Segment {
    std::size_t slot = 0;
    std::size_t part = 0;
    std::uint64_t first = 0;
    std::uint64_t count = 0;
};

// What one worker takes at a time: a chunk of a big tensor, or a batch of small tensors.
struct WorkItem {
    std::vector<Segment> segments;
    std::uint64_t bytes = 0;
};

struct Slot {
    TensorLocation location;
    const TensorInfo* info = nullptr;
    std::size_t parts = 0;
};

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace

struct ModelScanner::State {
    std::mutex mutex;
    std::condition_variable wake;
    int running = 0;
};

ModelScanner::ModelScanner(std::shared_ptr<const Checkpoint> model, ScanOptions options)
    : m_model(std::move(model)), m_options(std::move(options)), m_state(std::make_unique<State>())
{
}

ModelScanner::~ModelScanner() = default;

void ModelScanner::setProgressCallback(ProgressCallback callback, int progressIntervalMs)
{
    m_progress = std::move(callback);
    m_progressIntervalMs = std::max(1, progressIntervalMs);
}

void ModelScanner::cancel()
{
    m_cancel.store(true);
    std::lock_guard lock(m_state->mutex);
    m_state->wake.notify_all();
}

Result<ScanResult> ModelScanner::run()
{
    const Clock::time_point start = Clock::now();
    std::vector<int> selected = m_options.tensors;
    if (selected.empty()) {
        for (int i = 0; i < static_cast<int>(m_model->tensors().size()); ++i)
            selected.push_back(i);
    }

    // Plan: fixed chunk boundaries (independent of the thread count) make results reproducible.
    std::vector<Slot> targets;
    std::vector<WorkItem> items;
    WorkItem batch;
    std::uint64_t totalBytes = 0;
    const std::uint64_t chunkBytes =
        std::max<std::uint64_t>(m_options.chunkBytes, TensorBlockReader::kReadBytes);
    for (int index : selected) {
        if (index < 0 || index >= static_cast<int>(m_model->tensors().size()))
            return makeError(ErrorCode::InvalidArgument, m_model->path(),
                             QStringLiteral("tensor index %1 is out of range").arg(index));
        Slot slot{m_model->location(index), &m_model->tensors()[static_cast<std::size_t>(index)].info, 0};
        if (auto ok = TensorAnalyzer(slot.location, *slot.info).check(); !ok)
            return ok.error();
        const Dtype dtype = slot.info->dtype;
        const std::uint64_t elements = slot.info->elementCount();
        const std::uint64_t bytes = TensorBlockReader::bytesFor(dtype, elements);
        // The NaN/Inf check reads nothing of a dtype without NaN/Inf codes: only read bytes count.
        if (!m_options.nanInfOnly || NanInfCounter(dtype).dtypeHasSpecials())
            totalBytes += bytes;
        const std::size_t s = targets.size();
        if (bytes < chunkBytes) {
            slot.parts = 1;
            batch.segments.push_back({s, 0, 0, elements});
            batch.bytes += bytes;
            if (batch.bytes >= chunkBytes) {
                items.push_back(std::move(batch));
                batch = {};
            }
        } else {
            const std::uint64_t block = ValueAccumulator::kBlock;
            const std::uint64_t perChunk = std::max<std::uint64_t>(
                block, chunkBytes * 8 / static_cast<std::uint64_t>(dtypeBits(dtype)) / block * block);
            for (std::uint64_t first = 0; first < elements; first += perChunk) {
                const std::uint64_t count = std::min(perChunk, elements - first);
                items.push_back(
                    {{{s, slot.parts++, first, count}}, TensorBlockReader::bytesFor(dtype, count)});
            }
        }
        targets.push_back(slot);
    }
    if (!batch.segments.empty())
        items.push_back(std::move(batch));

    const int bins = m_options.histogramBins;
    if (m_options.nanInfOnly && bins > 0)
        return makeError(ErrorCode::InvalidArgument, m_model->path(),
                         QStringLiteral("the NaN/Inf-only check computes no histograms"));
    const bool quantiles = m_options.quantiles && !m_options.nanInfOnly;
    std::vector<ScanFolds::Tensor> foldTensors;
    std::uint64_t bytesTotal = totalBytes;
    for (const Slot& slot : targets) {
        foldTensors.push_back({slot.info->dtype, slot.parts});
        bytesTotal += TensorBlockReader::bytesFor(slot.info->dtype, slot.info->elementCount()) *
                      static_cast<std::uint64_t>(ScanFolds::laterPasses(slot.info->dtype, bins, quantiles));
    }
    ScanFolds folds(foldTensors, bins, m_options.logHistogram, quantiles);
    std::atomic<std::uint64_t> bytesDone{0};
    std::atomic<bool> failed{false};
    std::mutex errorMutex;
    std::optional<Error> firstError;
    int threads =
        m_options.threads > 0 ? m_options.threads : static_cast<int>(std::thread::hardware_concurrency());
    threads = std::clamp(threads, 1, 256);

    ReadControl control;
    control.cancel = &m_cancel;
    control.onBytes = [&bytesDone](std::uint64_t n) { bytesDone.fetch_add(n, std::memory_order_relaxed); };

    auto emitProgress = [&] {
        if (!m_progress)
            return;
        ScanProgress p;
        p.bytesDone = bytesDone.load(std::memory_order_relaxed);
        p.bytesTotal = bytesTotal;
        p.elapsedSeconds = secondsSince(start);
        p.bytesPerSecond = p.elapsedSeconds > 0 ? static_cast<double>(p.bytesDone) / p.elapsedSeconds : 0;
        p.etaSeconds =
            p.bytesPerSecond > 0
                ? static_cast<double>(p.bytesTotal - std::min(p.bytesTotal, p.bytesDone)) / p.bytesPerSecond
                : -1;
        m_progress(p);
    };

    // Runs `work` over every item on the worker threads; this thread only reports progress.
    auto runPhase = [&](const std::function<Result<void>(const Segment&)>& work) {
        std::atomic<std::size_t> next{0};
        const int n = std::min<int>(threads, static_cast<int>(std::max<std::size_t>(1, items.size())));
        {
            std::lock_guard lock(m_state->mutex);
            m_state->running = n;
        }
        std::vector<std::thread> workers;
        workers.reserve(static_cast<std::size_t>(n));
        for (int t = 0; t < n; ++t) {
            workers.emplace_back([&] {
                while (!m_cancel.load(std::memory_order_relaxed) && !failed.load(std::memory_order_relaxed)) {
                    const std::size_t i = next.fetch_add(1);
                    if (i >= items.size())
                        break;
                    for (const Segment& segment : items[i].segments) {
                        Result<void> ok = work(segment);
                        if (!ok) {
                            std::lock_guard lock(errorMutex);
                            if (!firstError && ok.error().code != ErrorCode::Cancelled)
                                firstError = ok.error();
                            failed.store(true);
                            break;
                        }
                    }
                }
                std::lock_guard lock(m_state->mutex);
                --m_state->running;
                m_state->wake.notify_all();
            });
        }
        const auto interval = std::chrono::milliseconds(m_progressIntervalMs);
        Clock::time_point lastReport = Clock::now();
        std::unique_lock lock(m_state->mutex);
        while (m_state->running > 0) {
            m_state->wake.wait_until(lock, lastReport + interval);
            if (m_state->running > 0 && Clock::now() >= lastReport + interval) {
                lock.unlock();
                emitProgress();
                lastReport = Clock::now();
                lock.lock();
            }
        }
        lock.unlock();
        for (std::thread& w : workers)
            w.join();
    };

    auto stopped = [&]() -> std::optional<Error> {
        if (firstError)
            return firstError;
        if (m_cancel.load())
            return makeError(ErrorCode::Cancelled, m_model->path(), QStringLiteral("the scan was cancelled"));
        return std::nullopt;
    };

    // Pass 1: statistics, one partial per segment, merged below in element order.
    std::vector<std::vector<std::optional<TensorStats>>> partials(targets.size());
    for (std::size_t s = 0; s < targets.size(); ++s)
        partials[s].resize(targets[s].parts);
    runPhase([&](const Segment& seg) -> Result<void> {
        const Slot& slot = targets[seg.slot];
        TensorAnalyzer analyzer(slot.location, *slot.info);
        CodeCounts counts;
        const bool wantsCounts = !m_options.nanInfOnly && folds.wantsCounts(seg.slot);
        Result<TensorStats> r = m_options.nanInfOnly ? analyzer.nanInfOfRange(seg.first, seg.count, control)
                                                     : analyzer.statsOfRange(seg.first, seg.count, control,
                                                                             wantsCounts ? &counts : nullptr);
        if (!r)
            return r.error();
        if (wantsCounts)
            folds.addCounts(seg.slot, std::move(counts));
        partials[seg.slot][seg.part] = std::move(r.value());
        return {};
    });
    if (auto error = stopped())
        return *error;

    ScanResult result;
    result.tensors.reserve(targets.size());
    for (std::size_t s = 0; s < targets.size(); ++s) {
        TensorStats merged = std::move(*partials[s][0]);
        for (std::size_t p = 1; p < partials[s].size(); ++p)
            merged.mergeFollowing(*partials[s][p]);
        merged.finalize();
        folds.finishFirstPass(s, merged.values);
        result.tensors.push_back(std::move(merged));
    }
    partials.clear();

    // Later passes, for dtypes wider than 16 bits: histograms need pass 1's range (partial ones
    // are summed, exact integers), quantile searches narrow by 16 key bits a pass.
    while (folds.nextPass()) {
        runPhase([&](const Segment& seg) -> Result<void> {
            if (!folds.inPass(seg.slot))
                return {};
            const Slot& slot = targets[seg.slot];
            TensorAnalyzer analyzer(slot.location, *slot.info);
            return folds.runPart(seg.slot, analyzer, seg.first, seg.count, control);
        });
        if (auto error = stopped())
            return *error;
    }
    for (std::size_t s = 0; s < targets.size(); ++s) {
        folds.finish(s, result.tensors[s].values);
        if (bins > 0)
            result.histograms.push_back(folds.histogram(s));
    }

    for (std::size_t s = 0; s < targets.size(); ++s) {
        for (Diagnostic& d : ScanFindings::of(result.tensors[s], targets[s].location))
            result.findings.push_back(std::move(d));
    }
    // Findings that need more than one tensor's statistics: a block against its siblings, identical
    // data under two names, and all-zero rows and columns (read again only where the zeros allow).
    if (!m_options.nanInfOnly) {
        std::vector<TensorLocation> locations;
        std::vector<const TensorInfo*> infos;
        for (const Slot& slot : targets) {
            locations.push_back(slot.location);
            infos.push_back(slot.info);
        }
        auto append = [&](std::vector<Diagnostic> findings) {
            for (Diagnostic& d : findings)
                result.findings.push_back(std::move(d));
        };
        append(SiblingFindings::of(result.tensors, infos));
        // The two that read tensor bytes again stop on a cancel or a read error like the passes.
        auto take = [&](Result<std::vector<Diagnostic>> found) -> std::optional<Error> {
            if (auto error = stopped())
                return error;
            if (!found)
                return found.error();
            append(std::move(*found));
            return std::nullopt;
        };
        if (auto error = take(DuplicateFindings::of(result.tensors, locations, infos, &m_cancel)))
            return *error;
        if (auto error = take(DeadRowFindings::of(result.tensors, locations, infos, &m_cancel)))
            return *error;
    }
    result.bytes = totalBytes;
    result.seconds = secondsSince(start);
    emitProgress();
    return result;
}

} // namespace ts
