#include "remote/RemoteSettings.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

#include <algorithm>

namespace ts::remote {
namespace {

// A token file holds one line; anything longer than this is not a token.
constexpr qint64 kMaxTokenFile = 4096;

QString readTokenFile(const QString& path)
{
    QFile f(path);
    if (!QFileInfo(path).isFile() || !f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.read(kMaxTokenFile)).trimmed();
}

QString huggingFaceTokenPath()
{
    if (qEnvironmentVariableIsSet("HF_TOKEN_PATH"))
        return qEnvironmentVariable("HF_TOKEN_PATH");
    if (qEnvironmentVariableIsSet("HF_HOME"))
        return QDir(qEnvironmentVariable("HF_HOME")).filePath(QStringLiteral("token"));
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation))
        .filePath(QStringLiteral("huggingface/token"));
}

} // namespace

QStringList RemoteSettings::defaultTokenHosts()
{
    QStringList hosts{QStringLiteral("huggingface.co"), QStringLiteral("hf.co")};
    // huggingface_hub's variable for a mirror of the Hub: its token is meant for it.
    const QUrl endpoint(qEnvironmentVariable("HF_ENDPOINT"));
    if (endpoint.isValid() && !endpoint.host().isEmpty())
        hosts << (endpoint.port() > 0 ? QStringLiteral("%1:%2").arg(endpoint.host()).arg(endpoint.port())
                                      : endpoint.host());
    return hosts;
}

QString RemoteSettings::defaultCacheDir()
{
    // Shared by the window and the command line: one cache, one bound.
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation))
        .filePath(QStringLiteral("tensorscope/remote"));
}

QString RemoteSettings::storedTokenPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation))
        .filePath(QStringLiteral("tensorscope/token"));
}

QString RemoteSettings::readStoredToken()
{
    return readTokenFile(storedTokenPath());
}

bool RemoteSettings::writeStoredToken(const QString& token)
{
    const QString path = storedTokenPath();
    if (token.trimmed().isEmpty())
        return !QFileInfo::exists(path) || QFile::remove(path);
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return false;
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    // Owner-only before the first byte is written: the temporary file QSaveFile renames.
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    f.write(token.trimmed().toUtf8() + '\n');
    return f.commit();
}

RemoteSettings RemoteSettings::fromEnvironment()
{
    RemoteSettings s;
    if (const QString env = qEnvironmentVariable("HF_TOKEN").trimmed(); !env.isEmpty()) {
        s.token = env;
        s.tokenOrigin = QStringLiteral("HF_TOKEN");
    } else if (const QString stored = readStoredToken(); !stored.isEmpty()) {
        s.token = stored;
        s.tokenOrigin = QStringLiteral("Preferences");
    } else if (const QString hf = readTokenFile(huggingFaceTokenPath()); !hf.isEmpty()) {
        s.token = hf;
        s.tokenOrigin = huggingFaceTokenPath();
    }
    const QString hosts = qEnvironmentVariable("TENSORSCOPE_TOKEN_HOSTS");
    s.tokenHosts = hosts.isEmpty() ? defaultTokenHosts() : hosts.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (QString& h : s.tokenHosts)
        h = h.trimmed().toLower();
    bool ok = false;
    const double seconds = qEnvironmentVariable("TENSORSCOPE_HTTP_TIMEOUT").toDouble(&ok);
    if (ok && seconds > 0)
        s.stallTimeoutMs = static_cast<int>(std::min(seconds * 1000, 3600e3));
    s.caFile = qEnvironmentVariable("SSL_CERT_FILE");
    s.cacheDir = defaultCacheDir();
    return s;
}

bool RemoteSettings::sendsTokenTo(const QUrl& url) const
{
    if (token.isEmpty())
        return false;
    const QString host = url.host().toLower();
    const QString hostPort =
        QStringLiteral("%1:%2").arg(host).arg(url.port(url.scheme() == QLatin1String("https") ? 443 : 80));
    for (const QString& entry : tokenHosts) {
        if (entry == QLatin1String("*") || entry == hostPort)
            return true;
        if (entry.contains(QLatin1Char(':')))
            continue;
        if (host == entry || host.endsWith(QLatin1Char('.') + entry))
            return true;
    }
    return false;
}

} // namespace ts::remote
