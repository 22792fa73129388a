#pragma once

#include "analysis/CodeCounts.h"
#include "analysis/HistogramBuilder.h"
#include "analysis/QuantileSearch.h"
#include "analysis/TensorBlockReader.h"
#include "analysis/TensorStats.h"
#include "base/Result.h"
#include "format/TensorInfo.h"
#include "io/TensorLocation.h"

#include <cstdint>
#include <optional>

namespace ts {

// Statistics, histograms and quantiles of one tensor, or of an element range of it (ModelScanner
// hands out ranges to threads and merges them in order). Synchronous: callers decide the thread.
//
// Passes: a dtype of 16 bits or fewer (decode::isCoded) is read once; its code counts give the
// statistics, numpy's histogram and exact quantiles. Wider dtypes need a second pass for the
// histogram (numpy's bins span [min, max], known after the first) and for quantiles (the first
// pass finds each one's bucket of leading key bits, QuantileSearch); 64-bit values take two more
// passes for quantiles.
class TensorAnalyzer {
public:
    TensorAnalyzer(TensorLocation location, TensorInfo info);

    // Checks that the location holds the bytes the shape needs (a hostile header could claim more).
    Result<void> check() const;

    // Partial statistics of elements [first, first + count); not finalized. With `counts`, also
    // what the range adds to the next steps: a coded dtype's code counts (CodedAccumulator), or
    // for wider ones the counts of the leading 16 bits of each value's order key (QuantileSearch).
    Result<TensorStats> statsOfRange(std::uint64_t first, std::uint64_t count, const JobControl& control,
                                     CodeCounts* counts = nullptr);
    // Only the NaN/Inf counts and indices of elements [first, first + count) (NanInfCounter);
    // the result has nanInfOnly set. Not finalized.
    Result<TensorStats> nanInfOfRange(std::uint64_t first, std::uint64_t count, const JobControl& control);
    // Adds elements [first, first + count) to `builder` (C64: the magnitude).
    Result<void> histogramOfRange(std::uint64_t first, std::uint64_t count, HistogramBuilder& builder,
                                  const JobControl& control);
    // A later pass of a wider dtype over elements [first, first + count): with `builder`, adds them
    // to the histogram; with `search`, collects into `matches` what they add to its next step.
    Result<void> laterPassOfRange(std::uint64_t first, std::uint64_t count, HistogramBuilder* builder,
                                  const QuantileSearch* search, QuantileSearch::Matches* matches,
                                  const JobControl& control);

    // The whole tensor, finalized.
    Result<TensorStats> stats(const JobControl& control = {});
    // For a coded dtype, from the code counts stats() kept when it read the tensor (no second read).
    Result<Histogram> histogram(const TensorStats& stats, int bins, const JobControl& control = {});

    struct Analysis {
        TensorStats stats; // finalized; with quantiles when asked for and the tensor has a finite value
        std::optional<Histogram> histogram; // when bins > 0
    };
    // Statistics, and with bins > 0 the histogram (log10 one too with `logHistogram`), and with
    // `quantiles` the quantiles, in as few passes as the dtype allows (see above).
    Result<Analysis> analyze(int bins, bool logHistogram, bool quantiles, const JobControl& control = {});

    const TensorInfo& info() const { return m_info; }

    // 32 for dtypes read as floats, 64 for those read as doubles (QuantileSearch's key width).
    static int keyBits(Dtype dtype);

private:
    TensorLocation m_location;
    TensorInfo m_info;
    TensorBlockReader m_reader;
    std::optional<CodeCounts> m_counts; // of the whole tensor, from stats() (coded dtypes)
};

} // namespace ts
