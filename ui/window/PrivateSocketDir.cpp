#include "window/PrivateSocketDir.h"

#include <QDir>
#include <QFile>

#include <cerrno>
#include <cstring>

#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ts::ui {
namespace {

Error dirError(const QString& path, const QString& why)
{
    return makeError(ErrorCode::InvalidArgument, path,
                     QStringLiteral("%1 is not a private folder: %2").arg(path, why));
}

} // namespace

Result<void> checkPrivateDir(const QString& path)
{
    struct stat st {};
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return dirError(path, QString::fromLocal8Bit(std::strerror(errno)));
    if (S_ISLNK(st.st_mode))
        return dirError(path, QStringLiteral("it is a symbolic link"));
    if (!S_ISDIR(st.st_mode))
        return dirError(path, QStringLiteral("it is not a directory"));
    if (st.st_uid != ::geteuid())
        return dirError(path, QStringLiteral("it belongs to uid %1, not %2").arg(st.st_uid).arg(::geteuid()));
    if ((st.st_mode & 07777) != 0700)
        return dirError(
            path, QStringLiteral("its mode is %1, not 0700").arg(st.st_mode & 07777, 4, 8, QLatin1Char('0')));
    return {};
}

Result<QString> privateSocketDir()
{
    // The session's own folder (the XDG base directory spec makes it 0700 and ours); checked all
    // the same, since the variable is only a string anyone could have set.
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty() && QDir::isAbsolutePath(runtime) && checkPrivateDir(runtime))
        return QDir::cleanPath(runtime);
    const QString own = QDir(QDir::tempPath()).filePath(QStringLiteral("tensorscope-%1").arg(::geteuid()));
    // mkdir, not QDir::mkpath: an existing path must be judged by lstat, never followed or reused
    // blindly; the umask cannot widen 0700.
    if (::mkdir(QFile::encodeName(own).constData(), 0700) != 0 && errno != EEXIST)
        return dirError(own, QString::fromLocal8Bit(std::strerror(errno)));
    if (auto ok = checkPrivateDir(own); !ok)
        return ok.error();
    return own;
}

std::optional<uid_t> peerUid(qintptr descriptor)
{
    struct ucred cred {};
    socklen_t size = sizeof(cred);
    if (descriptor < 0 ||
        ::getsockopt(static_cast<int>(descriptor), SOL_SOCKET, SO_PEERCRED, &cred, &size) != 0 ||
        size != sizeof(cred))
        return std::nullopt;
    return cred.uid;
}

} // namespace ts::ui
