#pragma once

#include "analysis/Histogram.h"
#include "analysis/TensorStats.h"
#include "base/Diagnostic.h"
#include "base/Result.h"
#include "checkpoint/Checkpoint.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace ts {

struct ScanOptions {
    int threads = 0;          // 0: one per core
    int histogramBins = 0;    // 0: statistics only; else a second pass fills histograms
    bool logHistogram = true; // with histograms: also the log10|x| one
    // p1 ... p99 of every tensor (ValueStats::quantiles). Free for dtypes of 16 bits or fewer (their
    // code counts give them); wider dtypes need a second pass (the histograms' one, when there is
    // one), 64-bit ones two more.
    bool quantiles = false;
    // Only count NaN and Inf (NanInfCounter): memory speed for every dtype; each TensorStats has
    // nanInfOnly set and the findings are NanValues / InfValues only. No histograms with it.
    bool nanInfOnly = false;
    std::uint64_t chunkBytes = 8u << 20; // big tensors are split, small ones batched, to about this
    std::vector<int> tensors;            // model tensor indices; empty: all
};

struct ScanProgress {
    std::uint64_t bytesDone = 0;
    std::uint64_t bytesTotal = 0; // every pass (dtypes wider than 16 bits are read again for histograms)
    double elapsedSeconds = 0;
    double bytesPerSecond = 0;
    double etaSeconds = 0; // -1 while unknown
};

struct ScanResult {
    std::vector<TensorStats> tensors;                 // in the order of ScanOptions::tensors (or the model's)
    std::vector<std::optional<Histogram>> histograms; // same order; empty when histogramBins == 0
    std::vector<Diagnostic> findings;                 // in tensor order
    std::uint64_t bytes = 0; // tensor bytes read (the NaN/Inf check skips dtypes without NaN/Inf)
    double seconds = 0;
};

// The whole-model scan. run() blocks and uses `threads` worker threads; call it from a worker
// (QtConcurrent::run) in the GUI. cancel() and the progress callback are thread-safe; progress is
// delivered on run()'s thread at most every `progressIntervalMs`, never from the workers.
// Chunks have fixed boundaries and are merged in element order, so every number (mean and std
// included) is identical whatever the thread count.
class ModelScanner {
public:
    using ProgressCallback = std::function<void(const ScanProgress&)>;

    explicit ModelScanner(std::shared_ptr<const Checkpoint> model, ScanOptions options = {});
    ~ModelScanner();
    ModelScanner(const ModelScanner&) = delete;
    ModelScanner& operator=(const ModelScanner&) = delete;

    void setProgressCallback(ProgressCallback callback, int progressIntervalMs = 100);
    Result<ScanResult> run();
    // Makes run() return an ErrorCode::Cancelled error; workers stop within one 4 MiB piece.
    void cancel();

private:
    struct State;
    std::shared_ptr<const Checkpoint> m_model;
    ScanOptions m_options;
    ProgressCallback m_progress;
    int m_progressIntervalMs = 100;
    std::atomic<bool> m_cancel{false};
    std::unique_ptr<State> m_state;
};

} // namespace ts
