#include "remote/NetworkClient.h"

#include "remote/EnvProxyFactory.h"
#include "remote/Transfer.h"
#include "remote/TransferRunner.h"

#include <QNetworkAccessManager>
#include <QSslConfiguration>

namespace ts::remote {
namespace {

// What fetched ranges may keep in memory across all remote files: the read-ahead window of a
// scan and the blocks views come back to. The disk cache holds the rest.
constexpr std::uint64_t kMemoryBudget = 256ull << 20;

Error shutDown(const Transfer& t)
{
    return makeError(ErrorCode::NetworkError, t.request().shown, QStringLiteral("the network was shut down"));
}

} // namespace

// Lives on the network thread: the manager, and a runner per transfer in flight.
class NetworkClient::Worker final : public QObject {
public:
    // The proxies are read from the environment when the client is made, not at the first request.
    explicit Worker(NetworkClient* client) : m_client(client), m_proxies(new EnvProxyFactory) {}
    ~Worker() override { delete m_proxies; } // unless a manager took it

    void start(const std::shared_ptr<Transfer>& transfer)
    {
        if (!m_manager) {
            m_manager = new QNetworkAccessManager(this);
            m_manager->setProxyFactory(m_proxies); // the manager owns it now
            m_proxies = nullptr;
            // The token travels in a header we set; user names and passwords in a URL are Qt's.
            m_manager->setAutoDeleteReplies(false);
        }
        const RemoteSettings settings = m_client->settings();
        auto* runner = new TransferRunner(
            transfer, m_manager, settings, [this, caFile = settings.caFile] { return tlsFor(caFile); },
            [client = m_client](const std::shared_ptr<Transfer>& done) { client->cache().storeBlocks(done); },
            this);
        m_runners.insert(runner);
        QObject::connect(runner, &TransferRunner::ended, this, [this](TransferRunner* r) {
            m_runners.erase(r);
            r->deleteLater();
            m_client->ended();
        });
        runner->start();
    }

    void cancel(const Transfer* transfer)
    {
        for (TransferRunner* r : std::set<TransferRunner*>(m_runners)) {
            if (r->transfer().get() == transfer)
                r->cancel();
        }
    }

    void shutdown()
    {
        // A transfer whose bytes have all come but whose end the network thread has not seen yet
        // (the reader had what it wanted: a scan's last block, then the CLI exits) is kept for
        // the disk cache: cancel() succeeds it. Every other one fails, so no reader waits forever.
        for (TransferRunner* r : std::set<TransferRunner*>(m_runners))
            r->cancel(); // ends it: the ended() handler above takes it out of m_runners
        for (TransferRunner* r : std::set<TransferRunner*>(m_runners)) {
            delete r; // its destructor fails the transfer, so no reader waits forever
            m_client->ended();
        }
        m_runners.clear();
        delete m_manager;
        m_manager = nullptr;
    }

private:
    // The system's authorities plus those of `caFile`, made once per file.
    QSslConfiguration tlsFor(const QString& caFile)
    {
        if (caFile.isEmpty())
            return {};
        if (caFile != m_tlsFile) {
            m_tls = QSslConfiguration::defaultConfiguration();
            m_tls.addCaCertificates(caFile);
            m_tlsFile = caFile;
        }
        return m_tls;
    }

    NetworkClient* m_client;
    EnvProxyFactory* m_proxies;
    QString m_tlsFile;
    QSslConfiguration m_tls;
    QNetworkAccessManager* m_manager = nullptr;
    std::set<TransferRunner*> m_runners;
};

NetworkClient::NetworkClient(RemoteSettings settings)
    : m_settings(std::move(settings)), m_pool(kMemoryBudget),
      m_cache(std::make_unique<BlockCache>(m_settings.cacheDir, m_settings.cacheBytes))
{
    m_thread.setObjectName(QStringLiteral("tensorscope-network"));
    m_worker = new Worker(this);
    m_worker->moveToThread(&m_thread);
    m_thread.start();
    m_running = true;
}

NetworkClient::~NetworkClient()
{
    shutdown();
}

void NetworkClient::shutdown()
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_running)
            return;
        m_running = false;
    }
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->shutdown(); }, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
    delete m_worker;
    m_worker = nullptr;
}

void NetworkClient::submit(const std::shared_ptr<Transfer>& transfer)
{
    std::lock_guard lock(m_mutex);
    if (!m_running) {
        transfer->finish(shutDown(*transfer));
        return;
    }
    ++m_busy;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, transfer] { w->start(transfer); }, Qt::QueuedConnection);
}

void NetworkClient::cancel(const std::shared_ptr<Transfer>& transfer)
{
    transfer->abandoned.cancel();
    std::lock_guard lock(m_mutex);
    if (m_running)
        QMetaObject::invokeMethod(
            m_worker, [w = m_worker, transfer] { w->cancel(transfer.get()); }, Qt::QueuedConnection);
}

void NetworkClient::ended()
{
    std::lock_guard lock(m_mutex);
    if (--m_busy == 0)
        m_idle.notify_all();
}

void NetworkClient::settle()
{
    {
        std::unique_lock lock(m_mutex);
        m_idle.wait(lock, [this] { return m_busy == 0 || !m_running; });
    }
    m_cache->flush();
}

RemoteSettings NetworkClient::settings() const
{
    std::lock_guard lock(m_mutex);
    return m_settings;
}

void NetworkClient::setSettings(const RemoteSettings& settings)
{
    {
        std::lock_guard lock(m_mutex);
        m_settings = settings;
    }
    // The folder is fixed for the client's life (sources key their blocks by it); the bound is not.
    m_cache->setLimit(settings.cacheBytes);
}

} // namespace ts::remote
