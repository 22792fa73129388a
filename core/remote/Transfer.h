#pragma once

#include "base/CancelToken.h"
#include "base/ProgressSink.h"
#include "base/Result.h"
#include "remote/RemoteIdentity.h"
#include "remote/SpanBuffers.h"

#include <QByteArray>
#include <QString>
#include <QUrl>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace ts::remote {

// One GET as the readers see it: filled by the network thread (TransferRunner) as the body
// arrives, waited on by any number of reader threads. Retries and redirects happen inside; a
// reader only sees bytes arrive, then done, or an error.
class Transfer {
public:
    enum class Mode {
        Probe, // bytes=0-(length-1) of a file of unknown size: learns its identity
        Range, // exactly [begin, begin + length) of a file whose identity is known
        Whole, // a small document, no Range, at most `length` bytes (a shard index)
    };
    struct Request {
        Mode mode = Mode::Range;
        QUrl origin;   // what the user opened: where a redirect chain starts, what decides the token
        QUrl target;   // where to send it: the origin or a redirect target remembered from before
        QString shown; // the origin without credentials: every error names this
        std::uint64_t begin = 0;
        std::uint64_t length = 0;
        std::optional<RemoteIdentity> expected; // Range: every response must match it
        // Filled blocks go to the on-disk cache under this key (empty: not cached); blocks are
        // aligned: begin is a multiple of blockBytes.
        QByteArray cacheKey;
        std::uint64_t blockBytes = 0;
    };

    explicit Transfer(Request request);
    ~Transfer();
    Transfer(const Transfer&) = delete;
    Transfer& operator=(const Transfer&) = delete;

    const Request& request() const { return m_request; }
    std::uint64_t capacity() const { return m_request.length; }

    // Reader side. Waits until [0, end) of the body has arrived (kWhole: until it ended), the
    // transfer failed, or the calling thread's ReadScope is cancelled (ErrorCode::Cancelled; the
    // transfer goes on for others).
    static constexpr std::uint64_t kWhole = ~std::uint64_t(0);
    Result<void> waitFor(std::uint64_t end);
    // Bytes [at, at + n) of the body; only after waitFor(at + n) succeeded.
    const std::byte* data(std::uint64_t at) const { return (m_span ? m_span.get() : m_bytes.data()) + at; }
    bool isDone() const;
    bool succeeded() const;
    std::uint64_t received() const;
    // Set once the first good response arrived (Probe: what the file is; all: the final URL).
    RemoteIdentity identity() const;
    QUrl finalUrl() const;
    // A Whole transfer's body.
    QByteArray document() const;
    int waiters() const { return m_waiters.load(); }
    // Bytes readers took from the body: a forward walk takes each byte once, so a walk's span
    // is done with once all of it was taken, and not before (a scan worker that was descheduled
    // may still be on its way to a piece of it). Returns whether this call took the last of them.
    bool take(std::uint64_t n)
    {
        const std::uint64_t before = m_taken.fetch_add(n);
        return before < capacity() && before + n >= capacity();
    }
    bool allTaken() const { return m_taken.load() >= capacity(); }
    // Where arriving bytes are counted besides the transfer itself.
    void addCounter(std::optional<ProgressSink> counter);

    // Network-thread side.
    std::byte* writePointer(std::uint64_t at) { return (m_span ? m_span.get() : m_bytes.data()) + at; }
    void resizeForDocument(std::uint64_t size); // Whole: grows the buffer, before writing
    void arrived(std::uint64_t newReceived);
    void respond(const RemoteIdentity& identity, const QUrl& finalUrl);
    void finish(std::optional<Error> error);
    // Nobody needs the rest of the body (its readers left, the source closed): the network
    // thread aborts it.
    CancelToken abandoned;

private:
    Request m_request;
    SpanBuffers::Buffer m_span;     // Probe and Range: the body, of the request's length
    std::vector<std::byte> m_bytes; // Whole: grows as the document arrives
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::uint64_t m_received = 0;
    bool m_done = false;
    std::optional<Error> m_error;
    bool m_responded = false;
    RemoteIdentity m_identity;
    QUrl m_finalUrl;
    std::vector<ProgressSink> m_counters;
    std::atomic<int> m_waiters{0};
    std::atomic<std::uint64_t> m_taken{0};
};

} // namespace ts::remote
