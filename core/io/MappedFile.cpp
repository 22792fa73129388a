#include "io/MappedFile.h"

#include "io/SigbusGuard.h"

#include <QFile>

#include <algorithm>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ts {
namespace {

QString systemError(int err)
{
    return QString::fromLocal8Bit(std::strerror(err));
}

qint64 mtimeNs(const struct stat& st)
{
    return static_cast<qint64>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
}

} // namespace

Result<std::shared_ptr<MappedFile>> MappedFile::open(const QString& path)
{
    const QByteArray native = QFile::encodeName(path);
    // O_NONBLOCK: opening a named pipe must not hang waiting for a writer; we reject it below.
    const int fd = ::open(native.constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        const int err = errno;
        QString why = err == ENOENT   ? QStringLiteral("the file does not exist")
                      : err == EACCES ? QStringLiteral("permission denied: the file cannot be read")
                                      : QStringLiteral("cannot open the file: ") + systemError(err);
        return makeError(ErrorCode::IoError, path, why);
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        return makeError(ErrorCode::IoError, path,
                         QStringLiteral("cannot stat the file: ") + systemError(err));
    }
    if (S_ISDIR(st.st_mode)) {
        ::close(fd);
        return makeError(ErrorCode::NotAFile, path, QStringLiteral("is a folder, not a .safetensors file"));
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        const QString kind = S_ISFIFO(st.st_mode)   ? QStringLiteral("a named pipe")
                             : S_ISCHR(st.st_mode)  ? QStringLiteral("a character device")
                             : S_ISBLK(st.st_mode)  ? QStringLiteral("a block device")
                             : S_ISSOCK(st.st_mode) ? QStringLiteral("a socket")
                                                    : QStringLiteral("not a regular file");
        return makeError(ErrorCode::NotAFile, path,
                         QStringLiteral("is %1; Tensorscope reads only regular files").arg(kind));
    }
    // Back to blocking reads now that we know this is a regular file.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);

    const auto size = static_cast<std::uint64_t>(st.st_size);
    void* map = nullptr;
    if (size > 0) {
        // Address space only: no page is read until touched, so a 1 TB file maps instantly.
        map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
        if (map == MAP_FAILED)
            map = nullptr; // some file systems cannot map; read() still works through pread
    }
    return std::shared_ptr<MappedFile>(
        new MappedFile(path, fd, size, map, st.st_dev, st.st_ino, mtimeNs(st)));
}

MappedFile::MappedFile(QString path, int fd, std::uint64_t size, void* map, dev_t dev, ino_t ino,
                       qint64 mtime)
    : m_path(std::move(path)), m_fd(fd), m_size(size), m_map(map), m_dev(dev), m_ino(ino), m_mtimeNs(mtime)
{
    if (m_map)
        m_guardSlot = SigbusGuard::watch(m_map, static_cast<std::size_t>(m_size));
    if (m_map)
        m_releaser = std::make_unique<PageReleaser>(m_map, m_size, kReleaseBatchBytes);
}

MappedFile::~MappedFile()
{
    SigbusGuard::unwatch(m_guardSlot);
    if (m_map)
        ::munmap(m_map, m_size);
    if (m_fd >= 0)
        ::close(m_fd);
}

Result<void> MappedFile::read(std::uint64_t offset, std::span<std::byte> dst) const
{
    if (offset > m_size || dst.size() > m_size - offset) {
        return makeError(
            ErrorCode::IoError, m_path,
            QStringLiteral("reading %1 bytes at offset %2 goes past the end of the file (%3 bytes)")
                .arg(dst.size())
                .arg(offset)
                .arg(m_size),
            {}, offset);
    }
    // pread, not the mapping: a file truncated behind our back gives a short read, not SIGBUS.
    std::size_t done = 0;
    while (done < dst.size()) {
        const ssize_t n =
            ::pread(m_fd, dst.data() + done, dst.size() - done, static_cast<off_t>(offset + done));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return makeError(
                ErrorCode::IoError, m_path,
                QStringLiteral("read error at byte %1: %2").arg(offset + done).arg(systemError(errno)), {},
                offset + done);
        }
        if (n == 0) {
            return makeError(ErrorCode::FileChanged, m_path,
                             QStringLiteral("the file ends at byte %1, before the %2 bytes expected: it was "
                                            "truncated or replaced while open")
                                 .arg(offset + done)
                                 .arg(m_size),
                             {}, offset + done);
        }
        done += static_cast<std::size_t>(n);
    }
    // Truncated and grown again: pread succeeds but returns bytes of another file (zeros where
    // the data was).
    return sizeUnchanged(offset);
}

Result<void> MappedFile::sizeUnchanged(std::uint64_t offset) const
{
    // A valid file's size is fixed by its header, so any other size is a change.
    struct stat st {};
    if (::fstat(m_fd, &st) == 0 && static_cast<std::uint64_t>(st.st_size) != m_size) {
        return makeError(
            ErrorCode::FileChanged, m_path,
            QStringLiteral("the file is now %1 bytes, not the %2 it had when opened: it was truncated "
                           "or grown while open")
                .arg(st.st_size)
                .arg(m_size),
            {}, offset);
    }
    return {};
}

std::span<const std::byte> MappedFile::view(std::uint64_t offset, std::uint64_t length) const
{
    if (!m_map || m_guardSlot < 0 || offset > m_size || length > m_size - offset)
        return {};
    return {static_cast<const std::byte*>(m_map) + offset, static_cast<std::size_t>(length)};
}

ByteSource::HeldBytes MappedFile::hold(std::uint64_t offset, std::uint64_t length) const
{
    (void)offset;
    (void)length;
    return {};
}

Result<void> MappedFile::checkView(std::uint64_t offset, std::uint64_t length) const
{
    if (SigbusGuard::faulted(m_guardSlot)) {
        return makeError(
            ErrorCode::FileChanged, m_path,
            QStringLiteral("the file shrank while bytes %1 to %2 were being read: it was truncated "
                           "or replaced while open")
                .arg(offset)
                .arg(offset + length),
            {}, offset);
    }
    // Truncated and grown back before any fault: the pages hold another file's bytes.
    return sizeUnchanged(offset);
}

void MappedFile::release(std::uint64_t offset, std::uint64_t length) const
{
    // For a shared file mapping MADV_DONTNEED only drops our page table entries; the page cache
    // keeps the data, so a reader still in a released page faults it back in.
    if (m_releaser)
        m_releaser->add(offset, length);
}

bool MappedFile::changedOnDisk() const
{
    struct stat st {};
    if (::fstat(m_fd, &st) != 0 || static_cast<std::uint64_t>(st.st_size) != m_size ||
        mtimeNs(st) != m_mtimeNs)
        return true;
    struct stat onDisk {};
    if (::stat(QFile::encodeName(m_path).constData(), &onDisk) != 0)
        return true; // deleted or renamed away
    return onDisk.st_dev != m_dev || onDisk.st_ino != m_ino;
}

} // namespace ts
