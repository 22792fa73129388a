#include "tensor/StatsJob.h"

#include "analysis/TensorAnalyzer.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace ts::ui {
namespace {

std::shared_ptr<const TensorStatsEntry> compute(std::shared_ptr<const Checkpoint> model, int tensor, int bins,
                                                CancelToken cancel)
{
    auto entry = std::make_shared<TensorStatsEntry>();
    const CheckpointTensor& t = model->tensors()[static_cast<std::size_t>(tensor)];
    TensorAnalyzer analyzer(model->location(tensor), t.info.flattened());
    const JobControl control{std::move(cancel), {}};
    if (Result<void> ok = analyzer.check(); !ok) {
        entry->error = ok.error().toString();
        return entry;
    }
    Result<TensorStats> stats = analyzer.stats(control);
    if (!stats) {
        entry->error = stats.error().toString();
        return entry;
    }
    entry->stats = std::move(stats.value());
    Result<Histogram> hist = analyzer.histogram(entry->stats, bins, control);
    if (hist)
        entry->histogram = std::move(hist.value());
    else
        entry->error = hist.error().toString();
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
    m_cancel.cancel();
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
    m_cancel = CancelToken();
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
