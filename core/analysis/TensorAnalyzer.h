#pragma once

#include "analysis/HistogramBuilder.h"
#include "analysis/TensorBlockReader.h"
#include "analysis/TensorStats.h"
#include "base/Result.h"
#include "format/TensorInfo.h"
#include "io/TensorLocation.h"

#include <cstdint>

namespace ts {

// Statistics and histograms of one tensor, or of an element range of it (ModelScanner hands out
// ranges to threads and merges them in order). Synchronous: callers decide the thread.
class TensorAnalyzer {
public:
    TensorAnalyzer(TensorLocation location, TensorInfo info);

    // Checks that the location holds the bytes the shape needs (a hostile header could claim more).
    Result<void> check() const;

    // Partial statistics of elements [first, first + count); not finalized.
    Result<TensorStats> statsOfRange(std::uint64_t first, std::uint64_t count, const JobControl& control);
    // Only the NaN/Inf counts and indices of elements [first, first + count) (NanInfCounter);
    // the result has nanInfOnly set. Not finalized.
    Result<TensorStats> nanInfOfRange(std::uint64_t first, std::uint64_t count, const JobControl& control);
    // Adds elements [first, first + count) to `builder` (C64: the magnitude).
    Result<void> histogramOfRange(std::uint64_t first, std::uint64_t count, HistogramBuilder& builder,
                                  const JobControl& control);

    // The whole tensor, finalized.
    Result<TensorStats> stats(const JobControl& control = {});
    Result<Histogram> histogram(const TensorStats& stats, int bins, const JobControl& control = {});

    const TensorInfo& info() const { return m_info; }

private:
    TensorLocation m_location;
    TensorInfo m_info;
    TensorBlockReader m_reader;
};

} // namespace ts
