#include "SaveJournal.h"

#include "LittleEndian.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ts {
namespace {

constexpr char kMagic[8] = {'T', 'S', 'J', 'R', 'N', 'L', '0', '1'};
constexpr qsizetype kFixedSize = 8 + 8 + 8 + 8; // magic, file size, header length, checksum

// FNV-1a: the journal only needs to tell a complete record from a torn one.
std::uint64_t checksum(const char* data, qsizetype size)
{
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (qsizetype i = 0; i < size; ++i) {
        h ^= static_cast<unsigned char>(data[i]);
        h *= 0x100000001b3ull;
    }
    return h;
}

Error ioError(const QString& file, const QString& what)
{
    return makeError(ErrorCode::IoError, file,
                     what + QStringLiteral(": ") + QString::fromLocal8Bit(std::strerror(errno)));
}

void syncFolder(const QString& file)
{
    const int dir = ::open(QFile::encodeName(QFileInfo(file).absolutePath()).constData(),
                           O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
}

Result<void> writeAll(int fd, const char* data, std::size_t size, off_t offset, const QString& file)
{
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::pwrite(fd, data + done, size - done, offset + static_cast<off_t>(done));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return ioError(file,
                           QStringLiteral("cannot write at byte %1").arg(offset + static_cast<off_t>(done)));
        }
        done += static_cast<std::size_t>(n);
    }
    return {};
}

} // namespace

QString SaveJournal::pathFor(const QString& target)
{
    const QFileInfo info(target);
    return info.absolutePath() + QStringLiteral("/.") + info.fileName() +
           QStringLiteral(".tensorscope-journal");
}

Result<void> SaveJournal::write(const QString& target, const QByteArray& oldHeader, std::uint64_t fileSize)
{
    QByteArray record;
    record.reserve(oldHeader.size() + kFixedSize);
    record.append(kMagic, 8);
    appendLe64(record, fileSize);
    appendLe64(record, static_cast<std::uint64_t>(oldHeader.size()));
    record.append(oldHeader);
    appendLe64(record, checksum(record.constData(), record.size()));

    const QString path = pathFor(target);
    // O_EXCL: an existing journal is another save in progress or one a crash interrupted, and
    // overwriting it would lose the only copy of that save's old header.
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0 && errno == EEXIST) {
        return makeError(
            ErrorCode::FileChanged, target,
            QStringLiteral("%1 exists: another save of this file is in progress, or one was interrupted "
                           "(open the file again to recover it); nothing was saved")
                .arg(path));
    }
    if (fd < 0)
        return ioError(path, QStringLiteral("cannot create the save journal"));
    auto r = writeAll(fd, record.constData(), static_cast<std::size_t>(record.size()), 0, path);
    if (r && ::fsync(fd) != 0)
        r = ioError(path, QStringLiteral("cannot flush the save journal to disk"));
    ::close(fd);
    if (!r) {
        ::unlink(QFile::encodeName(path).constData());
        return r;
    }
    // The journal's name must be durable before the model changes, or a crash could lose it.
    syncFolder(path);
    return {};
}

Result<void> SaveJournal::remove(const QString& target)
{
    const QString path = pathFor(target);
    if (::unlink(QFile::encodeName(path).constData()) != 0 && errno != ENOENT)
        return ioError(path, QStringLiteral("cannot delete the save journal"));
    syncFolder(path);
    return {};
}

Result<RecoveryOutcome> SaveJournal::recover(const QString& target)
{
    const QString path = pathFor(target);
    QFile journal(path);
    if (!journal.exists())
        return RecoveryOutcome::NoJournal;
    if (!journal.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::IoError, path,
                         QStringLiteral("cannot read the save journal: %1").arg(journal.errorString()));
    const QByteArray record = journal.read(512LL * 1024 * 1024);
    journal.close();

    const bool wellFormed =
        record.size() >= kFixedSize && record.startsWith(QByteArrayView(kMagic, sizeof kMagic)) &&
        readLe64(record.constData() + 16) == static_cast<std::uint64_t>(record.size() - kFixedSize) &&
        readLe64(record.constData() + record.size() - 8) == checksum(record.constData(), record.size() - 8);
    if (!wellFormed) {
        // The journal is synced before the model is touched, so a torn journal means the save
        // stopped before its first write to the model: the model is intact.
        if (auto r = remove(target); !r)
            return r.error();
        return RecoveryOutcome::DiscardedJournal;
    }
    const std::uint64_t fileSize = readLe64(record.constData() + 8);
    const QByteArray oldHeader = record.mid(24, record.size() - kFixedSize);

    const QByteArray encoded = QFile::encodeName(target);
    const int fd = ::open(encoded.constData(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        return makeError(
            ErrorCode::IoError, target,
            QStringLiteral("an interrupted metadata save left %1, but the model cannot be opened to restore "
                           "it: %2")
                .arg(path, QString::fromLocal8Bit(std::strerror(errno))));
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || static_cast<std::uint64_t>(st.st_size) != fileSize) {
        ::close(fd);
        // Someone replaced the file since: writing an old header into it would corrupt it.
        return makeError(
            ErrorCode::FileChanged, target,
            QStringLiteral("an interrupted metadata save left %1, but the file is now %2 bytes, not %3; "
                           "it was not touched (delete the journal if the file is fine)")
                .arg(path)
                .arg(static_cast<qulonglong>(st.st_size))
                .arg(fileSize));
    }
    QByteArray current(oldHeader.size(), Qt::Uninitialized);
    const ssize_t got = ::pread(fd, current.data(), static_cast<std::size_t>(current.size()), 0);
    if (got != current.size() || current.left(8) != oldHeader.left(8)) {
        ::close(fd);
        // An in-place save never changes the length prefix: this is another file now.
        return makeError(
            ErrorCode::FileChanged, target,
            QStringLiteral("an interrupted metadata save left %1, but the file's header length is no longer "
                           "the one recorded; it was not touched (delete the journal if the file is fine)")
                .arg(path),
            {}, 0);
    }
    RecoveryOutcome outcome = RecoveryOutcome::AlreadyIntact;
    if (current != oldHeader) {
        auto r = writeAll(fd, oldHeader.constData(), static_cast<std::size_t>(oldHeader.size()), 0, target);
        if (r && ::fsync(fd) != 0)
            r = ioError(target, QStringLiteral("cannot flush the restored header to disk"));
        if (!r) {
            ::close(fd);
            return r.error();
        }
        outcome = RecoveryOutcome::RolledBack;
    }
    ::close(fd);
    if (auto r = remove(target); !r)
        return r.error();
    return outcome;
}

Result<RecoveryOutcome> recoverInterruptedSave(const QString& path)
{
    const QFileInfo info(path);
    if (info.isFile() && !path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive))
        return SaveJournal::recover(path);
    // An index or a folder: every shard in that folder that has a journal.
    const QDir dir = info.isDir() ? QDir(path) : info.absoluteDir();
    RecoveryOutcome worst = RecoveryOutcome::NoJournal;
    const QStringList journals =
        dir.entryList({QStringLiteral(".*.tensorscope-journal")}, QDir::Files | QDir::Hidden);
    for (const QString& name : journals) {
        const QString model =
            dir.filePath(name.mid(1, name.size() - 1 - qsizetype(sizeof(".tensorscope-journal") - 1)));
        auto r = SaveJournal::recover(model);
        if (!r)
            return r.error();
        worst = std::max(worst, r.value());
    }
    return worst;
}

} // namespace ts
