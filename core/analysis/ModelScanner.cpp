#include "analysis/ModelScanner.h"

#include "analysis/DeadRowFindings.h"
#include "analysis/DuplicateFindings.h"
#include "analysis/ScanFindings.h"
#include "analysis/ScanFolds.h"
#include "analysis/ScanPlan.h"
#include "analysis/ScanWorkers.h"
#include "analysis/SiblingFindings.h"
#include "analysis/TensorAnalyzer.h"

#include <algorithm>
#include <chrono>
#include <numeric>

namespace ts {
namespace {

using Clock = std::chrono::steady_clock;

// The first pass (statistics, or the NaN/Inf counts): one partial per segment, merged in element
// order, finalized. The partials of a tensor merge in part order, whichever thread computed them.
// The statistics hand the folds the code counts they want (histograms and quantiles of dtypes of
// 16 bits or fewer, the first quantile step of wider ones).
// On a cancel with `partial` set, the tensors whose every segment finished are returned instead
// of the Cancelled error, unfinalised folds aside; `finishedAll` tells the two apart.
Result<std::vector<TensorStats>> firstPass(const ScanPlan& plan, ScanFolds& folds, ScanWorkers& workers,
                                           const JobControl& control, const QString& file, bool partial,
                                           bool& finishedAll, std::vector<std::size_t>& finishedTargets)
{
    finishedAll = false;
    // A tensor read in one segment (nearly all of them) is written straight into its result; only
    // tensors split into parts keep partials to merge. A partial slot for every tensor doubled the
    // memory of a scan of 100k small tensors. Workers write distinct elements of these vectors.
    const std::size_t n = plan.targets.size();
    std::vector<TensorStats> results(n);
    std::vector<std::uint8_t> whole(n, 0); // a one-segment tensor's result is in
    std::vector<std::vector<std::optional<TensorStats>>> partials(n);
    for (std::size_t t = 0; t < n; ++t) {
        if (plan.targets[t].parts > 1)
            partials[t].resize(plan.targets[t].parts);
    }
    const auto keep = [&](const ScanSegment& seg, TensorStats&& stats) {
        if (plan.targets[seg.target].parts > 1) {
            partials[seg.target][seg.part] = std::move(stats);
        } else {
            results[seg.target] = std::move(stats);
            whole[seg.target] = 1;
        }
    };
    workers.run(plan.items, [&](const ScanSegment& seg) -> Result<void> {
        const ScanTarget& target = plan.targets[seg.target];
        TensorAnalyzer analyzer(target.location, *target.info);
        if (plan.firstPass == ScanPass::NanInf) {
            Result<TensorStats> r = analyzer.nanInfOfRange(seg.first, seg.count, control);
            if (!r)
                return r.error();
            keep(seg, std::move(r.value()));
            return {};
        }
        CodeCounts counts;
        const bool wantsCounts = folds.wantsCounts(seg.target);
        Result<TensorStats> r =
            analyzer.statsOfRange(seg.first, seg.count, control, wantsCounts ? &counts : nullptr);
        if (!r)
            return r.error();
        if (wantsCounts)
            folds.addCounts(seg.target, std::move(counts));
        keep(seg, std::move(r.value()));
        return {};
    });
    // The tensor's statistics whole, its parts merged in element order, not yet finalized; false
    // when a part is missing (cancelled).
    const auto assemble = [&](std::size_t t) {
        if (plan.targets[t].parts <= 1)
            return whole[t] != 0;
        std::vector<std::optional<TensorStats>>& parts = partials[t];
        if (!std::all_of(parts.begin(), parts.end(), [](const auto& p) { return p.has_value(); }))
            return false;
        results[t] = std::move(*parts[0]);
        for (std::size_t p = 1; p < parts.size(); ++p)
            results[t].mergeFollowing(*parts[p]);
        parts = {};
        return true;
    };
    if (auto error = workers.stopped(file)) {
        if (!partial || error->code != ErrorCode::Cancelled)
            return *error;
        // The finished tensors move to the front of `results` in place: a second vector grown
        // by push_back held up to twice the statistics again (60 MB on 100k tensors, the window's
        // peak when it closed during its check on open).
        std::size_t kept = 0;
        for (std::size_t t = 0; t < n; ++t) {
            if (!assemble(t))
                continue;
            finishedTargets.push_back(t);
            results[t].finalize();
            if (kept != t)
                results[kept] = std::move(results[t]);
            ++kept;
        }
        results.erase(results.begin() + static_cast<std::ptrdiff_t>(kept), results.end());
        return results;
    }
    finishedAll = true;
    for (std::size_t t = 0; t < n; ++t) {
        assemble(t);
        results[t].finalize();
        folds.finishFirstPass(t, results[t].values);
    }
    return results;
}

// The later passes, for dtypes wider than 16 bits only: histograms need the first pass's range
// (partial ones are summed, exact integers: any order), quantile searches narrow by 16 key bits a
// pass. ScanFolds decides how many there are and which tensors each one reads.
Result<void> laterPasses(const ScanPlan& plan, ScanFolds& folds, ScanWorkers& workers,
                         const JobControl& control, const QString& file)
{
    while (folds.nextPass()) {
        workers.run(plan.items, [&](const ScanSegment& seg) -> Result<void> {
            if (!folds.inPass(seg.target))
                return {};
            const ScanTarget& target = plan.targets[seg.target];
            TensorAnalyzer analyzer(target.location, *target.info);
            return folds.runPart(seg.target, analyzer, seg.first, seg.count, control);
        });
        if (auto error = workers.stopped(file))
            return *error;
    }
    return {};
}

ScanFolds foldsFor(const ScanPlan& plan, const ScanOptions& options)
{
    std::vector<ScanFolds::Tensor> tensors;
    tensors.reserve(plan.targets.size());
    for (const ScanTarget& target : plan.targets)
        tensors.push_back({target.info->dtype, target.parts});
    return ScanFolds(tensors, options.histogramBins, options.logHistogram, plan.quantiles);
}

// Findings that need more than one tensor's statistics: a block against its siblings, identical
// data under two names, and all-zero rows and columns (read again only where the zeros allow).
// The two that read tensor bytes again stop on a cancel like the passes.
Result<void> appendCrossTensorFindings(const ScanPlan& plan, const std::vector<TensorStats>& stats,
                                       ScanWorkers& workers, const CancelToken& cancel, const QString& file,
                                       std::vector<Diagnostic>& findings)
{
    std::vector<TensorLocation> locations;
    std::vector<const TensorInfo*> infos;
    for (const ScanTarget& target : plan.targets) {
        locations.push_back(target.location);
        infos.push_back(target.info);
    }
    auto append = [&findings](std::vector<Diagnostic> found) {
        for (Diagnostic& d : found)
            findings.push_back(std::move(d));
    };
    append(SiblingFindings::of(stats, infos));
    auto take = [&](Result<std::vector<Diagnostic>> found) -> Result<void> {
        if (auto error = workers.stopped(file))
            return *error;
        if (!found)
            return found.error();
        append(std::move(*found));
        return {};
    };
    if (auto ok = take(DuplicateFindings::of(stats, locations, infos, cancel)); !ok)
        return ok;
    return take(DeadRowFindings::of(stats, locations, infos, cancel));
}

} // namespace

ModelScanner::ModelScanner(std::shared_ptr<const Checkpoint> model, ScanOptions options)
    : m_model(std::move(model)), m_options(std::move(options))
{
}

void ModelScanner::setProgressCallback(ProgressSink::Listener listener, int progressIntervalMs)
{
    m_control.progress =
        ProgressSink(std::move(listener), std::chrono::milliseconds(std::max(1, progressIntervalMs)));
}

Result<ScanResult> ModelScanner::run()
{
    const Clock::time_point start = Clock::now();
    const QString& file = m_model->path();
    Result<ScanPlan> plan = ScanPlan::make(*m_model, m_options);
    if (!plan)
        return plan.error();
    m_control.progress.begin(plan->bytesOfAllPasses());
    ScanWorkers workers(ScanWorkers::threadCount(m_options.threads), m_control.cancel);

    ScanFolds folds = foldsFor(*plan, m_options);

    ScanResult result;
    result.planned = plan->targets.size();
    // What a cancel with partialOnCancel returns: the finished tensors and their own findings.
    std::vector<std::size_t> finishedTargets;
    const auto partialResult = [&](std::vector<TensorStats> finished) -> ScanResult {
        result.tensors = std::move(finished);
        result.complete = false;
        for (std::size_t i = 0; i < result.tensors.size(); ++i) {
            const ScanTarget& target = plan->targets[finishedTargets[i]];
            for (Diagnostic& d : ScanFindings::of(result.tensors[i], target.location))
                result.findings.push_back(std::move(d));
            result.bytes += target.location.length;
        }
        result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        return std::move(result);
    };
    bool finishedAll = false;
    auto stats = firstPass(*plan, folds, workers, m_control, file, m_options.partialOnCancel, finishedAll,
                           finishedTargets);
    if (!stats)
        return stats.error();
    if (!finishedAll)
        return partialResult(std::move(stats.value()));
    result.tensors = std::move(stats.value());
    if (auto ok = laterPasses(*plan, folds, workers, m_control, file); !ok) {
        if (m_options.partialOnCancel && ok.error().code == ErrorCode::Cancelled) {
            finishedTargets.resize(plan->targets.size()); // the first pass finished every one
            std::iota(finishedTargets.begin(), finishedTargets.end(), std::size_t(0));
            return partialResult(std::move(result.tensors));
        }
        return ok.error();
    }
    for (std::size_t t = 0; t < plan->targets.size(); ++t) {
        folds.finish(t, result.tensors[t].values);
        if (m_options.histogramBins > 0)
            result.histograms.push_back(folds.histogram(t));
    }

    for (std::size_t t = 0; t < plan->targets.size(); ++t) {
        for (Diagnostic& d : ScanFindings::of(result.tensors[t], plan->targets[t].location))
            result.findings.push_back(std::move(d));
    }
    if (!m_options.nanInfOnly) {
        const std::size_t ownFindings = result.findings.size();
        const Clock::time_point crossStart = Clock::now();
        if (auto ok = appendCrossTensorFindings(*plan, result.tensors, workers, m_control.cancel, file,
                                                result.findings);
            !ok) {
            if (!m_options.partialOnCancel || ok.error().code != ErrorCode::Cancelled)
                return ok.error();
            // Every tensor's numbers are done; the findings across tensors are dropped whole
            // rather than shown for some groups only.
            result.findings.erase(result.findings.begin() + static_cast<std::ptrdiff_t>(ownFindings),
                                  result.findings.end());
            result.complete = false;
        }
        result.crossTensorSeconds = std::chrono::duration<double>(Clock::now() - crossStart).count();
    }
    result.bytes = plan->bytes;
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    m_control.progress.flush();
    return result;
}

} // namespace ts
