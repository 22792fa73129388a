#pragma once

#include "io/ByteSource.h"
#include "io/ReadScope.h"
#include "remote/RemoteIdentity.h"

#include <QUrl>

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

namespace ts::remote {

class NetworkClient;
class Transfer;

// A file on an HTTP server as a ByteSource, read by Range requests.
//
// Open costs one request: the first kProbeBytes (the safetensors prefix and, for most models,
// the whole header), which also gives the size and the validators every later response must
// repeat. The first read that starts at the beginning and goes past the probe (a format reading
// its directory: the safetensors parser reads the prefix, then the header whole from byte 8) is
// fetched exactly, in one more request, and kept with the probe as the file's head. Everything
// else is read in aligned blocks of kBlockBytes, several per request, held in the shared
// BlockPool and the disk cache; when reads walk forward (a scan), the next kReadAheadBytes are
// requested before they are asked for. A read waits for its blocks on the reader's thread
// (NetworkClient explains the threading); the reader's ReadScope cancels the wait.
class HttpByteSource final : public ByteSource {
public:
    static constexpr std::uint64_t kProbeBytes = 100 * 1024;
    static constexpr std::uint64_t kBlockBytes = 1 << 20;
    static constexpr std::uint64_t kMaxSpanBytes = 16 << 20;   // one request at most
    static constexpr std::uint64_t kReadAheadBytes = 64 << 20; // ahead of a forward walk

    // Blocking: one round trip. `url` may hold a user name and password (Qt sends them as
    // Basic authentication); they never appear in displayName().
    static Result<std::shared_ptr<HttpByteSource>> open(std::shared_ptr<NetworkClient> client,
                                                        const QUrl& url);
    ~HttpByteSource() override;

    QString displayName() const override { return m_shown; }
    std::uint64_t size() const override { return m_identity.size; }
    Result<void> read(std::uint64_t offset, std::span<std::byte> dst) const override;
    // A range inside one transfer already asked for (by an earlier read or the read-ahead), lent
    // without a copy once its bytes arrived: the handle keeps the transfer alive even if the pool
    // lets go of it. Waits for the bytes as read() does (on the reader's thread, cancelled by its
    // ReadScope); empty when no one transfer holds the range, or it failed (read() then asks
    // and reports). A scan reads its pieces through this: the second memmove of every body byte
    // was 7% of a remote scan.
    HeldBytes hold(std::uint64_t offset, std::uint64_t length) const override;
    bool readsWithoutWaiting(std::uint64_t offset, std::uint64_t length) const override;
    // True once a response showed the file replaced on the server: every read fails from then on.
    bool changedOnDisk() const override { return m_changed.load(); }

    struct Stats {
        std::uint64_t transferred = 0; // body bytes received for this file
        std::uint64_t fromCache = 0;   // bytes read from the disk cache instead
        std::uint64_t requests = 0;
        std::uint64_t lent = 0; // bytes hold() lent in place (a scan's pieces read without a copy)
    };
    Stats stats() const;
    const RemoteIdentity& identity() const { return m_identity; }
    bool cached() const { return !m_cacheKey.isEmpty(); }
    std::uint64_t headBytes() const;

private:
    HttpByteSource(std::shared_ptr<NetworkClient> client, QUrl url, QString shown);

    Result<void> readHead(std::uint64_t offset, std::span<std::byte> dst) const;
    Result<void> extendHead(std::uint64_t end) const;
    Result<void> readBlocks(std::uint64_t offset, std::span<std::byte> dst) const;
    // Under m_mutex: the transfer holding block k, or null.
    std::shared_ptr<Transfer> heldBlock(std::uint64_t k) const;
    std::shared_ptr<Transfer> fromCache(std::uint64_t k) const;
    // Under m_mutex: requests for the blocks of [k0, k1] nobody holds, as runs of at most
    // kMaxSpanBytes; returns them for submitting after the lock.
    void request(std::uint64_t k0, std::uint64_t k1, bool cacheable,
                 std::vector<std::shared_ptr<Transfer>>& out) const;
    void planReadAhead(std::uint64_t k0, std::uint64_t k1, std::vector<std::shared_ptr<Transfer>>& out) const;
    // Under m_mutex: lets the pool go of the walk's spans that end more than kWalkLagBlocks
    // before the frontier and whose every byte a reader took.
    void retireBehindWalk() const;
    // A reader took n bytes of t (copied or lent): the last of a span behind the walk lets it go.
    void took(const std::shared_ptr<Transfer>& t, std::uint64_t n) const;
    void submit(const std::vector<std::shared_ptr<Transfer>>& transfers) const;
    void forget(const std::shared_ptr<Transfer>& t) const; // a failed transfer: ask again next time
    void stopIdleTransfers() const;                        // after a cancel: nobody waits for them
    Error noted(const Error& error) const;                 // a FileChanged is remembered
    std::uint64_t blockCount() const { return (m_identity.size + kBlockBytes - 1) / kBlockBytes; }

    std::shared_ptr<NetworkClient> m_client;
    QUrl m_url;
    QString m_shown;
    RemoteIdentity m_identity;
    QByteArray m_cacheKey;
    bool m_cacheStreams = false; // a forward walk's blocks are cached too (the file fits the cache)
    // Every byte this source brought from the server (a sink without a listener: a count).
    ProgressSink m_transferred{ProgressSink::Listener{}};
    mutable std::atomic<std::uint64_t> m_fromCache{0};
    mutable std::atomic<std::uint64_t> m_requests{0};
    mutable std::atomic<std::uint64_t> m_lent{0};
    mutable std::atomic<bool> m_changed{false};

    mutable std::mutex m_headMutex;
    mutable std::vector<std::byte> m_head;
    mutable bool m_headExtended = false;

    mutable std::mutex m_mutex;
    mutable QUrl m_target; // the last redirect target: later requests skip the redirect
    mutable std::unordered_map<std::uint64_t, std::weak_ptr<Transfer>> m_blocks;
    mutable std::vector<std::weak_ptr<Transfer>> m_inFlight;
    mutable std::optional<Error> m_changeError;
    // The forward walk: the highest block read, how many reads in a row stayed near it, and how
    // far read-ahead has asked.
    mutable std::uint64_t m_frontier = 0;
    mutable int m_forwardReads = 0;
    mutable std::uint64_t m_aheadUntil = 0;
    // The spans read-ahead asked for, until each is let go of (retireBehindWalk) or ages out.
    mutable std::deque<std::weak_ptr<Transfer>> m_walk;
};

} // namespace ts::remote
