#include "view/Heatmap.h"

#include "io/ReadScope.h"
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

HeatmapPooler::HeatmapPooler(std::uint64_t srcRows, std::uint64_t srcCols, int maxRows, int maxCols,
                             Pooling pooling)
    : m_pooling(pooling)
{
    m_grid.srcRows = srcRows;
    m_grid.srcCols = srcCols;
    m_grid.rows =
        static_cast<int>(std::min<std::uint64_t>(srcRows, static_cast<std::uint64_t>(std::max(1, maxRows))));
    m_grid.cols =
        static_cast<int>(std::min<std::uint64_t>(srcCols, static_cast<std::uint64_t>(std::max(1, maxCols))));
    const std::size_t cells = static_cast<std::size_t>(m_grid.rows) * static_cast<std::size_t>(m_grid.cols);
    m_grid.values.assign(cells, std::numeric_limits<double>::quiet_NaN());
    m_sum.assign(cells, 0.0L);
    m_count.assign(cells, 0);
    if (pooling == Pooling::Mean) {
        m_low.assign(cells, std::numeric_limits<double>::infinity());
        m_high.assign(cells, -std::numeric_limits<double>::infinity());
    }
}

void HeatmapPooler::addRow(std::uint64_t row, const double* values)
{
    if (m_grid.rows == 0 || m_grid.cols == 0)
        return;
    // Cell of source index i is floor(i * cells / src): the inverse of sourceBegin().
    const auto r = static_cast<std::size_t>(row * static_cast<std::uint64_t>(m_grid.rows) / m_grid.srcRows);
    double* out = m_grid.values.data() + r * static_cast<std::size_t>(m_grid.cols);
    long double* sum = m_sum.data() + r * static_cast<std::size_t>(m_grid.cols);
    std::uint64_t* count = m_count.data() + r * static_cast<std::size_t>(m_grid.cols);
    for (std::uint64_t c = 0; c < m_grid.srcCols; ++c) {
        const double v = values[c];
        if (!std::isfinite(v)) {
            ++m_grid.nonFinite;
            continue;
        }
        const auto k = static_cast<std::size_t>(c * static_cast<std::uint64_t>(m_grid.cols) / m_grid.srcCols);
        if (m_pooling == Pooling::MaxAbs) {
            if (count[k] == 0 || std::abs(v) > std::abs(out[k]))
                out[k] = v;
        } else {
            sum[k] += v;
            const std::size_t cell = r * static_cast<std::size_t>(m_grid.cols) + k;
            m_low[cell] = std::min(m_low[cell], v);
            m_high[cell] = std::max(m_high[cell], v);
        }
        ++count[k];
    }
}

HeatmapGrid HeatmapPooler::finish()
{
    for (std::size_t i = 0; i < m_grid.values.size(); ++i) {
        // The sum is kept in long double so that finite F64 values near DBL_MAX cannot overflow it,
        // and the mean is clamped to the block's range: a rounded sum / count may land just past
        // the largest value (0.1 + 0.1 + 0.1 over 3 gives 0.10000000000000002; found by fuzz_scan).
        if (m_pooling == Pooling::Mean && m_count[i] > 0)
            m_grid.values[i] = std::clamp(
                static_cast<double>(m_sum[i] / static_cast<long double>(m_count[i])), m_low[i], m_high[i]);
        if (std::isfinite(m_grid.values[i]))
            m_grid.absmax = std::max(m_grid.absmax, std::abs(m_grid.values[i]));
    }
    return std::move(m_grid);
}

Result<HeatmapGrid> buildHeatmap(const TensorLocation& location, const TensorInfo& info,
                                 const PlaneSpec& spec, Pooling pooling, int maxCells,
                                 const std::atomic<bool>* cancel)
{
    const TensorPlane plane = makePlane(info.shape, spec);
    HeatmapPooler pooler(plane.rows, plane.cols, maxCells, maxCells, pooling);
    const ElementReader reader(location, info.flattened());
    const ReadScope scope(cancel); // a remote read stops waiting on cancel
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
        if (cancel && cancel->load(std::memory_order_relaxed))
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
    return pooler.finish();
}

} // namespace ts
