#pragma once

#include <QString>
#include <QStringList>
#include <QUrl>

#include <cstdint>

namespace ts::remote {

// How models on servers are read: the access token and where it may go, the on-disk cache, and
// how long to wait. A value: the apps build one at start (fromEnvironment, then their own
// Preferences or flags) and hand it to HttpOpener; changing it later affects new requests.
struct RemoteSettings {
    // The bearer token and where it came from ("HF_TOKEN", "Preferences", a token file's path),
    // for the Preferences dialog to say which one is in use. Never logged, never in a message.
    QString token;
    QString tokenOrigin;
    // Hosts the token is sent to (a host, "host:port", or "*" for every host); a subdomain of a
    // listed host matches. Default: the Hugging Face Hub, and the host of HF_ENDPOINT when set.
    // Why a list: a user's Hub token must not go to every server whose URL they open.
    QStringList tokenHosts;

    // Certificates (PEM) trusted besides the system's: a lab's own authority. From SSL_CERT_FILE,
    // the variable curl, Python and OpenSSL read.
    QString caFile;

    QString cacheDir;                      // empty: no on-disk cache
    std::uint64_t cacheBytes = 2ull << 30; // 0: no on-disk cache
    int stallTimeoutMs = 30000;            // a request that receives nothing for this long is retried
    int attempts = 5;                      // per request, the first one included
    int maxRedirects = 10;

    // HF_TOKEN, else the token Preferences stored (storedTokenPath()), else huggingface_hub's
    // token file ($HF_TOKEN_PATH, $HF_HOME/token or ~/.cache/huggingface/token);
    // TENSORSCOPE_TOKEN_HOSTS (comma-separated) or the defaults; TENSORSCOPE_HTTP_TIMEOUT
    // (seconds); the cache in $XDG_CACHE_HOME/tensorscope/remote.
    static RemoteSettings fromEnvironment();
    static QStringList defaultTokenHosts();
    static QString defaultCacheDir();
    // The file Preferences keeps the user's token in: readable by the user alone, and apart from
    // the settings file that holds recent files and window state.
    static QString storedTokenPath();
    static QString readStoredToken();
    static bool writeStoredToken(const QString& token); // an empty token removes the file

    // Whether a request to `url` carries the token.
    bool sendsTokenTo(const QUrl& url) const;
};

} // namespace ts::remote
