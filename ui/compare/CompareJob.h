#pragma once

#include "common/JobRunner.h"
#include "diff/CheckpointDiff.h"

#include <QObject>
#include <QString>

#include <memory>

namespace ts::ui {

// Runs one comparison off the UI thread through the window's JobRunner: opens both checkpoints,
// runs CheckpointDiff on the job's cancel token, and reports its progress per phase. Each start()
// supersedes the running job, so a closed or restarted comparison never shows a stale report or
// a stale progress line.
class CompareJob final : public QObject {
    Q_OBJECT
public:
    explicit CompareJob(QObject* parent = nullptr);

    void start(const QString& a, const QString& b, diff::DiffOptions options);
    // Stops the running job (it ends within one read piece) and drops what it would deliver.
    void cancel() { m_runner.cancel(); }
    bool isRunning() const { return m_runner.isRunning(); }
    quint64 currentJob() const { return m_runner.currentJob(); }

signals:
    void progress(const ts::diff::DiffProgress& progress);
    void finished(std::shared_ptr<ts::diff::DiffReport> report);
    void failed(const ts::Error& error);

private:
    JobRunner m_runner;
};

} // namespace ts::ui
