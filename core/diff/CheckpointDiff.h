#pragma once

#include "analysis/TensorBlockReader.h"
#include "base/JobControl.h"
#include "base/Result.h"
#include "checkpoint/Checkpoint.h"
#include "diff/DiffReport.h"
#include "diff/RenameRules.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

namespace ts::diff {

struct DiffOptions {
    RenameRules rename;                  // A's names -> B's, for tensors the names do not pair
    bool suggest = true;                 // pair what is left by content hash and by shape
    bool rank = false;                   // estimate the rank of every changed matrix (LowRankEstimator)
    int threads = 0;                     // 0: one per core
    std::uint64_t chunkBytes = 8u << 20; // big tensors are split, small ones batched, to about this
};

enum class DiffPhase { Identical, Values, Rank };

struct DiffProgress {
    DiffPhase phase = DiffPhase::Identical;
    std::uint64_t bytesDone = 0;
    std::uint64_t bytesTotal = 0; // of this phase, both checkpoints' bytes
    double elapsedSeconds = 0;    // since run() started
};

// Compares two checkpoints of any kind the container seam opens (one file, shards, later other
// formats): pairs their tensors (TensorPairing), finds the identical ones by their bytes at memory
// speed (sameBytes: a direct compare, never decoding), measures every other pair's change in one
// streamed pass (PairReader + the SIMD pair kernel), optionally estimates the rank of each changed
// matrix, classifies each change (classifyChange) and diffs the metadata.
//
// run() blocks and uses `threads` workers; call it from a worker in the GUI. cancel() and the
// progress callback are thread-safe; progress is delivered on run()'s thread. Big tensors are cut
// at fixed element boundaries and their partial metrics merged in order, so every number is the
// same whatever the thread count. Memory is a few read pieces per thread: no tensor is loaded.
class CheckpointDiff {
public:
    using ProgressCallback = std::function<void(const DiffProgress&)>;

    CheckpointDiff(std::shared_ptr<const Checkpoint> a, std::shared_ptr<const Checkpoint> b,
                   DiffOptions options = {});

    void setProgressCallback(ProgressCallback callback, int intervalMs = 100);
    Result<DiffReport> run();
    // Makes run() return a Cancelled error; workers stop within one 4 MiB piece.
    void cancel();
    // Shares the caller's token (a window job's), so cancelling the job cancels the comparison.
    void setCancelToken(CancelToken token) { m_token = std::move(token); }

    // The rank estimate of one changed pair of a finished report (the window's Estimate Rank).
    // Blocks; `control` cancels it and counts its bytes.
    static Result<RankEstimate> estimateRank(const DiffReport& report, const TensorPair& pair,
                                             const JobControl& control);

private:
    std::shared_ptr<const Checkpoint> m_a;
    std::shared_ptr<const Checkpoint> m_b;
    DiffOptions m_options;
    ProgressCallback m_progress;
    int m_intervalMs = 100;
    CancelToken m_token; // the workers and the readers poll this one
};

} // namespace ts::diff
