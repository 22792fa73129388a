#include "network/RemotePreferences.h"

#include "remote/HttpOpener.h"

#include <QSettings>

namespace ts::ui {
namespace {

const QString kCacheKey = QStringLiteral("remote/cacheBytes");
const QString kHostsKey = QStringLiteral("remote/tokenHosts");

} // namespace

std::uint64_t RemotePreferences::cacheBytes()
{
    return QSettings()
        .value(kCacheKey, static_cast<qulonglong>(remote::RemoteSettings().cacheBytes))
        .toULongLong();
}

void RemotePreferences::setCacheBytes(std::uint64_t bytes)
{
    QSettings().setValue(kCacheKey, static_cast<qulonglong>(bytes));
}

QStringList RemotePreferences::tokenHosts()
{
    const QVariant stored = QSettings().value(kHostsKey);
    return stored.isValid() ? stored.toStringList() : remote::RemoteSettings::defaultTokenHosts();
}

void RemotePreferences::setTokenHosts(const QStringList& hosts)
{
    QStringList clean;
    for (const QString& h : hosts) {
        if (!h.trimmed().isEmpty())
            clean << h.trimmed().toLower();
    }
    QSettings().setValue(kHostsKey, clean);
}

remote::RemoteSettings RemotePreferences::settings()
{
    remote::RemoteSettings s = remote::RemoteSettings::fromEnvironment();
    s.cacheBytes = cacheBytes();
    if (!qEnvironmentVariableIsSet("TENSORSCOPE_TOKEN_HOSTS"))
        s.tokenHosts = tokenHosts();
    return s;
}

void RemotePreferences::apply()
{
    if (remote::RemoteSession* session = remote::RemoteSession::current())
        session->setSettings(settings());
}

} // namespace ts::ui
