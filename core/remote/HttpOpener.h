#pragma once

#include "io/SourceOpener.h"
#include "remote/RemoteSettings.h"

#include <memory>

namespace ts::remote {

class NetworkClient;

// The SourceOpener for http:// and https:// URLs: HttpByteSource for files, one plain GET for a
// shard index.
class HttpOpener final : public SourceOpener {
public:
    explicit HttpOpener(std::shared_ptr<NetworkClient> client) : m_client(std::move(client)) {}

    Result<std::shared_ptr<const ByteSource>> open(const QString& location) const override;
    Result<QByteArray> fetch(const QString& location, qint64 maxBytes) const override;

private:
    std::shared_ptr<NetworkClient> m_client;
};

// What an app creates in main(), after its QCoreApplication: the network thread and the opener
// the core reads URLs through. Destroyed before the application object, it stops the thread;
// sources still alive then fail their reads with a sentence instead of touching a dead manager.
class RemoteSession {
public:
    explicit RemoteSession(const RemoteSettings& settings = RemoteSettings::fromEnvironment());
    ~RemoteSession();
    RemoteSession(const RemoteSession&) = delete;
    RemoteSession& operator=(const RemoteSession&) = delete;

    NetworkClient& client() { return *m_client; }
    RemoteSettings settings() const;
    void setSettings(const RemoteSettings& settings);
    // The session of this process, or null before one exists (Preferences reach it through this).
    static RemoteSession* current();

private:
    std::shared_ptr<NetworkClient> m_client;
};

} // namespace ts::remote
