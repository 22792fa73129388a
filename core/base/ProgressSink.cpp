#include "base/ProgressSink.h"

#include <algorithm>
#include <atomic>
#include <mutex>

namespace ts {
namespace {

using Clock = std::chrono::steady_clock;

std::int64_t nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

} // namespace

struct ProgressSink::State {
    Listener listener;
    std::int64_t intervalNs = 0;
    std::atomic<std::uint64_t> done{0};
    std::atomic<std::uint64_t> total{0};
    std::atomic<std::int64_t> startNs{0};
    // When the next throttled report is due; add() reads it without the lock (a cheap early out).
    std::atomic<std::int64_t> nextNs{0};
    std::mutex mutex; // held while the listener runs: one report at a time, in order

    Progress snapshot(std::int64_t now) const
    {
        Progress p;
        p.bytesDone = done.load(std::memory_order_relaxed);
        p.bytesTotal = total.load(std::memory_order_relaxed);
        p.elapsedSeconds = static_cast<double>(now - startNs.load(std::memory_order_relaxed)) / 1e9;
        p.bytesPerSecond = p.elapsedSeconds > 0 ? static_cast<double>(p.bytesDone) / p.elapsedSeconds : 0;
        p.etaSeconds =
            p.bytesPerSecond > 0
                ? static_cast<double>(p.bytesTotal - std::min(p.bytesTotal, p.bytesDone)) / p.bytesPerSecond
                : -1;
        return p;
    }
};

ProgressSink::ProgressSink(Listener listener, std::chrono::milliseconds interval)
    : m_state(std::make_shared<State>())
{
    m_state->listener = std::move(listener);
    m_state->intervalNs = std::chrono::duration_cast<std::chrono::nanoseconds>(interval).count();
    begin(0);
}

void ProgressSink::begin(std::uint64_t total) const
{
    if (!m_state)
        return;
    const std::int64_t now = nowNs();
    m_state->done.store(0, std::memory_order_relaxed);
    m_state->total.store(total, std::memory_order_relaxed);
    m_state->startNs.store(now, std::memory_order_relaxed);
    m_state->nextNs.store(now + m_state->intervalNs, std::memory_order_relaxed);
}

void ProgressSink::add(std::uint64_t bytes) const
{
    if (!m_state)
        return;
    State& s = *m_state;
    const std::uint64_t before = s.done.fetch_add(bytes, std::memory_order_relaxed);
    const std::uint64_t total = s.total.load(std::memory_order_relaxed);
    // Reaching the total is always told: the listener's last picture is of finished work.
    if (total > 0 && before < total && before + bytes >= total) {
        report(s, true);
        return;
    }
    if (nowNs() >= s.nextNs.load(std::memory_order_relaxed))
        report(s, false);
}

void ProgressSink::flush() const
{
    if (m_state)
        report(*m_state, true);
}

Progress ProgressSink::progress() const
{
    return m_state ? m_state->snapshot(nowNs()) : Progress{};
}

void ProgressSink::report(State& s, bool force)
{
    if (!s.listener)
        return;
    std::unique_lock lock(s.mutex, std::defer_lock);
    // A throttled report never waits: a worker that finds another reporting goes back to work.
    if (force)
        lock.lock();
    else if (!lock.try_lock())
        return;
    const std::int64_t now = nowNs();
    if (!force && now < s.nextNs.load(std::memory_order_relaxed))
        return; // another thread reported while this one waited for the lock
    s.nextNs.store(now + s.intervalNs, std::memory_order_relaxed);
    // Read under the lock: reports in lock order see a count that only grows.
    s.listener(s.snapshot(now));
}

} // namespace ts
