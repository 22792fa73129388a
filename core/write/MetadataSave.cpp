#include "write/MetadataSave.h"

#include "format/HeaderParser.h"
#include "format/HeaderSerializer.h"
#include "write/SafetensorsWriter.h"
#include "write/SaveJournal.h"
#include "write/SaveTarget.h"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ts {
namespace {

bool sameFile(const QString& a, const QString& b)
{
    struct stat sa {};
    struct stat sb {};
    if (::stat(QFile::encodeName(a).constData(), &sa) != 0 ||
        ::stat(QFile::encodeName(b).constData(), &sb) != 0)
        return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

Error ioError(const QString& file, const QString& what)
{
    return makeError(ErrorCode::IoError, file,
                     what + QStringLiteral(": ") + QString::fromLocal8Bit(std::strerror(errno)));
}

// Closes the descriptor on every return path.
struct FdGuard {
    int fd = -1;
    ~FdGuard()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

Result<void> pwriteAll(int fd, const QByteArray& bytes, qsizetype from, const QString& file)
{
    qsizetype done = from;
    while (done < bytes.size()) {
        const ssize_t n =
            ::pwrite(fd, bytes.constData() + done, static_cast<std::size_t>(bytes.size() - done), done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return ioError(file, QStringLiteral("cannot write the new header at byte %1").arg(done));
        }
        done += n;
    }
    return {};
}

} // namespace

std::optional<QByteArray> MetadataSave::inPlaceHeader(const Header& header,
                                                      const std::optional<Metadata>& metadata,
                                                      std::uint64_t slack)
{
    QByteArray bytes = serializeHeader(header.tensors, metadata, 0);
    // The serializer pads to a multiple of 8; the JSON itself ends at the last '}'.
    qsizetype jsonEnd = bytes.size();
    while (jsonEnd > 8 && bytes[jsonEnd - 1] == ' ')
        --jsonEnd;
    const std::uint64_t jsonLength = static_cast<std::uint64_t>(jsonEnd - 8);
    if (jsonLength + slack > header.headerLength)
        return std::nullopt;
    bytes.truncate(jsonEnd);
    bytes.append(QByteArray(static_cast<qsizetype>(header.headerLength - jsonLength), ' '));
    for (int i = 0; i < 8; ++i)
        bytes[i] = static_cast<char>((header.headerLength >> (8 * i)) & 0xff);
    return bytes;
}

Result<MetadataSaveResult> MetadataSave::save(const SafetensorsFile& file,
                                              const std::optional<Metadata>& metadata,
                                              const QString& requested, const MetadataSaveOptions& options)
{
    const SaveTarget target = SaveTarget::inspect(requested);
    if (auto r = target.check(options.force); !r)
        return r.error();
    const QString& path = target.resolved();
    // Held for the whole save (re-entrant: the CLI locks before it reads the metadata).
    std::optional<SaveLock> lock;
    if (target.exists()) {
        auto acquired = SaveLock::acquire(path, options.lockWait);
        if (!acquired)
            return acquired.error();
        lock.emplace(std::move(acquired.value()));
    }
    // Whatever the method, saving now would leave a journal that a later recovery would apply to
    // the wrong file.
    if (auto r = SaveJournal::checkNonePending(path); !r)
        return r.error();
    const bool sameAsSource = target.exists() && sameFile(file.path(), path);
    if (sameAsSource && file.source()->changedOnDisk()) {
        return makeError(
            ErrorCode::FileChanged, requested,
            QStringLiteral("changed on disk since it was opened (another program saved it); reload it "
                           "before saving; nothing was saved"));
    }
    MetadataSaveResult result;
    std::optional<QByteArray> header;
    if (!options.allowInPlace)
        result.whyNotInPlace = QStringLiteral("in-place saving was turned off");
    else if (!sameAsSource)
        result.whyNotInPlace = QStringLiteral("the target is another file");
    else if (target.hardLinks() > 1)
        result.whyNotInPlace =
            QStringLiteral("the file has %1 hard links: it is saved as a new file under this name")
                .arg(target.hardLinks());
    else if (!target.allowsInPlace() || ::access(QFile::encodeName(path).constData(), W_OK) != 0)
        result.whyNotInPlace = QStringLiteral("the file is not writable in place");
    else if (!(header = inPlaceHeader(file.header(), metadata, options.headerSlack)))
        result.whyNotInPlace = QStringLiteral("the new header does not fit in the %1 bytes of the old one")
                                   .arg(file.header().headerLength);

    if (header) {
        // A last check that what we are about to put in place parses as the same tensors.
        auto parsed = parseHeaderBytes(header->constData(), static_cast<std::size_t>(header->size()),
                                       file.fileSize(), path);
        if (!parsed || parsed->tensors.size() != file.tensors().size()) {
            result.whyNotInPlace = QStringLiteral("the in-place header did not re-parse");
        } else {
            auto written = saveInPlace(file, path, *header, options);
            if (!written)
                return written.error();
            result.method = SaveMethod::InPlace;
            result.bytesWritten = written.value();
            return result;
        }
    }
    WriteOptions writeOptions;
    writeOptions.headerSlack = options.headerSlack;
    writeOptions.control = options.control;
    writeOptions.control.progress.begin(file.header().dataSize());
    // The resolved path: a symlink stays a symlink to the replaced file.
    if (auto r = SafetensorsWriter::rewriteMetadata(file, metadata, path, writeOptions); !r)
        return r.error();
    result.method = SaveMethod::FullRewrite;
    result.bytesWritten =
        static_cast<std::uint64_t>(serializeHeader(file.tensors(), metadata, options.headerSlack).size()) +
        file.header().dataSize();
    return result;
}

Result<std::uint64_t> MetadataSave::saveInPlace(const SafetensorsFile& file, const QString& path,
                                                const QByteArray& newHeader,
                                                const MetadataSaveOptions& options)
{
    // O_NOFOLLOW on the resolved name, and the inode checked against the opened file's: the
    // bytes written are those of the file that was read.
    FdGuard fd{::open(QFile::encodeName(path).constData(), O_RDWR | O_NOFOLLOW | O_CLOEXEC)};
    if (fd.fd < 0)
        return ioError(path, QStringLiteral("cannot open the file for writing"));
    struct stat st {};
    struct stat opened {};
    if (::fstat(fd.fd, &st) != 0 || ::stat(QFile::encodeName(file.path()).constData(), &opened) != 0 ||
        st.st_dev != opened.st_dev || st.st_ino != opened.st_ino)
        return makeError(ErrorCode::FileChanged, path,
                         QStringLiteral("the file was replaced since it was opened; nothing was saved"));
    QByteArray oldHeader(newHeader.size(), Qt::Uninitialized);
    if (::pread(fd.fd, oldHeader.data(), static_cast<std::size_t>(oldHeader.size()), 0) != oldHeader.size() ||
        std::memcmp(oldHeader.constData(), newHeader.constData(), 8) != 0) {
        return makeError(
            ErrorCode::FileChanged, path,
            QStringLiteral("the header changed on disk since the file was opened; nothing was saved"), {}, 0);
    }
    if (auto r = SaveJournal::write(fd.fd, path, oldHeader, newHeader); !r)
        return r.error();
    auto notify = [&](SaveStep step) {
        if (options.stepObserver)
            options.stepObserver(step);
    };
    notify(SaveStep::JournalSynced);
    // Only the N header bytes: the length prefix stays as it is, so no crash can tear it.
    auto r = pwriteAll(fd.fd, newHeader, 8, path);
    if (r) {
        notify(SaveStep::HeaderWritten);
        if (::fsync(fd.fd) != 0)
            r = ioError(path, QStringLiteral("cannot flush the new header to disk"));
    }
    if (!r) {
        // Put the old header back now, through the same descriptor, rather than leave it to an
        // explicit recovery.
        if (pwriteAll(fd.fd, oldHeader, 0, path) && ::fsync(fd.fd) == 0)
            (void)SaveJournal::remove(path);
        return r.error();
    }
    notify(SaveStep::HeaderSynced);
    if (auto removed = SaveJournal::remove(path); !removed)
        return removed.error();
    notify(SaveStep::JournalRemoved);
    const std::uint64_t journalBytes = static_cast<std::uint64_t>(oldHeader.size()) * 2 + 136;
    return static_cast<std::uint64_t>(newHeader.size() - 8) + journalBytes;
}

} // namespace ts
