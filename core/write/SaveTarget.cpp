#include "write/SaveTarget.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>

namespace ts {
namespace {

// huggingface_hub's cache: <cache>/models--org--name/{blobs,refs,snapshots}; snapshots/<rev>/<file>
// are symlinks to blobs/<sha256 or git sha1>.
bool isHuggingFaceBlob(const QString& file)
{
    const QFileInfo info(file);
    const QDir blobs = info.absoluteDir();
    if (blobs.dirName() != QLatin1String("blobs"))
        return false;
    QDir repo = blobs;
    if (!repo.cdUp())
        return false;
    const QString name = repo.dirName();
    return repo.exists(QStringLiteral("snapshots")) || name.startsWith(QLatin1String("models--")) ||
           name.startsWith(QLatin1String("datasets--")) || name.startsWith(QLatin1String("spaces--"));
}

} // namespace

SaveTarget SaveTarget::inspect(const QString& path)
{
    SaveTarget t;
    t.m_requested = path;
    const QFileInfo info(path);
    t.m_viaSymlink = info.isSymLink();
    const QString canonical = info.canonicalFilePath();
    if (canonical.isEmpty()) {
        // Nothing there yet (a new file), or a link to nothing.
        t.m_dangling = t.m_viaSymlink;
        t.m_resolved = info.absoluteFilePath();
        return t;
    }
    t.m_resolved = canonical;
    struct stat st {};
    if (::stat(QFile::encodeName(canonical).constData(), &st) != 0)
        return t;
    t.m_exists = true;
    t.m_notAFile = !S_ISREG(st.st_mode);
    t.m_links = static_cast<std::uint64_t>(st.st_nlink);
    // No write bit at all is what "read-only" means to a user, even for root, whom access() lets
    // write anything. A read-only file system (EROFS) is not the file's choice: the save is tried
    // and fails with the system's own sentence.
    t.m_readOnly = (st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 ||
                   (::access(QFile::encodeName(canonical).constData(), W_OK) != 0 && errno == EACCES);
    t.m_hfBlob = isHuggingFaceBlob(canonical);
    return t;
}

Result<void> SaveTarget::check(bool force) const
{
    if (m_dangling) {
        return makeError(
            ErrorCode::WriteRefused, m_requested,
            QStringLiteral("is a symbolic link to a file that does not exist; nothing was saved"));
    }
    if (!m_exists)
        return {};
    if (m_notAFile)
        return makeError(ErrorCode::NotAFile, m_requested,
                         QStringLiteral("is not a regular file; nothing was saved"));
    if (m_hfBlob) {
        return makeError(
            ErrorCode::WriteRefused, m_requested,
            QStringLiteral("is a file in a Hugging Face cache (%1): the cache names each file by the hash "
                           "of its bytes, so editing it would corrupt the cache; save a copy elsewhere "
                           "instead (-o OUT, or Save As); nothing was saved")
                .arg(m_resolved));
    }
    if (force)
        return {};
    if (m_readOnly) {
        return makeError(
            ErrorCode::WriteRefused, m_requested,
            QStringLiteral("is read-only; pass --force to replace it anyway (it stays read-only); "
                           "nothing was saved"));
    }
    if (m_links > 1) {
        return makeError(
            ErrorCode::WriteRefused, m_requested,
            QStringLiteral("has %1 hard links; pass --force to save it as a new file under this name "
                           "only (the other names keep the old contents); nothing was saved")
                .arg(m_links));
    }
    return {};
}

} // namespace ts
