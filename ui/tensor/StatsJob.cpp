#include "tensor/StatsJob.h"

#include "analysis/TensorAnalyzer.h"

namespace ts::ui {
namespace {

std::shared_ptr<const TensorStatsEntry> compute(const std::shared_ptr<const Checkpoint>& model, int tensor,
                                                int bins, const JobControl& control)
{
    auto entry = std::make_shared<TensorStatsEntry>();
    const CheckpointTensor& t = model->tensors()[static_cast<std::size_t>(tensor)];
    TensorAnalyzer analyzer(model->location(tensor), t.info.flattened());
    if (Result<void> ok = analyzer.check(); !ok) {
        entry->error = ok.error();
        return entry;
    }
    // One pass for dtypes of 16 bits or fewer, two (four for 64-bit values) for wider ones.
    Result<TensorAnalyzer::Analysis> analysis = analyzer.analyze(bins, true, true, control);
    if (!analysis) {
        entry->error = analysis.error();
        return entry;
    }
    entry->stats = std::move(analysis->stats);
    entry->histogram = std::move(analysis->histogram);
    return entry;
}

} // namespace

StatsJob::StatsJob(QObject* parent) : QObject(parent) {}

void StatsJob::setModel(std::shared_ptr<const Checkpoint> model)
{
    cancel();
    m_model = std::move(model);
    m_cache.clear();
}

std::shared_ptr<const TensorStatsEntry> StatsJob::cached(int tensor, int bins) const
{
    return m_cache.value(key(tensor, bins));
}

void StatsJob::cancel()
{
    m_runner.cancel();
    m_pendingKey = ~quint64(0);
}

std::shared_ptr<const TensorStatsEntry> StatsJob::request(int tensor, int bins)
{
    if (!m_model || tensor < 0 || tensor >= static_cast<int>(m_model->tensors().size()))
        return nullptr;
    if (auto hit = cached(tensor, bins))
        return hit;
    if (m_runner.isRunning() && m_pendingKey == key(tensor, bins))
        return nullptr; // already on its way (the histogram and statistics panels both ask)
    m_pendingKey = key(tensor, bins);
    m_runner.start([model = m_model, tensor,
                    bins](const JobControl& control) { return compute(model, tensor, bins, control); },
                   [this, tensor, bins](std::shared_ptr<const TensorStatsEntry> entry) {
                       m_pendingKey = ~quint64(0);
                       m_cache.insert(key(tensor, bins), entry);
                       emit ready(tensor, bins);
                       if (entry->error)
                           emit readFailed(*entry->error);
                   });
    emit started(tensor);
    return nullptr;
}

} // namespace ts::ui
