#pragma once

#include "base/Result.h"

#include <QString>

#include <chrono>
#include <sys/types.h>

namespace ts {

// A writer's exclusive claim on one model file for a whole read-modify-write:
// an flock on the file itself. A second writer waits a bounded time and then fails with "FILE is
// being saved by another process"; readers take a shared lock only while they read the header
// (waitForWriters), so they never see half a save. A full rewrite renames a new inode over the
// path while its lock is held: acquire() checks after locking that the path still names the
// locked inode, and starts again on the new one if not, so two writers never both "win".
//
// flock locks belong to an open file description, so a second lock from the same thread on the
// same file would wait for itself. The inodes locked, and by which thread, are kept in a registry
// that waitForWriters() and heldByThisThread() consult: the CLI takes the lock before it opens the
// model, and the open and the save inside it proceed under that one lock.
class SaveLock {
public:
    // Locks `path` (which must exist; a symlink is followed). `wait` bounds the time spent
    // waiting for another writer. When this thread already holds the file's lock, returns at
    // once a lock that owns nothing: the outer one covers the whole read-modify-write.
    static Result<SaveLock> acquire(const QString& path, std::chrono::milliseconds wait);
    // The default wait of a save: long enough for another in-place save (milliseconds) or a
    // rewrite of a few GB, short enough that a stuck writer is reported while the user waits.
    static constexpr std::chrono::milliseconds kDefaultWait{10000};

    SaveLock(SaveLock&& other) noexcept;
    SaveLock& operator=(SaveLock&&) = delete;
    SaveLock(const SaveLock&) = delete;
    ~SaveLock();

    // True when this thread holds a SaveLock on the file `fd` refers to.
    static bool heldByThisThread(int fd);
    // For readers: waits up to `wait` for a writer's exclusive lock on `fd` to go and takes a
    // shared one (release it with releaseShared). Returns false when a writer kept it longer;
    // the caller reads anyway and a torn header shows as an error, never as a write.
    static bool waitForWriters(int fd, std::chrono::milliseconds wait);
    static void releaseShared(int fd);

private:
    SaveLock(int fd, dev_t dev, ino_t ino);

    int m_fd = -1;
    dev_t m_dev = 0;
    ino_t m_ino = 0;
};

} // namespace ts
