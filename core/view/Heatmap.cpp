#include "view/Heatmap.h"

#include "analysis/ScanFindings.h"
#include "view/ElementReader.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ts {
namespace {

// The most elements one read brings in (32 MiB of doubles): a row's span, or a band of rows.
constexpr std::uint64_t kMaxSpanElements = 1u << 22;
// A read of one element costs roughly as much as decoding this many elements of a span (a vector,
// a ByteSource read and the calls around them, against a table lookup or a load).
constexpr double kElementReadCost = 32;

} // namespace

std::uint64_t HeatmapGrid::sourceBegin(int cell, int cells, std::uint64_t src)
{
    return static_cast<std::uint64_t>(cell) * src / static_cast<std::uint64_t>(cells);
}

int HeatmapGrid::cellOf(std::uint64_t source, int cells, std::uint64_t src)
{
    if (cells <= 0 || src == 0)
        return 0;
    // An estimate in floating point (no overflow for planes of any size), then moved onto the cell
    // whose sourceBegin range holds `source`, so hover, pooling and sourceBegin agree exactly.
    auto k = static_cast<int>(static_cast<double>(source) * cells / static_cast<double>(src));
    k = std::clamp(k, 0, cells - 1);
    while (k + 1 < cells && sourceBegin(k + 1, cells, src) <= source)
        ++k;
    while (k > 0 && sourceBegin(k, cells, src) > source)
        --k;
    return k;
}

HeatmapPooler::HeatmapPooler(std::uint64_t srcRows, std::uint64_t srcCols, int maxRows, int maxCols,
                             Pooling pooling)
    : m_pooling(pooling)
{
    m_grid.srcRows = m_grid.planeRows = srcRows;
    m_grid.srcCols = m_grid.planeCols = srcCols;
    m_grid.rows =
        static_cast<int>(std::min<std::uint64_t>(srcRows, static_cast<std::uint64_t>(std::max(1, maxRows))));
    m_grid.cols =
        static_cast<int>(std::min<std::uint64_t>(srcCols, static_cast<std::uint64_t>(std::max(1, maxCols))));
    const std::size_t cells = static_cast<std::size_t>(m_grid.rows) * static_cast<std::size_t>(m_grid.cols);
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    m_grid.values.assign(cells, nan);
    m_grid.low.assign(cells, std::numeric_limits<double>::infinity());
    m_grid.high.assign(cells, -std::numeric_limits<double>::infinity());
    m_grid.marks.assign(cells, 0);
    m_count.assign(cells, 0);
    if (pooling == Pooling::Mean)
        m_sum.assign(cells, 0.0L);
}

void HeatmapPooler::addRow(std::uint64_t row, const double* values)
{
    if (m_grid.rows == 0 || m_grid.cols == 0)
        return;
    const auto r = static_cast<std::size_t>(HeatmapGrid::cellOf(row, m_grid.rows, m_grid.srcRows));
    const std::size_t rowCell = r * static_cast<std::size_t>(m_grid.cols);
    // Columns walk the cells' ranges (no division per element).
    int k = 0;
    std::uint64_t nextCell = HeatmapGrid::sourceBegin(1, m_grid.cols, m_grid.srcCols);
    for (std::uint64_t c = 0; c < m_grid.srcCols; ++c) {
        while (c >= nextCell && k + 1 < m_grid.cols)
            nextCell = HeatmapGrid::sourceBegin(++k + 1, m_grid.cols, m_grid.srcCols);
        const double v = values[c];
        const std::size_t cell = rowCell + static_cast<std::size_t>(k);
        if (!std::isfinite(v)) {
            ++m_grid.nonFinite;
            if (std::isnan(v)) {
                ++m_grid.nanCount;
                m_grid.marks[cell] |= MarkNaN;
            } else if (v > 0) {
                ++m_grid.posInfCount;
                m_grid.marks[cell] |= MarkPosInf;
            } else {
                ++m_grid.negInfCount;
                m_grid.marks[cell] |= MarkNegInf;
            }
            continue;
        }
        double& out = m_grid.values[cell];
        if (m_pooling == Pooling::MaxAbs) {
            if (m_count[cell] == 0 || std::abs(v) > std::abs(out))
                out = v;
        } else {
            m_sum[cell] += v;
        }
        m_grid.low[cell] = std::min(m_grid.low[cell], v);
        m_grid.high[cell] = std::max(m_grid.high[cell], v);
        ++m_count[cell];
        // Welford's update, as the scan keeps it, so the outlier rule below is the scan's.
        ++m_grid.finiteCount;
        const double delta = v - m_grid.mean;
        m_grid.mean += delta / static_cast<double>(m_grid.finiteCount);
        m_m2 += delta * (v - m_grid.mean);
    }
}

bool HeatmapPooler::isOutlier(double v) const
{
    // The leave-one-out z-score of core/analysis/ScanFindings.cpp (outlierScore), for `v` instead
    // of the absmax: v against the mean and spread of every other finite element of the region.
    const std::uint64_t finite = m_grid.finiteCount;
    if (finite < ScanFindings::kOutlierMinElements)
        return false;
    const double n = static_cast<double>(finite);
    const double meanRest = (n * m_grid.mean - v) / (n - 1);
    const double m2Rest = m_m2 - (v - m_grid.mean) * (v - meanRest);
    const double stdRest = std::sqrt(std::max(0.0, m2Rest) / (n - 1));
    const double distance = std::fabs(v - meanRest);
    if (distance == 0 || stdRest <= std::fabs(meanRest) * 1e-12 || stdRest == 0)
        return false;
    return distance / stdRest > ScanFindings::kOutlierZ;
}

