#include "remote/HttpByteSource.h"

#include "format/HeaderParser.h"
#include "io/RemoteLocation.h"
#include "remote/NetworkClient.h"
#include "remote/StreamingHeap.h"
#include "remote/Transfer.h"

#include <algorithm>
#include <cstring>

namespace ts::remote {
namespace {

// A read that starts this close to byte 0 and goes past the probe is a format reading its
// directory (the safetensors header is read from byte 8): it becomes part of the head.
constexpr std::uint64_t kDirectoryReach = 64;
// Read-ahead starts once reads walked forward this far: a scan does at once, a value grid
// scrolling row by row never does.
constexpr std::uint64_t kForwardBytesBeforeReadAhead = 2 * HttpByteSource::kBlockBytes;
// How far behind the frontier a walk's span stays in the pool: two spans, more than a second scan
// worker lags (scanners read 8 MiB chunks side by side).
constexpr std::uint64_t kWalkLagBlocks = 2 * HttpByteSource::kMaxSpanBytes / HttpByteSource::kBlockBytes;

} // namespace

HttpByteSource::HttpByteSource(std::shared_ptr<NetworkClient> client, QUrl url, QString shown)
    : m_client(std::move(client)), m_url(std::move(url)), m_shown(std::move(shown))
{
}

HttpByteSource::~HttpByteSource()
{
    // What a closed document's read-ahead still asks for is nobody's now.
    for (const std::weak_ptr<Transfer>& w : m_inFlight) {
        if (auto t = w.lock(); t && !t->isDone() && t->received() < t->capacity())
            m_client->cancel(t);
    }
}

Result<std::shared_ptr<HttpByteSource>> HttpByteSource::open(std::shared_ptr<NetworkClient> client,
                                                             const QUrl& url)
{
    StreamingHeap::tune();
    const QString shown = RemoteLocation::redacted(url.toString());
    std::shared_ptr<HttpByteSource> source(new HttpByteSource(client, url, shown));
    Transfer::Request r;
    r.mode = Transfer::Mode::Probe;
    r.origin = url;
    r.shown = shown;
    r.length = kProbeBytes;
    auto probe = std::make_shared<Transfer>(r);
    probe->addCounter(source->m_transferred);
    probe->addCounter(ReadScope::transfers());
    ++source->m_requests;
    client->submit(probe);
    if (auto arrived = probe->waitFor(Transfer::kWhole); !arrived) {
        if (arrived.error().code == ErrorCode::Cancelled)
            client->cancel(probe);
        return arrived.error();
    }
    source->m_identity = probe->identity();
    source->m_target = probe->finalUrl();
    source->m_head.assign(probe->data(0), probe->data(0) + probe->received());
    BlockCache& cache = client->cache();
    if (const QByteArray validator = source->m_identity.cacheValidator();
        cache.enabled() && !validator.isEmpty()) {
        source->m_cacheKey = BlockCache::keyFor(shown, source->m_identity.size, validator);
        // A forward walk through a file larger than the cache would only push out what views
        // come back to: its blocks are cached only when the file fits.
        source->m_cacheStreams = source->m_identity.size <= cache.limit();
    }
    return source;
}

HttpByteSource::Stats HttpByteSource::stats() const
{
    return Stats{m_transferred.progress().bytesDone, m_fromCache.load(), m_requests.load(), m_lent.load()};
}

std::uint64_t HttpByteSource::headBytes() const
{
    std::lock_guard lock(m_headMutex);
    return m_head.size();
}

Error HttpByteSource::noted(const Error& error) const
{
    if (error.code == ErrorCode::FileChanged) {
        m_changed = true;
        std::lock_guard lock(m_mutex);
        if (!m_changeError)
            m_changeError = error;
    }
    return error;
}

Result<void> HttpByteSource::read(std::uint64_t offset, std::span<std::byte> dst) const
{
    const std::uint64_t n = dst.size();
    if (offset > size() || n > size() - offset)
        return makeError(ErrorCode::IoError, m_shown,
                         QStringLiteral("reading %1 bytes at offset %2 goes past the end (%3 bytes)")
                             .arg(n)
                             .arg(offset)
                             .arg(size()),
                         {}, offset);
    if (n == 0)
        return {};
    {
        std::lock_guard lock(m_mutex);
        if (m_changeError)
            return *m_changeError;
    }
    const std::uint64_t end = offset + n;
    std::uint64_t headEnd = 0;
    {
        std::unique_lock lock(m_headMutex);
        if (end > m_head.size() && offset < kDirectoryReach && !m_headExtended && end <= 8 + kMaxHeaderSize) {
            if (auto extended = extendHead(end); !extended)
                return extended;
        }
        headEnd = m_head.size();
        if (offset < headEnd) {
            const std::uint64_t k = std::min(end, headEnd) - offset;
            std::memcpy(dst.data(), m_head.data() + offset, static_cast<std::size_t>(k));
        }
    }
    if (end <= headEnd)
        return {};
    const std::uint64_t from = std::max(offset, headEnd);
    return readBlocks(from, dst.subspan(static_cast<std::size_t>(from - offset)));
}

Result<void> HttpByteSource::extendHead(std::uint64_t end) const
{
    // Called with m_headMutex held: the head is read by everyone, grown once.
    const std::uint64_t have = m_head.size();
    if (auto cached = m_client->cache().loadHead(m_cacheKey);
        cached && cached->size() >= end && cached->size() <= size() &&
        std::equal(m_head.begin(), m_head.end(), cached->begin())) {
        m_fromCache += cached->size() - have;
        m_head = std::move(*cached);
        m_headExtended = true;
        return {};
    }
    Transfer::Request r;
    r.mode = Transfer::Mode::Range;
    r.origin = m_url;
    r.shown = m_shown;
    r.begin = have;
    r.length = end - have;
    r.expected = m_identity;
    {
        std::lock_guard lock(m_mutex);
        r.target = m_target;
    }
    auto t = std::make_shared<Transfer>(r);
    t->addCounter(m_transferred);
    t->addCounter(ReadScope::transfers());
    ++m_requests;
    m_client->submit(t);
    if (auto arrived = t->waitFor(r.length); !arrived) {
        if (arrived.error().code == ErrorCode::Cancelled)
            m_client->cancel(t);
        return noted(arrived.error());
    }
    m_head.insert(m_head.end(), t->data(0), t->data(0) + r.length);
    m_headExtended = true;
    m_client->cache().storeHead(m_cacheKey, m_head);
    return {};
}

std::shared_ptr<Transfer> HttpByteSource::heldBlock(std::uint64_t k) const
{
    const auto it = m_blocks.find(k);
    if (it == m_blocks.end())
        return nullptr;
    std::shared_ptr<Transfer> t = it->second.lock();
    if (!t || (t->isDone() && !t->succeeded())) {
        m_blocks.erase(it);
        return nullptr;
    }
    return t;
}

std::shared_ptr<Transfer> HttpByteSource::fromCache(std::uint64_t k) const
{
    if (m_cacheKey.isEmpty())
        return nullptr;
    const std::uint64_t begin = k * kBlockBytes;
    const std::uint64_t length = std::min(kBlockBytes, size() - begin);
    auto bytes = m_client->cache().load(m_cacheKey, k, length);
    if (!bytes)
        return nullptr;
    Transfer::Request r;
    r.mode = Transfer::Mode::Range;
    r.origin = m_url;
    r.shown = m_shown;
    r.begin = begin;
    r.length = length;
    r.expected = m_identity;
    auto t = std::make_shared<Transfer>(r);
    std::memcpy(t->writePointer(0), bytes->data(), static_cast<std::size_t>(length));
    t->respond(m_identity, m_url);
    t->arrived(length);
    t->finish(std::nullopt);
    m_fromCache += length;
    return t;
}

void HttpByteSource::request(std::uint64_t k0, std::uint64_t k1, bool cacheable,
                             std::vector<std::shared_ptr<Transfer>>& out) const
{
    constexpr std::uint64_t perSpan = kMaxSpanBytes / kBlockBytes;
    if (m_inFlight.size() > 64) {
        std::erase_if(m_inFlight, [](const std::weak_ptr<Transfer>& w) {
            auto t = w.lock();
            return !t || t->isDone();
        });
    }
    for (std::uint64_t k = k0; k <= k1;) {
        const std::uint64_t last = std::min(k1, k + perSpan - 1);
        Transfer::Request r;
        r.mode = Transfer::Mode::Range;
        r.origin = m_url;
        r.target = m_target;
        r.shown = m_shown;
        r.begin = k * kBlockBytes;
        r.length = std::min((last + 1) * kBlockBytes, size()) - r.begin;
        r.expected = m_identity;
        if (cacheable) {
            r.cacheKey = m_cacheKey;
            r.blockBytes = kBlockBytes;
        }
        auto t = std::make_shared<Transfer>(r);
        t->addCounter(m_transferred);
        t->addCounter(ReadScope::transfers());
        for (std::uint64_t b = k; b <= last; ++b)
            m_blocks[b] = t;
        m_inFlight.push_back(t);
        m_client->pool().hold(t);
        out.push_back(std::move(t));
        k = last + 1;
    }
}

void HttpByteSource::planReadAhead(std::uint64_t k0, std::uint64_t k1,
                                   std::vector<std::shared_ptr<Transfer>>& out) const
{
    constexpr std::uint64_t window = kReadAheadBytes / kBlockBytes;
    constexpr std::uint64_t perSpan = kMaxSpanBytes / kBlockBytes;
    // Near the frontier: two scan workers read neighbouring chunks, not strictly in order.
    const bool near = k0 + window >= m_frontier && k0 <= m_frontier + window;
    if (!near) {
        m_forwardReads = 0;
        m_frontier = k1;
        m_aheadUntil = k1;
        // The spans asked for so far stay listed: this read may be a scan worker that fell more
        // than the window behind, and the walk comes back past them (dropped from the list, the
        // spans it had asked for stayed in the pool after the scan: 119-168 MiB under ASan in CI).
        return;
    }
    m_forwardReads += static_cast<int>(k1 - k0 + 1);
    m_frontier = std::max(m_frontier, k1);
    retireBehindWalk();
    if (static_cast<std::uint64_t>(m_forwardReads) * kBlockBytes < kForwardBytesBeforeReadAhead)
        return;
    const std::uint64_t lastBlock = blockCount() - 1;
    const std::uint64_t last = std::min(lastBlock, m_frontier + window);
    std::uint64_t k = std::max(m_aheadUntil, m_frontier) + 1;
    // The window is refilled a span at a time, so requests stay large.
    if (k > last || (last - k + 1 < perSpan && last != lastBlock))
        return;
    while (k <= last) {
        if (heldBlock(k) || m_client->cache().has(m_cacheKey, k)) {
            ++k;
            continue;
        }
        std::uint64_t runEnd = k;
        while (runEnd + 1 <= last && !heldBlock(runEnd + 1) && !m_client->cache().has(m_cacheKey, runEnd + 1))
            ++runEnd;
        const std::size_t before = out.size();
        request(k, runEnd, m_cacheStreams, out);
        for (std::size_t i = before; i < out.size(); ++i)
            m_walk.push_back(out[i]);
        k = runEnd + 1;
    }
    m_aheadUntil = last;
}

void HttpByteSource::retireBehindWalk() const
{
    // A forward walk (a scan) reads each byte once, and a file larger than the pool cannot stay
    // in it anyway: the spans it has left behind go now instead of when the budget pushes them
    // out, so their buffers return to SpanBuffers for the spans ahead. Kept in the pool, 256 MiB
    // of spans were fresh pages the kernel faulted in and zeroed: 160,000 page faults in a 1 GiB
    // remote scan against 17,000 for a plain Qt Network download of it. A span goes only once
    // every byte of it was taken: behind the frontier is not enough, since a scan worker
    // descheduled between two pieces of its chunk still needs the second (under load it fell
    // more than two spans behind, and its piece was fetched again).
    if (size() <= m_client->pool().budget())
        return;
    for (auto it = m_walk.begin(); it != m_walk.end();) {
        const std::shared_ptr<Transfer> t = it->lock();
        if (!t) {
            it = m_walk.erase(it); // the budget pushed it out already
            continue;
        }
        const std::uint64_t lastBlock = (t->request().begin + t->request().length - 1) / kBlockBytes;
        // Every span is checked, not only up to the first near the frontier: after a walk starts
        // over (a second scan, a worker far behind) the list is no longer in the walk's order.
        if (lastBlock + kWalkLagBlocks < m_frontier && t->allTaken()) {
            m_client->pool().release(t.get());
            it = m_walk.erase(it);
        } else {
            ++it; // near the frontier, or a piece of it was not read yet (a span never read whole
                  // ages out of the pool as any other and then leaves this list)
        }
    }
}

void HttpByteSource::took(const std::shared_ptr<Transfer>& t, std::uint64_t n) const
{
    if (!t->take(n))
        return;
    std::lock_guard lock(m_mutex);
    retireBehindWalk(); // the walk may have passed it while its last piece was being read
}

void HttpByteSource::submit(const std::vector<std::shared_ptr<Transfer>>& transfers) const
{
    for (const auto& t : transfers) {
        ++m_requests;
        m_client->submit(t);
    }
}

void HttpByteSource::forget(const std::shared_ptr<Transfer>& t) const
{
    std::lock_guard lock(m_mutex);
    const std::uint64_t first = t->request().begin / kBlockBytes;
    const std::uint64_t last = (t->request().begin + t->request().length - 1) / kBlockBytes;
    for (std::uint64_t k = first; k <= last; ++k) {
        if (auto it = m_blocks.find(k); it != m_blocks.end() && it->second.lock() == t)
            m_blocks.erase(it);
    }
    m_client->pool().release(t.get());
}

void HttpByteSource::stopIdleTransfers() const
{
    std::vector<std::shared_ptr<Transfer>> idle;
    {
        std::lock_guard lock(m_mutex);
        for (const std::weak_ptr<Transfer>& w : m_inFlight) {
            if (auto t = w.lock(); t && !t->isDone() && t->waiters() == 0)
                idle.push_back(std::move(t));
        }
        m_forwardReads = 0;
        m_aheadUntil = m_frontier;
    }
    for (const auto& t : idle) {
        m_client->cancel(t);
        forget(t);
    }
}

Result<void> HttpByteSource::readBlocks(std::uint64_t offset, std::span<std::byte> dst) const
{
    const std::uint64_t end = offset + dst.size();
    const std::uint64_t k0 = offset / kBlockBytes;
    const std::uint64_t k1 = (end - 1) / kBlockBytes;
    std::vector<std::shared_ptr<Transfer>> blocks(static_cast<std::size_t>(k1 - k0 + 1));
    {
        std::lock_guard lock(m_mutex);
        for (std::uint64_t k = k0; k <= k1; ++k)
            blocks[k - k0] = heldBlock(k);
    }
    // The disk cache before the network, read outside the lock.
    for (std::uint64_t k = k0; k <= k1; ++k) {
        if (!blocks[k - k0])
            blocks[k - k0] = fromCache(k);
    }
    std::vector<std::shared_ptr<Transfer>> asked;
    {
        std::lock_guard lock(m_mutex);
        for (std::uint64_t k = k0; k <= k1; ++k) {
            auto& slot = blocks[k - k0];
            if (slot && slot->request().cacheKey.isEmpty() && slot->isDone() && !heldBlock(k)) {
                m_blocks[k] = slot; // came from the disk cache
                m_client->pool().hold(slot);
            } else if (!slot) {
                slot = heldBlock(k); // another reader may have asked meanwhile
            }
        }
        for (std::uint64_t k = k0; k <= k1;) {
            if (blocks[k - k0]) {
                ++k;
                continue;
            }
            std::uint64_t runEnd = k;
            while (runEnd + 1 <= k1 && !blocks[runEnd + 1 - k0])
                ++runEnd;
            request(k, runEnd, true, asked);
            for (std::uint64_t b = k; b <= runEnd; ++b)
                blocks[b - k0] = heldBlock(b);
            k = runEnd + 1;
        }
        planReadAhead(k0, k1, asked);
    }
    submit(asked);
    for (std::uint64_t k = k0; k <= k1; ++k) {
        const std::shared_ptr<Transfer>& t = blocks[k - k0];
        const std::uint64_t from = std::max(offset, k * kBlockBytes);
        const std::uint64_t to = std::min(end, (k + 1) * kBlockBytes);
        const std::uint64_t base = t->request().begin;
        if (auto arrived = t->waitFor(to - base); !arrived) {
            if (arrived.error().code == ErrorCode::Cancelled)
                stopIdleTransfers();
            else
                forget(t);
            return noted(arrived.error());
        }
        std::memcpy(dst.data() + (from - offset), t->data(from - base), static_cast<std::size_t>(to - from));
        m_client->pool().touch(t.get());
        took(t, to - from);
    }
    return {};
}

ByteSource::HeldBytes HttpByteSource::hold(std::uint64_t offset, std::uint64_t length) const
{
    if (length == 0 || offset >= size() || length > size() - offset || m_changed.load())
        return {};
    {
        std::lock_guard lock(m_headMutex);
        if (offset < m_head.size() || (offset < kDirectoryReach && !m_headExtended))
            return {}; // the head is read() from its own buffer
    }
    const std::uint64_t end = offset + length;
    const std::uint64_t k0 = offset / kBlockBytes;
    const std::uint64_t k1 = (end - 1) / kBlockBytes;
    std::shared_ptr<Transfer> t;
    std::vector<std::shared_ptr<Transfer>> asked;
    {
        std::lock_guard lock(m_mutex);
        t = heldBlock(k0);
        if (!t || t->request().begin + t->request().length < end || heldBlock(k1) != t)
            return {};
        // A forward walk through held pieces still moves the read-ahead window.
        planReadAhead(k0, k1, asked);
    }
    submit(asked);
    // On its way (read-ahead asked for it): wait as read() would. A failure is read()'s to
    // report, with its sentence, so it is not lent.
    if (!t->waitFor(end - t->request().begin))
        return {};
    m_client->pool().touch(t.get());
    took(t, length);
    m_lent += length;
    const std::byte* bytes = t->data(offset - t->request().begin);
    return {std::span<const std::byte>(bytes, static_cast<std::size_t>(length)), std::move(t)};
}

bool HttpByteSource::readsWithoutWaiting(std::uint64_t offset, std::uint64_t length) const
{
    if (length == 0 || offset >= size())
        return true;
    const std::uint64_t end = std::min(size(), offset + length);
    {
        std::lock_guard lock(m_headMutex);
        if (end <= m_head.size())
            return true;
        if (offset < kDirectoryReach && !m_headExtended)
            return false;
        offset = std::max<std::uint64_t>(offset, m_head.size());
    }
    std::lock_guard lock(m_mutex);
    for (std::uint64_t k = offset / kBlockBytes; k <= (end - 1) / kBlockBytes; ++k) {
        // Arrived is enough: the transfer may still be busy with blocks after this one.
        const auto t = heldBlock(k);
        if (t && t->received() >= std::min(end, (k + 1) * kBlockBytes) - t->request().begin)
            continue;
        if (!m_client->cache().has(m_cacheKey, k))
            return false;
    }
    return true;
}

} // namespace ts::remote
