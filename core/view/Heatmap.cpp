#include "Heatmap.h"

#include "ElementReader.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ts {
namespace {

// Above this many elements between the first and last cell of a strided row, reading the whole
// span to pick a few elements costs more than reading them one by one.
constexpr std::uint64_t kMaxSpanElements = 1u << 22;

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
    m_grid.rows = static_cast<int>(std::min<std::uint64_t>(srcRows, static_cast<std::uint64_t>(std::max(1, maxRows))));
    m_grid.cols = static_cast<int>(std::min<std::uint64_t>(srcCols, static_cast<std::uint64_t>(std::max(1, maxCols))));
    const std::size_t cells = static_cast<std::size_t>(m_grid.rows) * static_cast<std::size_t>(m_grid.cols);
    m_grid.values.assign(cells, std::numeric_limits<double>::quiet_NaN());
    m_sum.assign(cells, 0.0);
    m_count.assign(cells, 0);
}

void HeatmapPooler::addRow(std::uint64_t row, const double* values)
{
    if (m_grid.rows == 0 || m_grid.cols == 0)
        return;
    // Cell of source index i is floor(i * cells / src): the inverse of sourceBegin().
    const auto r = static_cast<std::size_t>(row * static_cast<std::uint64_t>(m_grid.rows) / m_grid.srcRows);
    double* out = m_grid.values.data() + r * static_cast<std::size_t>(m_grid.cols);
    double* sum = m_sum.data() + r * static_cast<std::size_t>(m_grid.cols);
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
        }
        ++count[k];
    }
}

HeatmapGrid HeatmapPooler::finish()
{
    for (std::size_t i = 0; i < m_grid.values.size(); ++i) {
        if (m_pooling == Pooling::Mean && m_count[i] > 0)
            m_grid.values[i] = m_sum[i] / static_cast<double>(m_count[i]);
        if (std::isfinite(m_grid.values[i]))
            m_grid.absmax = std::max(m_grid.absmax, std::abs(m_grid.values[i]));
    }
    return std::move(m_grid);
}

Result<HeatmapGrid> buildHeatmap(const TensorLocation& location, const TensorInfo& info, const PlaneSpec& spec,
                                 Pooling pooling, int maxCells, const std::atomic<bool>* cancel)
{
    const TensorPlane plane = makePlane(info.shape, spec);
    HeatmapPooler pooler(plane.rows, plane.cols, maxCells, maxCells, pooling);
    const ElementReader reader(location, info);
    std::vector<double> row(plane.cols);
    const std::uint64_t span = plane.cols == 0 ? 0 : (plane.cols - 1) * plane.colStride + 1;
    for (std::uint64_t r = 0; r < plane.rows && plane.cols > 0; ++r) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return makeError(ErrorCode::Cancelled, location.source->displayName(),
                             QStringLiteral("The heatmap was cancelled."), info.name);
        if (span <= kMaxSpanElements) {
            Result<std::vector<double>> values = reader.read(plane.flat(r, 0), span);
            if (!values)
                return values.error();
            for (std::uint64_t c = 0; c < plane.cols; ++c)
                row[c] = values.value()[c * plane.colStride];
        } else {
            for (std::uint64_t c = 0; c < plane.cols; ++c) {
                Result<double> v = reader.at(plane.flat(r, c));
                if (!v)
                    return v.error();
                row[c] = v.value();
            }
        }
        pooler.addRow(r, row.data());
    }
    return pooler.finish();
}

} // namespace ts
