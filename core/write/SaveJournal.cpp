#include "write/SaveJournal.h"

#include "format/HeaderParser.h"
#include "io/LittleEndian.h"
#include "write/SaveLock.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QSet>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ts {
namespace {

// Layout: magic, device, inode, file size, region length L, sha256(before), sha256(after),
// before (L bytes), after (L bytes), sha256 of everything before it.
constexpr char kMagic[8] = {'T', 'S', 'J', 'R', 'N', 'L', '0', '2'};
constexpr qsizetype kHashSize = 32;
constexpr qsizetype kFixedHead = 8 + 4 * 8 + 2 * kHashSize; // 104
constexpr qsizetype kFixedSize = kFixedHead + kHashSize;    // 136
// The largest region a journal can describe: a prefix and the largest header the parser takes.
constexpr std::uint64_t kMaxRegion = 8 + kMaxHeaderSize;

using State = JournalInspection::State;

QByteArray sha256(QByteArrayView bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
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

Result<void> pwriteAll(int fd, const char* data, std::size_t size, const QString& file)
{
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::pwrite(fd, data + done, size - done, static_cast<off_t>(done));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return ioError(file, QStringLiteral("cannot write at byte %1").arg(done));
        }
        done += static_cast<std::size_t>(n);
    }
    return {};
}

