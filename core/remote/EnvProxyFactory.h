#pragma once

#include <QNetworkProxyFactory>
#include <QStringList>
#include <QUrl>

namespace ts::remote {

// Proxies as curl and Python read them from the environment: https_proxy / HTTPS_PROXY for https
// URLs, http_proxy (lower case only, as curl: HTTP_PROXY can be set by a CGI request) for http,
// all_proxy / ALL_PROXY for both, and no_proxy / NO_PROXY (comma-separated hosts or domain
// suffixes, a leading dot allowed, "*" for all) to go direct. Loopback hosts always go direct.
//
// Why not Qt's system proxy: on Linux that is libproxy, which may consult desktop settings or run
// WPAD discovery, so the same command would behave differently under a desktop session and in CI.
class EnvProxyFactory final : public QNetworkProxyFactory {
public:
    EnvProxyFactory(); // reads the environment once
    QList<QNetworkProxy> queryProxy(const QNetworkProxyQuery& query) override;

    // The proxy for `url`, or a default-constructed QUrl to go direct (for tests).
    QUrl proxyFor(const QUrl& url) const;

private:
    bool bypassed(const QString& host, int port) const;

    QUrl m_http;
    QUrl m_https;
    QStringList m_noProxy;
};

} // namespace ts::remote