HeatmapGrid HeatmapPooler::finish()
{
    m_grid.stddev =
        m_grid.finiteCount > 1 ? std::sqrt(std::max(0.0, m_m2) / static_cast<double>(m_grid.finiteCount)) : 0;
    bool any = false;
    for (std::size_t i = 0; i < m_grid.values.size(); ++i) {
        if (m_count[i] == 0) {
            m_grid.low[i] = m_grid.high[i] = std::numeric_limits<double>::quiet_NaN();
            continue;
        }
        // The sum is kept in long double so that finite F64 values near DBL_MAX cannot overflow it,
        // and the mean is clamped to the block's range: a rounded sum / count may land just past
        // the largest value (0.1 + 0.1 + 0.1 over 3 gives 0.10000000000000002; found by fuzz_scan).
        if (m_pooling == Pooling::Mean)
            m_grid.values[i] =
                std::clamp(static_cast<double>(m_sum[i] / static_cast<long double>(m_count[i])),
                           m_grid.low[i], m_grid.high[i]);
        if (isOutlier(m_grid.low[i]) || isOutlier(m_grid.high[i])) {
            m_grid.marks[i] |= MarkOutlier;
            ++m_grid.outlierCells;
        }
        const double v = m_grid.values[i];
        m_grid.absmax = std::max(m_grid.absmax, std::abs(v));
        m_grid.minValue = any ? std::min(m_grid.minValue, v) : v;
        m_grid.maxValue = any ? std::max(m_grid.maxValue, v) : v;
        any = true;
    }
    return std::move(m_grid);
}

Result<HeatmapGrid> buildHeatmap(const TensorLocation& location, const TensorInfo& info,
                                 const PlaneSpec& spec, Pooling pooling, int maxCells,
                                 const CancelToken& cancel, const HeatmapRegion& region)
{
    const TensorPlane whole = makePlane(info.shape, spec);
    // The region as a plane of its own: its cell (0, 0) is the region's corner. Out-of-range
    // regions are clamped (they come from a zoom that may lag the tensor shown).
    TensorPlane plane = whole;
    const std::uint64_t rowBegin = std::min(region.rowBegin, whole.rows);
    const std::uint64_t colBegin = std::min(region.colBegin, whole.cols);
    plane.rows =
        region.rowCount == 0 ? whole.rows - rowBegin : std::min(region.rowCount, whole.rows - rowBegin);
    plane.cols =
        region.colCount == 0 ? whole.cols - colBegin : std::min(region.colCount, whole.cols - colBegin);
    if (plane.rows > 0 && plane.cols > 0)
        plane.base = whole.flat(rowBegin, colBegin);
    HeatmapPooler pooler(plane.rows, plane.cols, maxCells, maxCells, pooling);
    const ElementReader reader(location, info.flattened());
    std::vector<double> row(plane.cols);
    const std::uint64_t span = plane.cols == 0 ? 0 : (plane.cols - 1) * plane.colStride + 1;
    // Rows are read as spans of elements, `band` rows per read. When rows interleave (a transposed
    // view: rows step through memory by less than one row's span) a band of rows shares one read;
    // reading each row's span on its own read the same elements once per row, which made a
    // [2, 5, 6553] tensor seen as axis 2 by axis 0 take 200 million decodes (found by fuzz_scan).
    std::uint64_t band = 1;
    if (span <= kMaxSpanElements && plane.rowStride < span && plane.rows > 1)
        band = std::min<std::uint64_t>(
            plane.rows, (kMaxSpanElements - span) / std::max<std::uint64_t>(plane.rowStride, 1) + 1);
    // Reading element by element wins when the spans are mostly elements off the plane.
    const double rows = static_cast<double>(plane.rows);
    const double bandCost =
        std::ceil(rows / static_cast<double>(band)) *
        (static_cast<double>(band - 1) * static_cast<double>(plane.rowStride) + static_cast<double>(span));
    const double elementCost = rows * static_cast<double>(plane.cols) * kElementReadCost;
    const bool spans = span <= kMaxSpanElements && bandCost <= elementCost;
    for (std::uint64_t r0 = 0; r0 < plane.rows && plane.cols > 0; r0 += spans ? band : 1) {
        if (cancel.isCancelled())
            return makeError(ErrorCode::Cancelled, location.source->displayName(),
                             QStringLiteral("The heatmap was cancelled."), info.name);
        if (spans) {
            const std::uint64_t n = std::min(band, plane.rows - r0);
            Result<std::vector<double>> values =
                reader.read(plane.flat(r0, 0), (n - 1) * plane.rowStride + span);
            if (!values)
                return values.error();
            for (std::uint64_t k = 0; k < n; ++k) {
                for (std::uint64_t c = 0; c < plane.cols; ++c)
                    row[c] = values.value()[k * plane.rowStride + c * plane.colStride];
                pooler.addRow(r0 + k, row.data());
            }
        } else {
            for (std::uint64_t c = 0; c < plane.cols; ++c) {
                Result<double> v = reader.at(plane.flat(r0, c));
                if (!v)
                    return v.error();
                row[c] = v.value();
            }
            pooler.addRow(r0, row.data());
        }
    }
    HeatmapGrid grid = pooler.finish();
    grid.rowBegin = rowBegin;
    grid.colBegin = colBegin;
    grid.planeRows = whole.rows;
    grid.planeCols = whole.cols;
    return grid;
}

} // namespace ts
