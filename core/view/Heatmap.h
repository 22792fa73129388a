#pragma once

#include "base/CancelToken.h"
#include "base/Result.h"
#include "format/TensorInfo.h"
#include "io/TensorLocation.h"
#include "view/TensorPlane.h"

#include <cstdint>
#include <vector>

namespace ts {

// How source cells are merged into one heatmap cell. MaxAbs keeps the value of largest magnitude
// (sign included), so a single outlier in a 4096x4096 matrix survives a 256x256 image; Mean shows
// the broad structure and hides it.
enum class Pooling { MaxAbs, Mean };

struct HeatmapGrid {
    std::uint64_t srcRows = 0;
    std::uint64_t srcCols = 0;
    int rows = 0;
    int cols = 0;
    std::vector<double> values;  // rows * cols, row-major; NaN where a cell had no finite value
    std::uint64_t nonFinite = 0; // NaN / Inf elements skipped (they would wreck the colour scale)
    double absmax = 0;           // over `values`, for a symmetric colour scale

    double at(int row, int col) const { return values[static_cast<std::size_t>(row) * cols + col]; }
    // The source rows [first, last) pooled into heatmap row `row` (same rule for columns).
    static std::uint64_t sourceBegin(int cell, int cells, std::uint64_t src);
};

// Pools a full rows x cols matrix (row-major) into at most maxRows x maxCols cells.
class HeatmapPooler {
public:
    HeatmapPooler(std::uint64_t srcRows, std::uint64_t srcCols, int maxRows, int maxCols, Pooling pooling);
    // Adds source row `row` (srcCols values).
    void addRow(std::uint64_t row, const double* values);
    HeatmapGrid finish();

private:
    HeatmapGrid m_grid;
    Pooling m_pooling;
    std::vector<long double> m_sum;
    std::vector<std::uint64_t> m_count;
    std::vector<double> m_low; // Mean only: each cell's smallest and largest finite value
    std::vector<double> m_high;
};

// Reads the plane of a tensor chosen by `spec` and pools it. Reads a row at a time, so memory is
// one row plus the grid. `cancel` is polled between rows.
Result<HeatmapGrid> buildHeatmap(const TensorLocation& location, const TensorInfo& info,
                                 const PlaneSpec& spec, Pooling pooling, int maxCells,
                                 const CancelToken& cancel = {});

} // namespace ts
