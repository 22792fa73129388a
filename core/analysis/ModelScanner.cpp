#include "analysis/ModelScanner.h"

#include "analysis/DeadRowFindings.h"
#include "analysis/DuplicateFindings.h"
#include "analysis/HistogramBuilder.h"
#include "analysis/ScanFindings.h"
#include "analysis/ScanPlan.h"
#include "analysis/ScanWorkers.h"
#include "analysis/SiblingFindings.h"
#include "analysis/TensorAnalyzer.h"

#include <chrono>
#include <mutex>

namespace ts {
namespace {

using Clock = std::chrono::steady_clock;

// The statistics pass (or the NaN/Inf pass): one partial per segment, merged in element order,
// finalized. The partials of a tensor merge in part order, whichever thread computed them.
Result<std::vector<TensorStats>> statisticsPass(const ScanPlan& plan, ScanPass pass, ScanWorkers& workers,
                                                const JobControl& control, const QString& file)
{
    std::vector<std::vector<std::optional<TensorStats>>> partials(plan.targets.size());
    for (std::size_t t = 0; t < plan.targets.size(); ++t)
        partials[t].resize(plan.targets[t].parts);
    workers.run(plan.items, [&](const ScanSegment& seg) -> Result<void> {
        const ScanTarget& target = plan.targets[seg.target];
        TensorAnalyzer analyzer(target.location, *target.info);
        Result<TensorStats> r = pass == ScanPass::NanInf
                                    ? analyzer.nanInfOfRange(seg.first, seg.count, control)
                                    : analyzer.statsOfRange(seg.first, seg.count, control);
        if (!r)
            return r.error();
        partials[seg.target][seg.part] = std::move(r.value());
        return {};
    });
    if (auto error = workers.stopped(file))
        return *error;
    std::vector<TensorStats> merged;
    merged.reserve(plan.targets.size());
    for (auto& parts : partials) {
        TensorStats whole = std::move(*parts[0]);
        for (std::size_t p = 1; p < parts.size(); ++p)
            whole.mergeFollowing(*parts[p]);
        whole.finalize();
        merged.push_back(std::move(whole));
    }
    return merged;
}

// The histogram pass needs the statistics' range. A tensor of one part fills its builder alone;
// the parts of a big one fill their own and are summed into it (exact integers: any order).
Result<std::vector<std::optional<Histogram>>> histogramPass(const ScanPlan& plan,
                                                            const std::vector<TensorStats>& stats,
                                                            const ScanOptions& options, ScanWorkers& workers,
                                                            const JobControl& control, const QString& file)
{
    const int bins = options.histogramBins;
    std::vector<std::unique_ptr<HistogramBuilder>> builders;
    for (const TensorStats& t : stats)
        builders.push_back(std::make_unique<HistogramBuilder>(t.values, bins, options.logHistogram));
    const auto locks = std::make_unique<std::mutex[]>(plan.targets.size());
    workers.run(plan.items, [&](const ScanSegment& seg) -> Result<void> {
        const ScanTarget& target = plan.targets[seg.target];
        TensorAnalyzer analyzer(target.location, *target.info);
        if (target.parts == 1) // the only writer of this builder
            return analyzer.histogramOfRange(seg.first, seg.count, *builders[seg.target], control);
        HistogramBuilder local(stats[seg.target].values, bins, options.logHistogram);
        if (auto ok = analyzer.histogramOfRange(seg.first, seg.count, local, control); !ok)
            return ok;
        std::lock_guard lock(locks[seg.target]);
        builders[seg.target]->merge(local);
        return {};
    });
    if (auto error = workers.stopped(file))
        return *error;
    std::vector<std::optional<Histogram>> histograms;
    for (auto& b : builders)
        histograms.emplace_back(b->histogram());
    return histograms;
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

    ScanResult result;
    for (const ScanPass pass : plan->passes) {
        if (pass == ScanPass::Histograms) {
            auto histograms = histogramPass(*plan, result.tensors, m_options, workers, m_control, file);
            if (!histograms)
                return histograms.error();
            result.histograms = std::move(histograms.value());
        } else {
            auto stats = statisticsPass(*plan, pass, workers, m_control, file);
            if (!stats)
                return stats.error();
            result.tensors = std::move(stats.value());
        }
    }

    for (std::size_t t = 0; t < plan->targets.size(); ++t) {
        for (Diagnostic& d : ScanFindings::of(result.tensors[t], plan->targets[t].location))
            result.findings.push_back(std::move(d));
    }
    if (!m_options.nanInfOnly) {
        if (auto ok = appendCrossTensorFindings(*plan, result.tensors, workers, m_control.cancel, file,
                                                result.findings);
            !ok)
            return ok.error();
    }
    result.bytes = plan->bytes;
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    m_control.progress.flush();
    return result;
}

} // namespace ts
