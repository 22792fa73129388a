#include "remote/HttpOpener.h"

#include "io/ReadScope.h"
#include "io/RemoteLocation.h"
#include "remote/HttpByteSource.h"
#include "remote/NetworkClient.h"
#include "remote/Transfer.h"

#include <atomic>

namespace ts::remote {
namespace {

std::atomic<RemoteSession*> g_current{nullptr};

} // namespace

Result<std::shared_ptr<const ByteSource>> HttpOpener::open(const QString& location) const
{
    const QUrl url(location);
    if (!url.isValid() || url.host().isEmpty())
        return makeError(ErrorCode::InvalidArgument, RemoteLocation::redacted(location),
                         QStringLiteral("this is not a valid URL"));
    auto source = HttpByteSource::open(m_client, url);
    if (!source)
        return source.error();
    return std::shared_ptr<const ByteSource>(std::move(source.value()));
}

Result<QByteArray> HttpOpener::fetch(const QString& location, qint64 maxBytes) const
{
    const QUrl url(location);
    Transfer::Request r;
    r.mode = Transfer::Mode::Whole;
    r.origin = url;
    r.shown = RemoteLocation::redacted(location);
    r.length = static_cast<std::uint64_t>(maxBytes);
    auto t = std::make_shared<Transfer>(r);
    t->addCounter(ReadScope::transfers());
    m_client->submit(t);
    if (auto arrived = t->waitFor(Transfer::kWhole); !arrived) {
        if (arrived.error().code == ErrorCode::Cancelled)
            m_client->cancel(t);
        return arrived.error();
    }
    return t->document();
}

RemoteSession::RemoteSession(const RemoteSettings& settings)
    : m_client(std::make_shared<NetworkClient>(settings))
{
    SourceOpener::install(std::make_shared<HttpOpener>(m_client));
    g_current = this;
}

RemoteSession::~RemoteSession()
{
    if (g_current == this)
        g_current = nullptr;
    SourceOpener::install(nullptr);
    m_client->shutdown();
}

RemoteSettings RemoteSession::settings() const
{
    return m_client->settings();
}

void RemoteSession::setSettings(const RemoteSettings& settings)
{
    m_client->setSettings(settings);
}

RemoteSession* RemoteSession::current()
{
    return g_current.load();
}

} // namespace ts::remote
