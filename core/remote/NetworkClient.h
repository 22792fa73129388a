#pragma once

#include "remote/BlockCache.h"
#include "remote/BlockPool.h"
#include "remote/RemoteSettings.h"

#include <QObject>
#include <QThread>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>

class QNetworkAccessManager;

namespace ts::remote {

class Transfer;
class TransferRunner;

// The one thread that talks HTTP, and what every remote file shares: the settings, the memory
// pool and the disk cache.
//
// Threading, chosen deliberately: QNetworkAccessManager belongs to the thread it lives in and
// needs that thread's event loop, while ByteSource::read is called from scan workers, the
// thread pool and the command line's main thread, none of which runs one. So one dedicated
// thread owns the manager and every reply; readers hand it a Transfer (a queued call) and block
// on the transfer's condition variable, which the network thread signals as bytes arrive. A
// reader never touches a Qt network object, the network thread never waits for a reader, and
// cancel (the reader's ReadScope) and timeouts (the runner's stall timer) each have one owner.
// One thread is enough: it only moves bytes from sockets into buffers (with up to six
// connections per host in flight), the decoding happens on the readers' threads.
class NetworkClient {
public:
    explicit NetworkClient(RemoteSettings settings);
    ~NetworkClient(); // shutdown()
    NetworkClient(const NetworkClient&) = delete;
    NetworkClient& operator=(const NetworkClient&) = delete;

    // Thread-safe. A transfer submitted after shutdown fails at once.
    void submit(const std::shared_ptr<Transfer>& transfer);
    void cancel(const std::shared_ptr<Transfer>& transfer);
    // Fails what runs and stops the thread, while the QCoreApplication is alive; sources that
    // outlive it fail their reads. Idempotent.
    void shutdown();

    // Waits until no transfer runs and what they fetched is on disk (tests, the benchmark).
    void settle();

    RemoteSettings settings() const;
    void setSettings(const RemoteSettings& settings); // new requests use it; the cache bound at once
    BlockPool& pool() { return m_pool; }
    BlockCache& cache() { return *m_cache; }

private:
    class Worker;
    void ended(); // a submitted transfer is over
    mutable std::mutex m_mutex;
    RemoteSettings m_settings;
    BlockPool m_pool;
    std::unique_ptr<BlockCache> m_cache;
    QThread m_thread;
    Worker* m_worker = nullptr;
    bool m_running = false;
    std::condition_variable m_idle;
    int m_busy = 0; // transfers submitted and not ended
};

} // namespace ts::remote
