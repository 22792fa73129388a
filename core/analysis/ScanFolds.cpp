#include "analysis/ScanFolds.h"

#include "analysis/CodedAccumulator.h"
#include "analysis/TensorAnalyzer.h"
#include "codec/CodeTable.h"
#include "codec/DtypeDecoder.h"

#include <algorithm>

namespace ts {

ScanFolds::ScanFolds(const std::vector<Tensor>& tensors, int bins, bool logHistogram, bool quantiles)
    : m_bins(bins), m_logHistogram(logHistogram), m_quantiles(quantiles)
{
    // Without histograms or quantiles (the NaN/Inf check, plain statistics) nothing folds: no state
    // at all, where a state per tensor (700 bytes) was 70 MB for a model of 100k tensors.
    if (!folding())
        return;
    for (const Tensor& t : tensors) {
        auto s = std::make_unique<State>();
        s->dtype = t.dtype;
        s->parts = std::max<std::size_t>(1, t.parts);
        s->remaining = s->parts;
        s->laterPasses = laterPasses(t.dtype, bins, quantiles);
        m_states.push_back(std::move(s));
    }
}

int ScanFolds::laterPasses(Dtype dtype, int bins, bool quantiles)
{
    if (decode::isCoded(dtype))
        return 0;
    const int search = quantiles ? TensorAnalyzer::keyBits(dtype) / 16 - 1 : 0;
    return std::max(bins > 0 ? 1 : 0, search);
}

bool ScanFolds::wantsCounts(std::size_t tensor) const
{
    if (!folding())
        return false;
    return decode::isCoded(m_states[tensor]->dtype) ? m_bins > 0 || m_quantiles : m_quantiles;
}

void ScanFolds::addCounts(std::size_t tensor, CodeCounts counts)
{
    State& s = *m_states[tensor];
    std::lock_guard lock(s.mutex);
    s.counts.merge(counts);
    if (--s.remaining == 0)
        fold(s);
}

void ScanFolds::fold(State& s)
{
    if (decode::isCoded(s.dtype)) {
        const CodeTable& table = CodeTable::of(s.dtype);
        if (m_quantiles)
            s.quantiles = CodedAccumulator::quantiles(table, s.counts);
        if (m_bins > 0) {
            ValueStats range = CodedAccumulator::summarize(table, s.counts);
            range.finalize();
            HistogramBuilder builder(range, m_bins, m_logHistogram);
            builder.add(table, s.counts);
            s.histogram = builder.histogram();
        }
    } else if (m_quantiles) {
        s.search.emplace(s.counts, TensorAnalyzer::keyBits(s.dtype));
    }
    s.counts = {};
}

void ScanFolds::finishFirstPass(std::size_t tensor, ValueStats& stats)
{
    if (!folding())
        return;
    State& s = *m_states[tensor];
    if (s.quantiles)
        stats.quantiles = s.quantiles;
    if (!decode::isCoded(s.dtype) && m_bins > 0) {
        s.range = stats;
        s.builder = std::make_unique<HistogramBuilder>(stats, m_bins, m_logHistogram);
    }
}

bool ScanFolds::nextPass()
{
    bool any = false;
    for (auto& s : m_states) {
        if (s->passesDone < s->laterPasses) {
            s->remaining = s->parts;
            any = true;
        }
    }
    m_pass += any;
    return any;
}

bool ScanFolds::inPass(std::size_t tensor) const
{
    const State& s = *m_states[tensor];
    return s.passesDone < s.laterPasses && s.passesDone + 1 == m_pass;
}

Result<void> ScanFolds::runPart(std::size_t tensor, TensorAnalyzer& analyzer, std::uint64_t first,
                                std::uint64_t count, const JobControl& control)
{
    State& s = *m_states[tensor];
    // Nothing else touches the search while this pass runs: it is narrowed only by the last part.
    const QuantileSearch* search = s.search && !s.search->done() ? &*s.search : nullptr;
    const bool histogramPass = s.passesDone == 0 && s.builder;
    QuantileSearch::Matches matches;
    std::optional<HistogramBuilder> local;
    HistogramBuilder* builder = nullptr;
    if (histogramPass && s.parts == 1) {
        builder = s.builder.get(); // the only writer of this builder
    } else if (histogramPass) {
        local.emplace(*s.range, m_bins, m_logHistogram);
        builder = &*local;
    }
    if (auto ok = analyzer.laterPassOfRange(first, count, builder, search, &matches, control); !ok)
        return ok;
    std::lock_guard lock(s.mutex);
    if (local)
        s.builder->merge(*local);
    if (search)
        s.search->add(matches);
    if (--s.remaining == 0) {
        if (s.search)
            s.search->finishPass();
        ++s.passesDone;
    }
    return {};
}

std::optional<Histogram> ScanFolds::histogram(std::size_t tensor) const
{
    if (!folding())
        return std::nullopt;
    const State& s = *m_states[tensor];
    if (s.builder)
        return s.builder->histogram();
    return s.histogram;
}

void ScanFolds::finish(std::size_t tensor, ValueStats& stats) const
{
    if (!folding())
        return;
    const State& s = *m_states[tensor];
    if (s.search)
        stats.quantiles = s.search->result();
}

} // namespace ts
