#include "remote/Transfer.h"

#include "io/ReadScope.h"

namespace ts::remote {
namespace {

// How often a waiting reader looks at its cancel flag: the ~100 ms a cancel may take.
constexpr std::chrono::milliseconds kCancelPoll{40};

} // namespace

Transfer::Transfer(Request request) : m_request(std::move(request))
{
    if (m_request.mode != Mode::Whole)
        m_span = SpanBuffers::take(m_request.length);
}

Transfer::~Transfer()
{
    SpanBuffers::give(std::move(m_span), m_request.length);
}

Result<void> Transfer::waitFor(std::uint64_t end)
{
    ++m_waiters;
    std::unique_lock lock(m_mutex);
    Result<void> outcome;
    while (true) {
        if (end != kWhole && m_received >= end && (m_responded || end == 0))
            break;
        if (m_error) {
            outcome = *m_error;
            break;
        }
        if (m_done && end == kWhole)
            break;
        if (m_done) {
            outcome = makeError(
                ErrorCode::NetworkError, m_request.shown,
                QStringLiteral("the server sent %1 bytes where %2 were expected").arg(m_received).arg(end),
                {}, m_request.begin + m_received);
            break;
        }
        if (ReadScope::cancelRequested()) {
            outcome =
                makeError(ErrorCode::Cancelled, m_request.shown, QStringLiteral("the read was cancelled"));
            break;
        }
        m_changed.wait_for(lock, kCancelPoll);
    }
    --m_waiters;
    return outcome;
}

bool Transfer::isDone() const
{
    std::lock_guard lock(m_mutex);
    return m_done;
}

bool Transfer::succeeded() const
{
    std::lock_guard lock(m_mutex);
    return m_done && !m_error;
}

std::uint64_t Transfer::received() const
{
    std::lock_guard lock(m_mutex);
    return m_received;
}

RemoteIdentity Transfer::identity() const
{
    std::lock_guard lock(m_mutex);
    return m_identity;
}

QUrl Transfer::finalUrl() const
{
    std::lock_guard lock(m_mutex);
    return m_finalUrl;
}

QByteArray Transfer::document() const
{
    std::lock_guard lock(m_mutex);
    return QByteArray(reinterpret_cast<const char*>(m_bytes.data()), static_cast<qsizetype>(m_received));
}

void Transfer::addCounter(std::optional<ProgressSink> counter)
{
    if (!counter)
        return;
    std::lock_guard lock(m_mutex);
    m_counters.push_back(std::move(*counter));
}

void Transfer::resizeForDocument(std::uint64_t size)
{
    std::lock_guard lock(m_mutex);
    if (m_bytes.size() < size)
        m_bytes.resize(static_cast<std::size_t>(size));
}

void Transfer::arrived(std::uint64_t newReceived)
{
    std::uint64_t added = 0;
    std::vector<ProgressSink> counters;
    {
        std::lock_guard lock(m_mutex);
        added = newReceived - m_received;
        m_received = newReceived;
        counters = m_counters;
    }
    m_changed.notify_all();
    // Outside the lock: a sink's listener (a job's relay to the UI thread) may take its time.
    for (const ProgressSink& c : counters)
        c.add(added);
}

void Transfer::respond(const RemoteIdentity& identity, const QUrl& finalUrl)
{
    {
        std::lock_guard lock(m_mutex);
        m_identity = identity;
        m_finalUrl = finalUrl;
        m_responded = true;
    }
    m_changed.notify_all();
}

void Transfer::finish(std::optional<Error> error)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_done)
            return;
        m_done = true;
        m_error = std::move(error);
    }
    m_changed.notify_all();
}

} // namespace ts::remote
