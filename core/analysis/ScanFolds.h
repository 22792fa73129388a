#pragma once

#include "analysis/CodeCounts.h"
#include "analysis/Histogram.h"
#include "analysis/HistogramBuilder.h"
#include "analysis/QuantileSearch.h"
#include "analysis/TensorBlockReader.h"
#include "analysis/TensorStats.h"
#include "base/Result.h"
#include "format/Dtype.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace ts {

class TensorAnalyzer;

// What a whole-model scan keeps of each tensor besides its statistics, and the passes after the
// first. A tensor's parts hand over their code counts as they finish, on any thread and in any
// order; the part that completes a tensor folds them at once into what they give: for a dtype of
// 16 bits or fewer its histogram and quantiles (nothing is read again), for a wider one the
// QuantileSearch the later passes refine. So the scan holds the counts of the tensors being read,
// not of the whole model. Later passes (wider dtypes only) fill the histograms and narrow the
// quantile searches, part by part, the last part of a tensor finishing its step of the search.
class ScanFolds {
public:
    struct Tensor {
        Dtype dtype = Dtype::F32;
        std::size_t parts = 1;
    };
    ScanFolds(const std::vector<Tensor>& tensors, int bins, bool logHistogram, bool quantiles);

    // Passes after the first that a tensor of `dtype` takes (for the progress total): 0 for dtypes
    // of 16 bits or fewer, else 1 for a histogram, 1 (floats) or 3 (doubles) for quantiles.
    static int laterPasses(Dtype dtype, int bins, bool quantiles);

    // Whether the first pass hands over counts of `tensor`'s parts (TensorAnalyzer::statsOfRange).
    bool wantsCounts(std::size_t tensor) const;
    // A part's counts; thread-safe.
    void addCounts(std::size_t tensor, CodeCounts counts);
    // After the first pass, with the tensor's merged and finalized statistics: the quantiles its
    // counts gave, and the later passes' histogram builder (it needs the tensor's range).
    void finishFirstPass(std::size_t tensor, ValueStats& stats);

    // Starts the next later pass; false when no tensor needs one. Not thread-safe.
    bool nextPass();
    bool inPass(std::size_t tensor) const;
    // One part's share of the current later pass; thread-safe.
    Result<void> runPart(std::size_t tensor, TensorAnalyzer& analyzer, std::uint64_t first,
                         std::uint64_t count, const JobControl& control);

    // After the last pass: the histogram (when bins > 0), and the quantiles of wider dtypes.
    std::optional<Histogram> histogram(std::size_t tensor) const;
    void finish(std::size_t tensor, ValueStats& stats) const;

private:
    struct State {
        std::mutex mutex;
        Dtype dtype = Dtype::F32;
        std::size_t parts = 1;
        std::size_t remaining = 1; // parts not yet in (first pass) or not yet run (later pass)
        int laterPasses = 0;
        int passesDone = 0;
        CodeCounts counts;
        std::optional<Histogram> histogram;
        std::optional<Quantiles> quantiles;
        std::optional<ValueStats> range; // the finalized statistics, for local histogram builders
        std::unique_ptr<HistogramBuilder> builder;
        std::optional<QuantileSearch> search;
    };
    void fold(State& state);
    bool folding() const { return m_bins > 0 || m_quantiles; }

    int m_bins;
    bool m_logHistogram;
    bool m_quantiles;
    int m_pass = 0; // later passes started
    std::vector<std::unique_ptr<State>> m_states;
};

} // namespace ts
