#include "write/AtomicFile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace ts {

AtomicFile::AtomicFile(QString target) : m_target(std::move(target)) {}

AtomicFile::~AtomicFile()
{
    discard();
}

Error AtomicFile::ioError(const QString& what, int err) const
{
    QString reason = QString::fromLocal8Bit(std::strerror(err));
    if (err == ENOSPC || err == EFBIG || err == EDQUOT)
        reason = QStringLiteral("the disk is full (%1)").arg(reason);
    return makeError(ErrorCode::IoError, m_target,
                     QStringLiteral("%1: %2; nothing was changed").arg(what, reason));
}

Result<void> AtomicFile::open()
{
    // A file-size limit (RLIMIT_FSIZE) must surface as EFBIG, not kill the process.
    std::signal(SIGXFSZ, SIG_IGN);
    const QFileInfo info(m_target);
    if (info.isDir())
        return makeError(ErrorCode::NotAFile, m_target,
                         QStringLiteral("is a folder; choose a file name to write"));
    QByteArray pattern = QFile::encodeName(info.absolutePath() + QStringLiteral("/.") + info.fileName() +
                                           QStringLiteral(".tensorscope-XXXXXX"));
    removeStaleTemporaries(m_target);
    m_fd = ::mkstemp(pattern.data());
    if (m_fd < 0)
        return ioError(QStringLiteral("cannot create a temporary file in %1").arg(info.absolutePath()),
                       errno);
    ::fcntl(m_fd, F_SETFD, FD_CLOEXEC);
    // Held until the rename: tells removeStaleTemporaries() in another process that we are alive.
    ::flock(m_fd, LOCK_EX | LOCK_NB);
    m_tempPath = QFile::decodeName(pattern);
    // Keep the permissions of the file we replace; a new file gets the usual 0644 less umask.
    struct stat st {};
    mode_t mode = 0;
    if (::stat(QFile::encodeName(m_target).constData(), &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        mode = 0666 & ~mask;
    }
    ::fchmod(m_fd, mode);
    return {};
}

Result<void> AtomicFile::write(std::span<const std::byte> bytes)
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(m_fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return ioError(QStringLiteral("cannot write"), errno);
        }
        done += static_cast<std::size_t>(n);
    }
    m_written += done;
    return {};
}

Result<void> AtomicFile::copyFrom(int sourceFd, std::uint64_t offset, std::uint64_t length)
{
    auto in = static_cast<off64_t>(offset);
    std::uint64_t left = length;
    bool kernelCopy = true;
    while (left > 0 && kernelCopy) {
        const std::size_t step = static_cast<std::size_t>(std::min<std::uint64_t>(left, 1ULL << 30));
        const ssize_t n = ::copy_file_range(sourceFd, &in, m_fd, nullptr, step, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP ||
                errno == EBADF) {
                kernelCopy = false;
                break;
            }
            return ioError(QStringLiteral("cannot copy the tensor data"), errno);
        }
        if (n == 0) {
            return makeError(
                ErrorCode::FileChanged, m_target,
                QStringLiteral("the source file ended early at byte %1: it changed while being copied; "
                               "nothing was changed")
                    .arg(in));
        }
        left -= static_cast<std::uint64_t>(n);
        m_written += static_cast<std::uint64_t>(n);
    }
    std::vector<std::byte> buffer(left > 0 ? 4u << 20 : 0);
    while (left > 0) {
        const std::size_t step = static_cast<std::size_t>(std::min<std::uint64_t>(left, buffer.size()));
        const ssize_t n = ::pread(sourceFd, buffer.data(), step, in);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return ioError(QStringLiteral("cannot read the tensor data"), errno);
        }
        if (n == 0) {
            return makeError(
                ErrorCode::FileChanged, m_target,
                QStringLiteral("the source file ended early at byte %1: it changed while being copied; "
                               "nothing was changed")
                    .arg(in));
        }
        if (auto r = write(std::span(buffer.data(), static_cast<std::size_t>(n))); !r)
            return r;
        in += n;
        left -= static_cast<std::uint64_t>(n);
    }
    return {};
}

Result<void> AtomicFile::commit()
{
    if (::fsync(m_fd) != 0)
        return ioError(QStringLiteral("cannot flush the new file to disk"), errno);
    // Renamed while still open (and locked), so no stale-file sweep can take it in between.
    if (::rename(QFile::encodeName(m_tempPath).constData(), QFile::encodeName(m_target).constData()) != 0)
        return ioError(QStringLiteral("cannot move the new file into place"), errno);
    m_tempPath.clear();
    ::close(m_fd); // after a successful fsync there is nothing left that close() could lose
    m_fd = -1;
    // The rename itself is only durable once the folder is synced.
    const int dir = ::open(QFile::encodeName(QFileInfo(m_target).absolutePath()).constData(),
                           O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
    return {};
}

namespace {

// Calls `found(path, size)` for each `.NAME.tensorscope-XXXXXX` regular file of `target` whose
// writer is gone (its flock is free), with that lock held on `fd` during the call.
template <typename Found> void forEachStaleTemporary(const QString& target, Found found)
{
    const QFileInfo info(target);
    const QString prefix = QStringLiteral(".") + info.fileName() + QStringLiteral(".tensorscope-");
    const QDir dir = info.absoluteDir();
    // Matched by hand, not by a name filter: a file name may itself hold '*', '?' or '['.
    const QStringList names = dir.entryList(QDir::Files | QDir::Hidden | QDir::System);
    for (const QString& name : names) {
        if (!name.startsWith(prefix) || name.size() != prefix.size() + 6)
            continue;
        const QByteArray path = QFile::encodeName(dir.filePath(name));
        const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        if (fd < 0)
            continue;
        struct stat st {};
        // Only a regular file whose writer is gone: its lock is free.
        if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) == 0)
            found(path, static_cast<std::uint64_t>(st.st_size));
        ::close(fd);
    }
}

} // namespace

int AtomicFile::removeStaleTemporaries(const QString& target)
{
    int removed = 0;
    forEachStaleTemporary(target, [&](const QByteArray& path, std::uint64_t) {
        if (::unlink(path.constData()) == 0)
            ++removed;
    });
    return removed;
}

std::vector<std::pair<QString, std::uint64_t>> AtomicFile::staleTemporaries(const QString& target)
{
    std::vector<std::pair<QString, std::uint64_t>> found;
    forEachStaleTemporary(target, [&](const QByteArray& path, std::uint64_t size) {
        found.emplace_back(QFile::decodeName(path), size);
    });
    return found;
}

void AtomicFile::discard()
{
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
    if (!m_tempPath.isEmpty()) {
        ::unlink(QFile::encodeName(m_tempPath).constData());
        m_tempPath.clear();
    }
}

} // namespace ts
