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

// What a cell's block holds besides finite values in range, each drawn in its own colour at a
// size that survives pooling. Outlier: an element whose leave-one-out z-score against the rest
// of the region passes the scan's ExtremeOutlier threshold (analysis/ScanFindings.h), so the
// heatmap marks what the scan reports.
enum HeatmapMark : std::uint8_t {
    MarkNaN = 1,
    MarkPosInf = 2,
    MarkNegInf = 4,
    MarkOutlier = 8,
};

// The part of a plane a heatmap covers: rows [rowBegin, rowBegin + rowCount), likewise columns.
// A count of 0 means "to the end of the plane"; zooming in re-reads a smaller region at full
// resolution.
struct HeatmapRegion {
    std::uint64_t rowBegin = 0;
    std::uint64_t rowCount = 0;
    std::uint64_t colBegin = 0;
    std::uint64_t colCount = 0;
};

struct HeatmapGrid {
    std::uint64_t srcRows = 0; // the region's size
    std::uint64_t srcCols = 0;
    std::uint64_t rowBegin = 0; // the region's first row and column in the plane
    std::uint64_t colBegin = 0;
    std::uint64_t planeRows = 0; // the whole plane's size
    std::uint64_t planeCols = 0;
    int rows = 0;
    int cols = 0;
    std::vector<double> values; // rows * cols, row-major; NaN where a cell had no finite value
    std::vector<double> low;    // each cell's smallest and largest finite value (NaN: none)
    std::vector<double> high;
    std::vector<std::uint8_t> marks; // HeatmapMark bits per cell
    std::uint64_t nanCount = 0;      // elements of the region
    std::uint64_t posInfCount = 0;
    std::uint64_t negInfCount = 0;
    std::uint64_t nonFinite = 0; // the three above together (not in the colour scale)
    std::uint64_t finiteCount = 0;
    std::uint64_t outlierCells = 0; // cells marked MarkOutlier
    double mean = 0;                // over the region's finite elements
    double stddev = 0;
    double absmax = 0;   // over `values`, for a symmetric colour scale
    double minValue = 0; // over `values`
    double maxValue = 0;

    double at(int row, int col) const { return values[static_cast<std::size_t>(row) * cols + col]; }
    std::uint8_t markAt(int row, int col) const { return marks[static_cast<std::size_t>(row) * cols + col]; }
    // The first region row pooled into heatmap row `cell` of `cells` (same rule for columns).
    static std::uint64_t sourceBegin(int cell, int cells, std::uint64_t src);
    // The heatmap cell holding region row `source` of `src`: the inverse of sourceBegin.
    static int cellOf(std::uint64_t source, int cells, std::uint64_t src);
    // Plane rows [first, last) of heatmap row `row`, and the same for columns.
    std::uint64_t planeRowBegin(int row) const { return rowBegin + sourceBegin(row, rows, srcRows); }
    std::uint64_t planeRowEnd(int row) const { return rowBegin + sourceBegin(row + 1, rows, srcRows); }
    std::uint64_t planeColBegin(int col) const { return colBegin + sourceBegin(col, cols, srcCols); }
    std::uint64_t planeColEnd(int col) const { return colBegin + sourceBegin(col + 1, cols, srcCols); }
    bool isWholePlane() const { return srcRows == planeRows && srcCols == planeCols; }
};

// Pools a full rows x cols matrix (row-major) into at most maxRows x maxCols cells. Every cell
// keeps its block's finite extremes and which kinds of non-finite values it held, whatever the
// pooling, so one bad element of a million stays visible.
class HeatmapPooler {
public:
    HeatmapPooler(std::uint64_t srcRows, std::uint64_t srcCols, int maxRows, int maxCols, Pooling pooling);
    // Adds source row `row` (srcCols values).
    void addRow(std::uint64_t row, const double* values);
    HeatmapGrid finish();

private:
    bool isOutlier(double v) const;

    HeatmapGrid m_grid;
    Pooling m_pooling;
    std::vector<long double> m_sum; // Mean only
    std::vector<std::uint64_t> m_count;
    double m_m2 = 0; // Welford's sum of squared deviations over every finite element
};

// Reads `region` of the plane of a tensor chosen by `spec` and pools it. Reads a row at a time,
// so memory is one row plus the grid. `cancel` is polled between rows.
Result<HeatmapGrid> buildHeatmap(const TensorLocation& location, const TensorInfo& info,
                                 const PlaneSpec& spec, Pooling pooling, int maxCells,
                                 const CancelToken& cancel = {}, const HeatmapRegion& region = {});

} // namespace ts
