#include "MetadataSave.h"

#include "HeaderParser.h"
#include "HeaderSerializer.h"
#include "SafetensorsWriter.h"
#include "SaveJournal.h"

#include <QFile>
#include <QFileInfo>

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
                                              const std::optional<Metadata>& metadata, const QString& target,
                                              const MetadataSaveOptions& options)
{
    if (const QString journal = SaveJournal::pathFor(target); QFileInfo::exists(journal)) {
        // Whatever the method, saving now would leave a journal that a later recovery would
        // apply to the wrong file.
        return makeError(
            ErrorCode::FileChanged, target,
            QStringLiteral("%1 exists: another save of this file is in progress, or one was interrupted "
                           "(open the file again to recover it); nothing was saved")
                .arg(journal));
    }
    MetadataSaveResult result;
    std::optional<QByteArray> header;
    if (!options.allowInPlace)
        result.whyNotInPlace = QStringLiteral("in-place saving was turned off");
    else if (!QFileInfo::exists(target) || !sameFile(file.path(), target))
        result.whyNotInPlace = QStringLiteral("the target is another file");
    else if (::access(QFile::encodeName(target).constData(), W_OK) != 0)
        result.whyNotInPlace = QStringLiteral("the file is not writable in place");
    else if (file.source()->changedOnDisk())
        result.whyNotInPlace = QStringLiteral("the file changed on disk since it was opened");
    else if (!(header = inPlaceHeader(file.header(), metadata, options.headerSlack)))
        result.whyNotInPlace = QStringLiteral("the new header does not fit in the %1 bytes of the old one")
                                   .arg(file.header().headerLength);

    if (header) {
        // A last check that what we are about to put in place parses as the same tensors.
        auto parsed = parseHeaderBytes(header->constData(), static_cast<std::size_t>(header->size()),
                                       file.fileSize(), target);
        if (!parsed || parsed->tensors.size() != file.tensors().size()) {
            result.whyNotInPlace = QStringLiteral("the in-place header did not re-parse");
        } else {
            auto written = saveInPlace(file, *header, options);
            if (!written)
                return written.error();
            result.method = SaveMethod::InPlace;
            result.bytesWritten = written.value();
            return result;
        }
    }
    WriteOptions writeOptions;
    writeOptions.headerSlack = options.headerSlack;
    writeOptions.progress = options.progress;
    if (auto r = SafetensorsWriter::rewriteMetadata(file, metadata, target, writeOptions); !r)
        return r.error();
    result.method = SaveMethod::FullRewrite;
    result.bytesWritten =
        static_cast<std::uint64_t>(serializeHeader(file.tensors(), metadata, options.headerSlack).size()) +
        file.header().dataSize();
    return result;
}

Result<std::uint64_t> MetadataSave::saveInPlace(const SafetensorsFile& file, const QByteArray& newHeader,
                                                const MetadataSaveOptions& options)
{
    const QString& path = file.path();
    FdGuard fd{::open(QFile::encodeName(path).constData(), O_RDWR | O_CLOEXEC)};
    if (fd.fd < 0)
        return ioError(path, QStringLiteral("cannot open the file for writing"));
    struct stat st {};
    if (::fstat(fd.fd, &st) != 0)
        return ioError(path, QStringLiteral("cannot read the file's size"));
    QByteArray oldHeader(newHeader.size(), Qt::Uninitialized);
    if (::pread(fd.fd, oldHeader.data(), static_cast<std::size_t>(oldHeader.size()), 0) != oldHeader.size() ||
        std::memcmp(oldHeader.constData(), newHeader.constData(), 8) != 0) {
        return makeError(
            ErrorCode::FileChanged, path,
            QStringLiteral("the header changed on disk since the file was opened; nothing was saved"), {}, 0);
    }
    if (auto r = SaveJournal::write(path, oldHeader, static_cast<std::uint64_t>(st.st_size)); !r)
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
        // Put the old header back now rather than at the next open.
        (void)SaveJournal::recover(path);
        return r.error();
    }
    notify(SaveStep::HeaderSynced);
    if (auto removed = SaveJournal::remove(path); !removed)
        return removed.error();
    notify(SaveStep::JournalRemoved);
    const std::uint64_t journalBytes = static_cast<std::uint64_t>(oldHeader.size()) + 32;
    return static_cast<std::uint64_t>(newHeader.size() - 8) + journalBytes;
}

} // namespace ts
