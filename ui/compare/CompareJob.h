#pragma once

#include "diff/CheckpointDiff.h"

#include <QObject>
#include <QString>

#include <memory>

namespace ts::ui {

// Runs one comparison off the UI thread: opens both checkpoints and runs CheckpointDiff in a
// worker, forwards its throttled progress, and delivers the report. Each start() is a new job; a
// result or progress of an older one (cancelled, or replaced) is dropped by its job id, so a
// closed or restarted comparison never shows a stale report.
class CompareJob final : public QObject {
    Q_OBJECT
public:
    explicit CompareJob(QObject* parent = nullptr);
    ~CompareJob() override;

    void start(const QString& a, const QString& b, diff::DiffOptions options);
    // Stops the running job (it ends within one read piece) and drops what it would deliver.
    void cancel();
    bool isRunning() const { return m_running; }
    quint64 currentJob() const { return m_job; }

signals:
    void progress(const ts::diff::DiffProgress& progress);
    void finished(std::shared_ptr<ts::diff::DiffReport> report);
    void failed(const ts::Error& error);

private:
    struct Running;
    void deliver(quint64 job, Result<std::shared_ptr<diff::DiffReport>> result);

    quint64 m_job = 0;
    bool m_running = false;
    std::shared_ptr<Running> m_current;
};

} // namespace ts::ui
