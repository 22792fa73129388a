#include "compare/CompareJob.h"

#include <QFutureWatcher>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <mutex>

namespace ts::ui {

// What a cancel must reach: the comparison once the worker made it, or the worker before that.
struct CompareJob::Running {
    std::mutex mutex;
    bool cancelled = false;
    std::shared_ptr<diff::CheckpointDiff> diff;

    void cancel()
    {
        std::lock_guard lock(mutex);
        cancelled = true;
        if (diff)
            diff->cancel();
    }
};

CompareJob::CompareJob(QObject* parent) : QObject(parent) {}

CompareJob::~CompareJob()
{
    if (m_current)
        m_current->cancel(); // the worker holds its own reference; it only has to stop soon
}

void CompareJob::start(const QString& a, const QString& b, diff::DiffOptions options)
{
    cancel();
    const quint64 job = ++m_job;
    auto running = std::make_shared<Running>();
    m_current = running;
    m_running = true;
    QPointer<CompareJob> self(this);
    auto* watcher = new QFutureWatcher<Result<std::shared_ptr<diff::DiffReport>>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        deliver(job, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([running, a, b, options = std::move(options), self,
                                          job]() -> Result<std::shared_ptr<diff::DiffReport>> {
        Result<std::shared_ptr<const Checkpoint>> ca = Checkpoint::open(a);
        if (!ca)
            return ca.error();
        Result<std::shared_ptr<const Checkpoint>> cb = Checkpoint::open(b);
        if (!cb)
            return cb.error();
        {
            std::lock_guard lock(running->mutex);
            if (running->cancelled)
                return makeError(ErrorCode::Cancelled, a, QStringLiteral("the comparison was cancelled"));
            running->diff = std::make_shared<diff::CheckpointDiff>(*ca, *cb, options);
        }
        // Progress arrives on this worker every 100 ms at most: forwarded queued to a guarded
        // pointer, so a closed tab is never touched, and dropped there when the job is stale.
        running->diff->setProgressCallback([self, job](const diff::DiffProgress& p) {
            QMetaObject::invokeMethod(
                self.data(),
                [self, job, p] {
                    if (self && job == self->m_job)
                        emit self->progress(p);
                },
                Qt::QueuedConnection);
        });
        Result<diff::DiffReport> report = running->diff->run();
        if (!report)
            return report.error();
        return std::make_shared<diff::DiffReport>(std::move(*report));
    }));
}

void CompareJob::cancel()
{
    if (!m_running)
        return;
    m_current->cancel();
    m_current.reset();
    ++m_job; // what the worker still delivers is dropped
    m_running = false;
}

void CompareJob::deliver(quint64 job, Result<std::shared_ptr<diff::DiffReport>> result)
{
    if (job != m_job)
        return;
    m_running = false;
    m_current.reset();
    if (!result)
        emit failed(result.error());
    else
        emit finished(std::move(result.value()));
}

} // namespace ts::ui
