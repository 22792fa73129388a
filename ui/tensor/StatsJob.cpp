#include "tensor/StatsJob.h"

#include "analysis/TensorAnalyzer.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace ts::ui {
namespace {

std::shared_ptr<const TensorStatsEntry> compute(std::shared_ptr<const Checkpoint> model, int tensor, int bins,
                                                std::shared_ptr<std::atomic<bool>> cancel)
{
    auto entry = std::make_shared<TensorStatsEntry>();
    const CheckpointTensor& t = model->tensors()[static_cast<std::size_t>(tensor)];
    TensorAnalyzer analyzer(model->location(tensor), t.info.flattened());
    ReadControl control;
    control.cancel = cancel.get();
    if (Result<void> ok = analyzer.check(); !ok) {
        entry->error = ok.error().toString();
        return entry;
    }
    // One pass for dtypes of 16 bits or fewer, two (four for 64-bit values) for wider ones.
    Result<TensorAnalyzer::Analysis> analysis = analyzer.analyze(bins, true, true, control);
    if (!analysis) {
        entry->error = analysis.error().toString();
        return entry;
    }
    entry->stats = std::move(analysis->stats);
    entry->histogram = std::move(analysis->histogram);
    return entry;
}

} // namespace

StatsJob::StatsJob(QObject* parent) : QObject(parent) {}

StatsJob::~StatsJob()
{
    cancel();
}

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
    if (m_cancel)
        m_cancel->store(true);
    m_cancel.reset();
    ++m_job;
    m_running = false;
    m_pendingKey = ~quint64(0);
}

std::shared_ptr<const TensorStatsEntry> StatsJob::request(int tensor, int bins)
{
    if (!m_model || tensor < 0 || tensor >= static_cast<int>(m_model->tensors().size()))
        return nullptr;
    if (auto hit = cached(tensor, bins))
        return hit;
    if (m_running && m_pendingKey == key(tensor, bins))
        return nullptr; // already on its way (the histogram and statistics panels both ask)
    cancel();
    const quint64 job = m_job;
    m_pendingKey = key(tensor, bins);
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_running = true;
    auto* watcher = new QFutureWatcher<std::shared_ptr<const TensorStatsEntry>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job, tensor, bins] {
        watcher->deleteLater();
        if (job != m_job)
            return; // another tensor was selected meanwhile
        m_running = false;
        m_pendingKey = ~quint64(0);
        m_cache.insert(key(tensor, bins), watcher->result());
        emit ready(tensor, bins);
    });
    watcher->setFuture(QtConcurrent::run(compute, m_model, tensor, bins, m_cancel));
    emit started(tensor);
    return nullptr;
}

} // namespace ts::ui
