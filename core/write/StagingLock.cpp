#include "write/StagingLock.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ts {
namespace {

const QString kStage = QStringLiteral(".tensorscope-stage-");
const QString kLockSuffix = QStringLiteral(".lock");

// "<digits>" between the stage marker and ".lock", or an empty string.
QString runIdOfLock(const QString& name)
{
    if (!name.startsWith(kStage) || !name.endsWith(kLockSuffix))
        return {};
    const QString id = name.mid(kStage.size(), name.size() - kStage.size() - kLockSuffix.size());
    for (const QChar c : id) {
        if (!c.isDigit())
            return {};
    }
    return id;
}

} // namespace

StagingLock::StagingLock(QString lockPath, QString prefix, int fd)
    : m_lockPath(std::move(lockPath)), m_prefix(std::move(prefix)), m_fd(fd)
{
}

StagingLock::StagingLock(StagingLock&& other) noexcept
    : m_lockPath(std::move(other.m_lockPath)), m_prefix(std::move(other.m_prefix)), m_fd(other.m_fd)
{
    other.m_fd = -1;
    other.m_lockPath.clear();
}

StagingLock::~StagingLock()
{
    if (m_fd < 0)
        return;
    // Unlinked while still locked, so a sweep can never remove a live run's lock file.
    ::unlink(QFile::encodeName(m_lockPath).constData());
    ::close(m_fd);
}

Result<StagingLock> StagingLock::acquire(const QString& folder)
{
    const QString id = QString::number(QCoreApplication::applicationPid());
    const QString lockPath = QDir(folder).filePath(kStage + id + kLockSuffix);
    const int fd =
        ::open(QFile::encodeName(lockPath).constData(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0 || ::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        if (fd >= 0)
            ::close(fd);
        return makeError(ErrorCode::IoError, lockPath,
                         QStringLiteral("cannot create the staging lock for the shards: %1")
                             .arg(QString::fromLocal8Bit(std::strerror(err))));
    }
    return StagingLock(lockPath, kStage + id + QLatin1Char('-'), fd);
}

int StagingLock::removeAbandoned(const QString& folder)
{
    const QDir dir(folder);
    const QStringList names = dir.entryList(QDir::Files | QDir::Hidden | QDir::System);
    int removed = 0;
    for (const QString& lockName : names) {
        const QString id = runIdOfLock(lockName);
        if (id.isEmpty())
            continue;
        const QByteArray lockPath = QFile::encodeName(dir.filePath(lockName));
        const int fd = ::open(lockPath.constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        if (fd < 0)
            continue;
        struct stat st {};
        if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || ::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            ::close(fd); // a live run (or not a lock file): leave it be
            continue;
        }
        // Its run is gone and we hold the lock: its shards ("<prefix>NAME") and the temporaries
        // AtomicFile made for them (".<prefix>NAME.tensorscope-XXXXXX") go, then the lock file.
        const QString prefix = kStage + id + QLatin1Char('-');
        for (const QString& name : names) {
            if ((name.startsWith(prefix) || name.startsWith(QLatin1Char('.') + prefix)) &&
                QFile::remove(dir.filePath(name)))
                ++removed;
        }
        if (::unlink(lockPath.constData()) == 0)
            ++removed;
        ::close(fd);
    }
    return removed;
}

} // namespace ts
