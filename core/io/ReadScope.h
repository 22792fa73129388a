#pragma once

#include "base/CancelToken.h"
#include "base/ProgressSink.h"

#include <optional>

namespace ts {

// What a read that may wait (a ByteSource over HTTP) consults while it waits, set by the job on
// whose thread it runs: the job's cancel token, and a progress sink where the bytes brought from
// elsewhere (a server) are added as they arrive (what a loading page shows while a header is on
// its way). The transfer sink is not the job's own progress in general: a scan counts the bytes
// it scanned, a cache hit transfers nothing.
//
// Why ambient, not a parameter: ByteSource::read has no cancel argument, and the jobs that read
// (an open, a scan, a heatmap, a conversion) already poll their own token between pieces. A source
// that blocks for a network needs that token *during* a piece, so a cancel of a slow download
// answers within ~100 ms, not when the piece arrives. The scope hands the token down without
// changing the interface every source and caller share. Scopes nest: an inner one without a
// token or a sink keeps the outer one's.
class ReadScope {
public:
    explicit ReadScope(std::optional<CancelToken> cancel, std::optional<ProgressSink> transfers = {});
    ~ReadScope();
    ReadScope(const ReadScope&) = delete;
    ReadScope& operator=(const ReadScope&) = delete;

    // On the calling thread: whether the innermost token is cancelled.
    static bool cancelRequested();
    // The innermost transfer sink, or nullopt.
    static std::optional<ProgressSink> transfers();

    // What a helper thread that reads for this thread (ReadAhead) takes along.
    struct Captured {
        std::optional<CancelToken> cancel;
        std::optional<ProgressSink> transfers;
    };
    static Captured capture();
    explicit ReadScope(const Captured& captured) : ReadScope(captured.cancel, captured.transfers) {}

private:
    std::optional<CancelToken> m_previousCancel;
    std::optional<ProgressSink> m_previousTransfers;
};

} // namespace ts
