#include "diff/PairDetail.h"

#include "analysis/HistogramBuilder.h"
#include "analysis/ValueAccumulator.h"
#include "diff/PairReader.h"

#include <cmath>
#include <limits>
#include <vector>

namespace ts::diff {
namespace {

// A HistogramBuilder needs only the finite range of what it bins.
ValueStats rangeOf(double lo, double hi)
{
    ValueStats s;
    s.finite = 1;
    s.min = lo;
    s.max = hi;
    s.absmax = std::max(std::fabs(lo), std::fabs(hi));
    s.minAbsNonzero = std::numeric_limits<double>::quiet_NaN();
    return s;
}

} // namespace

Result<PairDetail> PairDetailBuilder::build(const DiffReport& report, const TensorPair& pair, int bins,
                                            int maxCells, const JobControl& control)
{
    const TensorInfo& ta = report.infoA(pair);
    const TensorInfo& tb = report.infoB(pair);
    if (!pair.metrics || ta.elementCount() != tb.elementCount() ||
        !PairReader::comparable(ta.dtype, tb.dtype))
        return makeError(
            ErrorCode::InvalidArgument, report.a->path(),
            QStringLiteral("\"%1\" and \"%2\" were not compared value by value").arg(ta.name, tb.name),
            ta.name);
    const ChangeMetrics& m = *pair.metrics;
    const bool values = m.compared > 0;
    const double lo = values ? std::min(m.minA, m.minB) : 0;
    const double hi = values ? std::max(m.maxA, m.maxB) : 0;
    double dLo = values ? m.minDiff : 0, dHi = values ? m.maxDiff : 0;
    if (!std::isfinite(dLo) || !std::isfinite(dHi)) { // float d overflowed: the double |d| is right
        dLo = -m.maxAbsDiff;
        dHi = m.maxAbsDiff;
    }
    HistogramBuilder histA(values ? rangeOf(lo, hi) : ValueStats{}, bins, false);
    HistogramBuilder histB(values ? rangeOf(lo, hi) : ValueStats{}, bins, false);
    HistogramBuilder histD(values ? rangeOf(dLo, dHi) : ValueStats{}, bins, false);

    PairDetail detail;
    const std::uint64_t elements = ta.elementCount();
    const std::uint64_t rows = ta.shape.empty() ? 1 : ta.shape[0];
    const std::uint64_t cols = rows == 0 ? 0 : elements / rows;
    std::optional<HeatmapPooler> pooler;
    if (ta.shape.size() < 2)
        detail.heatmapNote =
            QStringLiteral("a heatmap needs two dimensions; the largest change is listed above");
    else if (cols > kMaxRowElements)
        detail.heatmapNote = QStringLiteral("rows of %1 elements are too long to pool").arg(cols);
    else if (elements > 0)
        pooler.emplace(rows, cols, maxCells, maxCells, Pooling::MaxAbs);
    std::vector<double> row(pooler ? static_cast<std::size_t>(cols) : 0);
    std::vector<double> d(ValueAccumulator::kBlock);
    std::size_t filled = 0;
    std::uint64_t rowIndex = 0;

    PairReader reader(report.a->location(pair.a), ta, report.b->location(pair.b), tb);
    Result<void> read = reader.forEach(0, elements, control, [&](const PairRun& run) {
        for (std::size_t i = 0; i < run.count; ++i) {
            const double x = run.a ? static_cast<double>(run.a[i]) : run.ad[i];
            const double y = run.a ? static_cast<double>(run.b[i]) : run.bd[i];
            // NaN where either side is not finite: histograms skip it, the pooler counts it.
            d[i] = std::isfinite(x) && std::isfinite(y) ? y - x : std::numeric_limits<double>::quiet_NaN();
        }
        if (run.a) {
            histA.add(run.a, run.count);
            histB.add(run.b, run.count);
        } else {
            histA.add(run.ad, run.count);
            histB.add(run.bd, run.count);
        }
        histD.add(d.data(), run.count);
        if (!pooler)
            return;
        for (std::size_t i = 0; i < run.count; ++i) {
            row[filled++] = d[i];
            if (filled == row.size()) {
                pooler->addRow(rowIndex++, row.data());
                filled = 0;
            }
        }
    });
    if (!read)
        return read.error();
    detail.a = histA.histogram();
    detail.b = histB.histogram();
    detail.diff = histD.histogram();
    if (pooler)
        detail.heatmap = pooler->finish();
    return detail;
}

} // namespace ts::diff
