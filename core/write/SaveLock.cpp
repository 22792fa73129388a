#include "write/SaveLock.h"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <utility>

namespace ts {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kPoll{10};

std::mutex& registryMutex()
{
    static std::mutex m;
    return m;
}

// Which thread holds the lock on an inode. Only that thread may proceed without the flock: any
// other thread of this process waits like another process would (its open file description is
// its own), which is what a second tab saving or reloading the same file needs.
std::map<std::pair<dev_t, ino_t>, std::thread::id>& registry()
{
    static std::map<std::pair<dev_t, ino_t>, std::thread::id> held;
    return held;
}

bool registeredToThisThread(dev_t dev, ino_t ino)
{
    std::lock_guard guard(registryMutex());
    const auto it = registry().find({dev, ino});
    return it != registry().end() && it->second == std::this_thread::get_id();
}

} // namespace

SaveLock::SaveLock(int fd, dev_t dev, ino_t ino) : m_fd(fd), m_dev(dev), m_ino(ino) {}

SaveLock::SaveLock(SaveLock&& other) noexcept
    : m_fd(std::exchange(other.m_fd, -1)), m_dev(other.m_dev), m_ino(other.m_ino)
{
}

SaveLock::~SaveLock()
{
    if (m_fd < 0)
        return;
    {
        std::lock_guard guard(registryMutex());
        registry().erase({m_dev, m_ino});
    }
    ::close(m_fd); // drops the flock
}

Result<SaveLock> SaveLock::acquire(const QString& path, std::chrono::milliseconds wait)
{
    const QByteArray encoded = QFile::encodeName(path);
    const auto deadline = Clock::now() + wait;
    for (;;) {
        // O_RDONLY is enough for flock, and works on a read-only file the user asked to --force.
        const int fd = ::open(encoded.constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0) {
            return makeError(ErrorCode::IoError, path,
                             QStringLiteral("cannot open the file to lock it for saving: %1")
                                 .arg(QString::fromLocal8Bit(std::strerror(errno))));
        }
        struct stat held {};
        if (::fstat(fd, &held) != 0 || !S_ISREG(held.st_mode)) {
            ::close(fd);
            return makeError(ErrorCode::NotAFile, path,
                             QStringLiteral("is not a regular file; nothing was saved"));
        }
        {
            std::lock_guard guard(registryMutex());
            const auto it = registry().find({held.st_dev, held.st_ino});
            if (it != registry().end() && it->second == std::this_thread::get_id()) {
                // Re-entered (the CLI locked before it opened the model): the outer lock covers
                // this save, and this one owns nothing.
                ::close(fd);
                return SaveLock(-1, held.st_dev, held.st_ino);
            }
        }
        bool locked = false;
        while (!(locked = ::flock(fd, LOCK_EX | LOCK_NB) == 0) && (errno == EWOULDBLOCK || errno == EINTR) &&
               Clock::now() < deadline)
            std::this_thread::sleep_for(kPoll);
        if (!locked) {
            ::close(fd);
            return makeError(
                ErrorCode::FileBusy, path,
                QStringLiteral("is being saved by another process (waited %1 s); nothing was saved")
                    .arg(static_cast<double>(wait.count()) / 1000.0, 0, 'f', 1));
        }
        // The other writer may have renamed a new file over the path while we waited: the lock
        // on the old inode protects nothing then.
        struct stat now {};
        if (::stat(encoded.constData(), &now) == 0 && now.st_dev == held.st_dev &&
            now.st_ino == held.st_ino) {
            std::lock_guard guard(registryMutex());
            registry()[{held.st_dev, held.st_ino}] = std::this_thread::get_id();
            return SaveLock(fd, held.st_dev, held.st_ino);
        }
        ::close(fd);
        if (Clock::now() >= deadline) {
            return makeError(
                ErrorCode::FileBusy, path,
                QStringLiteral("is being saved by another process (it was replaced while waiting); "
                               "nothing was saved"));
        }
    }
}

bool SaveLock::heldByThisThread(int fd)
{
    struct stat st {};
    return ::fstat(fd, &st) == 0 && registeredToThisThread(st.st_dev, st.st_ino);
}

bool SaveLock::waitForWriters(int fd, std::chrono::milliseconds wait)
{
    if (heldByThisThread(fd))
        return false; // our own writer: it is the one reading
    const auto deadline = Clock::now() + wait;
    for (;;) {
        if (::flock(fd, LOCK_SH | LOCK_NB) == 0)
            return true;
        if ((errno != EWOULDBLOCK && errno != EINTR) || Clock::now() >= deadline)
            return false;
        std::this_thread::sleep_for(kPoll);
    }
}

void SaveLock::releaseShared(int fd)
{
    ::flock(fd, LOCK_UN);
}

} // namespace ts
