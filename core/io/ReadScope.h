#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace ts {

// Bytes a source had to bring from elsewhere (a server) for the reads of one job, counted as they
// arrive: what a progress line shows while a remote header or tensor is on its way.
struct TransferCount {
    std::atomic<std::uint64_t> bytes{0};
};

// What a read that may wait (a ByteSource over HTTP) consults while it waits, set by the job on
// whose thread it runs: the job's cancel flag, and where to count transferred bytes.
//
// Why ambient, not a parameter: ByteSource::read has no cancel argument, and the jobs that read
// (an open, a scan, a heatmap, a conversion) already poll their own flag between pieces. A source
// that blocks for a network needs that flag *during* a piece, so a cancel of a slow download
// answers within ~100 ms, not when the piece arrives. The scope hands the flag down without
// changing the interface every source and caller share. Scopes nest: an inner one without a flag
// or a counter keeps the outer one's.
class ReadScope {
public:
    explicit ReadScope(const std::atomic<bool>* cancel, std::shared_ptr<TransferCount> transfers = {});
    ~ReadScope();
    ReadScope(const ReadScope&) = delete;
    ReadScope& operator=(const ReadScope&) = delete;

    // On the calling thread: whether the innermost flag is up.
    static bool cancelRequested();
    static const std::atomic<bool>* cancelFlag();
    // The innermost counter, or null.
    static std::shared_ptr<TransferCount> transfers();

    // What a helper thread that reads for this thread (ReadAhead) takes along.
    struct Captured {
        const std::atomic<bool>* cancel = nullptr;
        std::shared_ptr<TransferCount> transfers;
    };
    static Captured capture();
    explicit ReadScope(const Captured& captured) : ReadScope(captured.cancel, captured.transfers) {}

private:
    const std::atomic<bool>* m_previousCancel;
    std::shared_ptr<TransferCount> m_previousTransfers;
};

} // namespace ts
