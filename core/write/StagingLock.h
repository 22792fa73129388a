#pragma once

#include "base/Result.h"

#include <QString>

namespace ts {

// A sharded write's claim on its staging names in the output folder. Shards are written under
// `.tensorscope-stage-<pid>-NAME` and renamed only when all are done (ConvertWriter); a run
// killed before that (SIGKILL, power loss) would leave those hidden, possibly multi-GB files
// behind for good, since the next run has another pid. So each run first creates and flocks
// `.tensorscope-stage-<pid>.lock` and holds it to the end: a lock file nobody holds marks a dead
// run, and removeAbandoned() deletes its files. The kernel drops an flock with its process, so
// this works whatever killed the run; pid reuse cannot make a live run's files look abandoned.
class StagingLock {
public:
    static Result<StagingLock> acquire(const QString& folder);
    StagingLock(StagingLock&& other) noexcept;
    StagingLock& operator=(StagingLock&&) = delete;
    StagingLock(const StagingLock&) = delete;
    ~StagingLock(); // removes the lock file: the run's staged files are gone or renamed by then

    // Every staged file name of this run starts with this (inside the output folder).
    const QString& prefix() const { return m_prefix; }

    // Removes the staged shards, their temporaries and the lock file of every run in `folder`
    // whose lock is free. Returns how many files went.
    static int removeAbandoned(const QString& folder);

private:
    StagingLock(QString lockPath, QString prefix, int fd);

    QString m_lockPath;
    QString m_prefix;
    int m_fd = -1;
};

} // namespace ts
