#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

namespace ts {

// Where long work stands, in bytes: what a progress bar, a rate and an ETA are made of.
struct Progress {
    std::uint64_t bytesDone = 0;
    std::uint64_t bytesTotal = 0; // 0 while unknown
    double elapsedSeconds = 0;    // since begin()
    double bytesPerSecond = 0;
    double etaSeconds = -1; // -1 while unknown
};

// Where long work reports its progress: the work add()s the bytes it has done from any thread,
// and the listener hears of it at most once per interval, plus once when the total is reached
// and once on flush(). A handle (copies share the counts, like CancelToken), so a scan's workers,
// a writer's loop and a UI job all report to the same sink. The listener runs on whichever
// thread's report is due, never two at once, and sees bytesDone grow monotonically; it must not
// report to its own sink. A default-constructed sink reports nowhere.
class ProgressSink {
public:
    using Listener = std::function<void(const Progress&)>;
    static constexpr std::chrono::milliseconds kDefaultInterval{100};

    ProgressSink() = default;
    // An interval of 0 reports every add() (tests that act on a precise point of the work).
    explicit ProgressSink(Listener listener, std::chrono::milliseconds interval = kDefaultInterval);

    // The work starts: done goes back to 0, the clock starts, and `total` is what add() will sum
    // to. The owner of the whole work calls it (a scan for both its passes, a conversion for all
    // its shards); the parts it delegates to only add().
    void begin(std::uint64_t total) const;
    void add(std::uint64_t bytes) const;
    // Reports now, whatever the interval: the work's last word.
    void flush() const;
    Progress progress() const;

private:
    struct State;
    static void report(State& state, bool force);

    std::shared_ptr<State> m_state;
};

} // namespace ts
