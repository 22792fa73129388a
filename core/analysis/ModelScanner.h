#pragma once

#include "analysis/Histogram.h"
#include "analysis/TensorStats.h"
#include "base/Diagnostic.h"
#include "base/JobControl.h"
#include "base/Result.h"
#include "checkpoint/Checkpoint.h"

#include <cstdint>
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
    // A cancel returns what was finished (ScanResult::complete false) instead of a Cancelled
    // error: the window keeps the part of a long scan the user stopped.
    bool partialOnCancel = false;
};

// The scan's progress in bytes of every pass (dtypes wider than 16 bits are read again for
// histograms and quantiles): the sink's Progress, the name kept for the scan's callers.
using ScanProgress = Progress;

struct ScanResult {
    std::vector<TensorStats> tensors;                 // in the order of ScanOptions::tensors (or the model's)
    std::vector<std::optional<Histogram>> histograms; // same order; empty when histogramBins == 0
    std::vector<Diagnostic> findings;                 // in tensor order
    std::uint64_t bytes = 0; // tensor bytes read (the NaN/Inf check skips dtypes without NaN/Inf)
    double seconds = 0;
    double crossTensorSeconds =
        0; // of `seconds`: the findings across tensors (siblings, duplicates, dead rows)
    // False for a scan cancelled with ScanOptions::partialOnCancel: `tensors` then holds only the
    // tensors whose first pass finished (in plan order), each with its own findings, and none of
    // the findings across tensors (siblings, duplicates, dead rows), which need every tensor;
    // histograms and quantiles only when the cancel came after their passes. `planned` is how
    // many tensors the whole scan covers.
    bool complete = true;
    std::size_t planned = 0;
};

// The whole-model scan. run() blocks and uses `threads` worker threads; call it from a worker
// (the window's JobRunner) in the GUI. Its work is a ScanPlan run pass by pass by ScanWorkers,
// then the findings. Chunks have fixed boundaries and are merged in element order, so every
// number (mean and std included) is identical whatever the thread count.
class ModelScanner {
public:
    explicit ModelScanner(std::shared_ptr<const Checkpoint> model, ScanOptions options = {});
    ModelScanner(const ModelScanner&) = delete;
    ModelScanner& operator=(const ModelScanner&) = delete;

    // The token the reads poll (workers stop within one 4 MiB piece; run() then returns a
    // Cancelled error) and the sink their bytes go to: begin() with the bytes of all passes,
    // reports from the workers at most once per the sink's interval, and a last flush() when
    // the findings are done.
    void setControl(JobControl control) { m_control = std::move(control); }
    const JobControl& control() const { return m_control; }
    // The same for callers without a control of their own: a sink around `listener`, and the
    // token's cancel() (thread-safe).
    void setProgressCallback(ProgressSink::Listener listener, int progressIntervalMs = 100);
    void cancel() const { m_control.cancel.cancel(); }

    Result<ScanResult> run();

private:
    std::shared_ptr<const Checkpoint> m_model;
    ScanOptions m_options;
    JobControl m_control;
};

} // namespace ts
