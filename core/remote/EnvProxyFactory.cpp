#include "remote/EnvProxyFactory.h"

#include <QHostAddress>
#include <QNetworkProxy>

namespace ts::remote {
namespace {

QString env(const char* lower, const char* upper)
{
    const QString value = qEnvironmentVariable(lower);
    if (!value.isEmpty() || !upper)
        return value;
    return qEnvironmentVariable(upper);
}

QUrl proxyUrl(const QString& text)
{
    if (text.isEmpty())
        return {};
    // "proxy:3128" without a scheme means an HTTP proxy, as curl reads it.
    QUrl url =
        QUrl::fromUserInput(text.contains(QLatin1String("://")) ? text : QStringLiteral("http://") + text);
    return url.isValid() && !url.host().isEmpty() ? url : QUrl();
}

bool isLoopback(const QString& host)
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0 ||
        host.endsWith(QLatin1String(".localhost"), Qt::CaseInsensitive))
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

} // namespace

EnvProxyFactory::EnvProxyFactory()
{
    const QUrl all = proxyUrl(env("all_proxy", "ALL_PROXY"));
    m_http = proxyUrl(env("http_proxy", nullptr));
    if (m_http.isEmpty())
        m_http = all;
    m_https = proxyUrl(env("https_proxy", "HTTPS_PROXY"));
    if (m_https.isEmpty())
        m_https = all;
    for (const QString& entry : env("no_proxy", "NO_PROXY").split(QLatin1Char(','), Qt::SkipEmptyParts))
        m_noProxy << entry.trimmed().toLower();
}

bool EnvProxyFactory::bypassed(const QString& hostIn, int port) const
{
    const QString host = hostIn.toLower();
    if (isLoopback(host))
        return true;
    for (QString entry : m_noProxy) {
        if (entry == QLatin1String("*"))
            return true;
        // "host:port" applies to that port only.
        if (const qsizetype colon = entry.lastIndexOf(QLatin1Char(':'));
            colon > 0 && !entry.contains(QLatin1Char(']')) && entry.count(QLatin1Char(':')) == 1) {
            if (entry.mid(colon + 1).toInt() != port)
                continue;
            entry.truncate(colon);
        }
        if (entry.startsWith(QLatin1Char('.')))
            entry.remove(0, 1);
        if (entry.isEmpty())
            continue;
        if (host == entry || host.endsWith(QLatin1Char('.') + entry))
            return true;
    }
    return false;
}

QUrl EnvProxyFactory::proxyFor(const QUrl& url) const
{
    const bool https = url.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0;
    const QUrl& proxy = https ? m_https : m_http;
    if (proxy.isEmpty() || bypassed(url.host(), url.port(https ? 443 : 80)))
        return {};
    return proxy;
}

QList<QNetworkProxy> EnvProxyFactory::queryProxy(const QNetworkProxyQuery& query)
{
    const QUrl proxy = proxyFor(query.url());
    if (proxy.isEmpty())
        return {QNetworkProxy(QNetworkProxy::NoProxy)};
    const bool socks = proxy.scheme().startsWith(QLatin1String("socks"), Qt::CaseInsensitive);
    QNetworkProxy p(socks ? QNetworkProxy::Socks5Proxy : QNetworkProxy::HttpProxy, proxy.host(),
                    static_cast<quint16>(proxy.port(socks ? 1080 : 3128)), proxy.userName(QUrl::FullyDecoded),
                    proxy.password(QUrl::FullyDecoded));
    return {p};
}

} // namespace ts::remote
