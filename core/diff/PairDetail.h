#pragma once

#include "analysis/Histogram.h"
#include "analysis/TensorBlockReader.h"
#include "base/JobControl.h"
#include "base/Result.h"
#include "diff/DiffReport.h"
#include "view/Heatmap.h"

#include <QString>

#include <optional>

namespace ts::diff {

// What the comparison view draws for one changed pair, from one more streamed pass over both
// tensors: histograms of A's and B's values over one range (so they overlay bin for bin), a
// histogram of d = B - A, and a heatmap of d with the tensor view's max-|x| pooling (HeatmapPooler)
// so a single changed element stays visible in a 4096 x 4096 matrix. The heatmap sees the tensor as
// rows = its first dimension and columns = the rest.
struct PairDetail {
    Histogram a;
    Histogram b;
    Histogram diff;
    std::optional<HeatmapGrid> heatmap;
    QString heatmapNote; // why there is none
};

class PairDetailBuilder {
public:
    // Rows longer than this are not pooled (a row is held whole while it fills).
    static constexpr std::uint64_t kMaxRowElements = 1u << 22;

    // `pair` must have metrics (its ranges set the bins).
    static Result<PairDetail> build(const DiffReport& report, const TensorPair& pair, int bins, int maxCells,
                                    const JobControl& control);
};

} // namespace ts::diff