bool preadAll(int fd, char* data, std::size_t size, off_t offset)
{
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::pread(fd, data + done, size - done, offset + static_cast<off_t>(done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

bool sameTensors(const Header& a, const Header& b)
{
    if (a.tensors.size() != b.tensors.size())
        return false;
    for (std::size_t i = 0; i < a.tensors.size(); ++i) {
        const TensorInfo& x = a.tensors[i];
        const TensorInfo& y = b.tensors[i];
        if (x.name != y.name || x.dtype != y.dtype || x.shape != y.shape || x.begin != y.begin ||
            x.end != y.end)
            return false;
    }
    return true;
}

QString keyList(const QStringList& keys)
{
    QStringList shown;
    for (const QString& k : keys.mid(0, 4))
        shown << QLatin1Char('"') + (k.size() > 40 ? k.left(40) + QStringLiteral("\u2026") : k) +
                     QLatin1Char('"');
    QString text = shown.join(QStringLiteral(", "));
    if (keys.size() > 4)
        text += QStringLiteral(" and %1 more").arg(keys.size() - 4);
    return text;
}

// What putting `before` back would do to the metadata that `now` has, in a few words.
QString metadataChange(const std::optional<Metadata>& now, const std::optional<Metadata>& before)
{
    if (now == before)
        return QStringLiteral("the metadata is the same; only the header's layout differs");
    QStringList removed, restored, changed;
    const Metadata none;
    const Metadata& n = now ? *now : none;
    const Metadata& b = before ? *before : none;
    for (const auto& [key, value] : n.entries()) {
        const auto old = b.value(key);
        if (!old)
            removed << key;
        else if (*old != value)
            changed << key;
    }
    for (const auto& [key, value] : b.entries()) {
        if (!n.contains(key))
            restored << key;
    }
    QStringList parts;
    if (!removed.isEmpty())
        parts << QStringLiteral("removes %1").arg(keyList(removed));
    if (!changed.isEmpty())
        parts << QStringLiteral("changes %1 back").arg(keyList(changed));
    if (!restored.isEmpty())
        parts << QStringLiteral("brings back %1").arg(keyList(restored));
    if (parts.isEmpty())
        parts << QStringLiteral("reorders the metadata keys");
    return QStringLiteral("metadata: ") + parts.join(QStringLiteral("; "));
}

struct Record {
    std::uint64_t dev = 0, ino = 0, fileSize = 0, region = 0;
    QByteArray before, after;
};

} // namespace

QString SaveJournal::pathFor(const QString& target)
{
    const QFileInfo info(target);
    return info.absolutePath() + QStringLiteral("/.") + info.fileName() +
           QStringLiteral(".tensorscope-journal");
}

QString SaveJournal::stateName(JournalInspection::State state)
{
    switch (state) {
    case State::None:
        return QStringLiteral("None");
    case State::Unreadable:
        return QStringLiteral("Unreadable");
    case State::Malformed:
        return QStringLiteral("Malformed");
    case State::OtherFile:
        return QStringLiteral("OtherFile");
    case State::SizeChanged:
        return QStringLiteral("SizeChanged");
    case State::Mismatch:
        return QStringLiteral("Mismatch");
    case State::Untouched:
        return QStringLiteral("Untouched");
    case State::Completed:
        return QStringLiteral("Completed");
    case State::Torn:
        return QStringLiteral("Torn");
    }
    return QStringLiteral("Unknown");
}

Result<void> SaveJournal::write(int fd, const QString& target, const QByteArray& before,
                                const QByteArray& after)
{
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        return ioError(target, QStringLiteral("cannot read the file's identity for the save journal"));
    QByteArray record;
    record.reserve(kFixedSize + before.size() * 2);
    record.append(kMagic, 8);
    appendLe64(record, static_cast<std::uint64_t>(st.st_dev));
    appendLe64(record, static_cast<std::uint64_t>(st.st_ino));
    appendLe64(record, static_cast<std::uint64_t>(st.st_size));
    appendLe64(record, static_cast<std::uint64_t>(before.size()));
    record.append(sha256(before));
    record.append(sha256(after));
    record.append(before);
    record.append(after);
    record.append(sha256(record));

    const QString path = pathFor(target);
    // O_EXCL: an existing journal is another save in progress or one a crash interrupted, and
    // overwriting it would lose the only copy of that save's old header. O_NOFOLLOW: a planted
    // symlink under the journal's name must not redirect the write.
    const int jfd = ::open(QFile::encodeName(path).constData(),
                           O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (jfd < 0 && errno == EEXIST)
        return pendingError(target);
    if (jfd < 0)
        return ioError(path, QStringLiteral("cannot create the save journal"));
    auto r = pwriteAll(jfd, record.constData(), static_cast<std::size_t>(record.size()), path);
    if (r && ::fsync(jfd) != 0)
        r = ioError(path, QStringLiteral("cannot flush the save journal to disk"));
    ::close(jfd);
    if (!r) {
        ::unlink(QFile::encodeName(path).constData());
        return r;
    }
    // The journal's name must be durable before the model changes, or a crash could lose it.
    syncFolder(path);
    return {};
}

Error SaveJournal::pendingError(const QString& target)
{
    return makeError(
        ErrorCode::FileChanged, target,
        QStringLiteral("%1 exists: an interrupted save left it (tensorscope-cli recover restores or "
                       "deletes it); nothing was saved")
            .arg(pathFor(target)));
}

Result<void> SaveJournal::checkNonePending(const QString& target)
{
    struct stat st {};
    if (::lstat(QFile::encodeName(pathFor(target)).constData(), &st) == 0)
        return pendingError(target);
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

JournalInspection SaveJournal::inspect(const QString& target)
{
    JournalInspection none;
    const QString file = QFileInfo(target).canonicalFilePath();
    if (file.isEmpty())
        return none;
    struct stat jst {};
    if (::lstat(QFile::encodeName(pathFor(file)).constData(), &jst) != 0)
        return none;
    const int fd =
        ::open(QFile::encodeName(file).constData(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        JournalInspection j;
        j.state = State::Unreadable;
        j.file = file;
        j.journalPath = pathFor(file);
        j.detail = QStringLiteral("a save journal %1 exists, but the file cannot be read to check it")
                       .arg(j.journalPath);
        return j;
    }
    JournalInspection j = inspectWith(fd, file);
    ::close(fd);
    return j;
}

JournalInspection SaveJournal::inspectWith(int fd, const QString& file, QByteArray* beforeOut)
{
    JournalInspection j;
    j.file = file;
    j.journalPath = pathFor(file);
    const QString name = QFileInfo(j.journalPath).fileName();
    auto verdict = [&](State state, const QString& detail) {
        j.state = state;
        j.detail = QStringLiteral("%1 (a save journal) %2").arg(name, detail);
        return j;
    };
    struct stat jst {};
    if (::lstat(QFile::encodeName(j.journalPath).constData(), &jst) != 0)
        return j;
    if (!S_ISREG(jst.st_mode))
        return verdict(State::Unreadable,
                       QStringLiteral("is not a regular file (a link or a folder); it is never read "
                                      "or applied"));
    const std::uint64_t cap = kFixedSize + 2 * kMaxRegion;
    if (static_cast<std::uint64_t>(jst.st_size) > cap)
        return verdict(State::Unreadable,
                       QStringLiteral("is %1 bytes, larger than any journal; it is never applied")
                           .arg(static_cast<qulonglong>(jst.st_size)));
    const int jfd =
        ::open(QFile::encodeName(j.journalPath).constData(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat opened {};
    if (jfd < 0 || ::fstat(jfd, &opened) != 0 || !S_ISREG(opened.st_mode) ||
        static_cast<std::uint64_t>(opened.st_size) > cap) {
        if (jfd >= 0)
            ::close(jfd);
        return verdict(State::Unreadable, QStringLiteral("cannot be read; it is never applied"));
    }
    QByteArray bytes(static_cast<qsizetype>(opened.st_size), Qt::Uninitialized);
    const bool read = preadAll(jfd, bytes.data(), static_cast<std::size_t>(bytes.size()), 0);
    ::close(jfd);

    Record rec;
    bool wellFormed = read && bytes.size() >= kFixedSize && std::memcmp(bytes.constData(), kMagic, 8) == 0;
    if (wellFormed) {
        rec.dev = readLe64(bytes.constData() + 8);
        rec.ino = readLe64(bytes.constData() + 16);
        rec.fileSize = readLe64(bytes.constData() + 24);
        rec.region = readLe64(bytes.constData() + 32);
        wellFormed = rec.region >= 8 && rec.region <= kMaxRegion &&
                     static_cast<std::uint64_t>(bytes.size()) == kFixedSize + 2 * rec.region &&
                     sha256(QByteArrayView(bytes).first(bytes.size() - kHashSize)) == bytes.right(kHashSize);
    }
    if (wellFormed) {
        const auto l = static_cast<qsizetype>(rec.region);
        rec.before = bytes.mid(kFixedHead, l);
        rec.after = bytes.mid(kFixedHead + l, l);
        wellFormed =
            sha256(rec.before) == bytes.mid(40, kHashSize) && sha256(rec.after) == bytes.mid(72, kHashSize);
    }
    if (!wellFormed) {
        return verdict(
            State::Malformed,
            QStringLiteral("is incomplete or not a journal: a save that stopped before it changed the file "
                           "leaves one, so the file is as it was; it is never applied (delete it)"));
    }
    j.regionLength = rec.region;

    struct stat st {};
    if (::fstat(fd, &st) != 0)
        return verdict(State::Unreadable, QStringLiteral("cannot be checked: the file cannot be read"));
    if (rec.dev != static_cast<std::uint64_t>(st.st_dev) ||
        rec.ino != static_cast<std::uint64_t>(st.st_ino)) {
        return verdict(State::OtherFile,
                       QStringLiteral("was written for another file (device %1, inode %2, not %3, %4); "
                                      "it is never applied to this one")
                           .arg(rec.dev)
                           .arg(rec.ino)
                           .arg(static_cast<qulonglong>(st.st_dev))
                           .arg(static_cast<qulonglong>(st.st_ino)));
    }
    if (rec.fileSize != static_cast<std::uint64_t>(st.st_size)) {
        return verdict(State::SizeChanged,
                       QStringLiteral("was written when the file had %1 bytes; it has %2 now, so "
                                      "it is never applied")
                           .arg(rec.fileSize)
                           .arg(static_cast<qulonglong>(st.st_size)));
    }
    // An in-place save never changes the length prefix, and its region is exactly prefix + header.
    const bool shapeOk = rec.region <= rec.fileSize && rec.before.left(8) == rec.after.left(8) &&
                         8 + readLe64(rec.before.constData()) == rec.region;
    auto before = shapeOk ? parseHeaderBytes(rec.before.constData(), static_cast<std::size_t>(rec.region),
                                             rec.fileSize, file)
                          : Result<Header>(makeError(ErrorCode::InvalidHeader, file, {}));
    auto after = shapeOk ? parseHeaderBytes(rec.after.constData(), static_cast<std::size_t>(rec.region),
                                            rec.fileSize, file)
                         : Result<Header>(makeError(ErrorCode::InvalidHeader, file, {}));
    if (!before || !after || !sameTensors(*before, *after)) {
        return verdict(State::Mismatch,
                       QStringLiteral("does not describe a metadata save of this file (its headers "
                                      "differ in more than metadata, or do not parse); it is never "
                                      "applied"));
    }
    QByteArray current(static_cast<qsizetype>(rec.region), Qt::Uninitialized);
    if (!preadAll(fd, current.data(), static_cast<std::size_t>(current.size()), 0))
        return verdict(State::Unreadable,
                       QStringLiteral("cannot be checked: the file's header cannot be read"));
    const QString change = metadataChange(after->metadata, before->metadata);
    if (beforeOut)
        *beforeOut = rec.before;
    if (current == rec.before) {
        return verdict(State::Untouched,
                       QStringLiteral("was left by a save that stopped before it changed the file; the "
                                      "file is as it was (the journal can be deleted)"));
    }
    if (current == rec.after) {
        return verdict(State::Completed,
                       QStringLiteral("was left by a save whose new header is complete; restoring "
                                      "puts back the %1-byte header from before that save (%2)")
                           .arg(rec.region)
                           .arg(change));
    }
    for (qsizetype i = 0; i < current.size(); ++i) {
        if (current[i] != rec.before[i] && current[i] != rec.after[i]) {
            return verdict(State::Mismatch,
                           QStringLiteral("does not match this file: its header byte %1 is neither the "
                                          "old nor the new one; it is never applied")
                               .arg(i));
        }
    }
    return verdict(State::Torn,
                   QStringLiteral("was left by a save cut off while writing the header, which is now half "
                                  "old, half new; restoring puts back the %1-byte header from before that "
                                  "save (%2)")
                       .arg(rec.region)
                       .arg(change));
}

Result<JournalInspection> SaveJournal::restore(const QString& target)
{
    const QString file = QFileInfo(target).canonicalFilePath();
    if (file.isEmpty())
        return makeError(ErrorCode::IoError, target, QStringLiteral("the file does not exist"));
    auto lock = SaveLock::acquire(file, SaveLock::kDefaultWait);
    if (!lock)
        return lock.error();
    // O_NOFOLLOW on the resolved name: the descriptor is the inode the journal is checked against.
    const int fd = ::open(QFile::encodeName(file).constData(), O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return ioError(file, QStringLiteral("cannot open the file to restore its header"));
    QByteArray before;
    JournalInspection j = inspectWith(fd, file, &before);
    if (!j.matches()) {
        ::close(fd);
        if (!j.exists())
            return makeError(ErrorCode::InvalidArgument, file,
                             QStringLiteral("has no save journal; nothing to restore"));
        return makeError(ErrorCode::WriteRefused, file, j.detail + QStringLiteral("; nothing was written"));
    }
    if (j.restorable()) {
        // The bytes checked just now through this very descriptor, not a second read of the journal.
        auto r = pwriteAll(fd, before.constData(), static_cast<std::size_t>(before.size()), file);
        if (r && ::fsync(fd) != 0)
            r = ioError(file, QStringLiteral("cannot flush the restored header to disk"));
        if (!r) {
            ::close(fd);
            return r.error();
        }
    }
    ::close(fd);
    if (auto r = remove(file); !r)
        return r.error();
    return j;
}

} // namespace ts
