#include "analysis/AnomalyIndex.h"

#include "analysis/ScanFindings.h"
#include "analysis/TensorBlockReader.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace ts {

bool AnomalyIndex::mayHoldAny(const ValueStats& s)
{
    if (s.nan + s.posinf + s.neginf > 0)
        return true;
    return s.finite > 0 && (ScanFindings::isOutlier(s, s.max) || ScanFindings::isOutlier(s, s.min));
}

std::uint64_t AnomalyIndex::total() const
{
    return std::accumulate(m_totals.begin(), m_totals.end(), std::uint64_t{0});
}

void AnomalyIndex::add(std::uint64_t index, Kind kind)
{
    ++m_totals[static_cast<std::size_t>(kind)];
    if (m_positions.size() < m_cap)
        m_positions.push_back({index, kind});
}

Result<AnomalyIndex> AnomalyIndex::find(const TensorLocation& location, const TensorInfo& info,
                                        const ValueStats& stats, const JobControl& control, std::size_t cap)
{
    AnomalyIndex out;
    out.m_cap = cap;
    if (!mayHoldAny(stats))
        return out;
    const bool outliers = stats.finite > 0 && (ScanFindings::isOutlier(stats, stats.max) ||
                                               ScanFindings::isOutlier(stats, stats.min));
    // The score of v grows with d = |v - mean|: with k = n / (n - 1) it is k d over
    // sqrt((m2 - k d^2) / (n - 1)), above Z exactly when d^2 > Z^2 m2 / (k^2 (n - 1) + Z^2 k). Most
    // elements are thus ruled out by one subtraction and one compare; the exact rule decides those
    // near or past the threshold (kept a little low for rounding).
    double threshold = std::numeric_limits<double>::infinity();
    if (outliers) {
        const double n = static_cast<double>(stats.finite);
        const double k = n / (n - 1);
        const double z = ScanFindings::kOutlierZ;
        threshold = 0.999 * std::sqrt(std::max(0.0, z * z * stats.m2 / (k * k * (n - 1) + z * z * k)));
    }
    const auto look = [&](std::uint64_t index, double v) {
        if (std::isnan(v)) {
            out.add(index, Kind::NaN);
        } else if (std::isinf(v)) {
            out.add(index, v > 0 ? Kind::PosInf : Kind::NegInf);
        } else if (std::fabs(v - stats.mean) > threshold && ScanFindings::isOutlier(stats, v)) {
            out.add(index, Kind::Outlier);
        }
    };
    control.progress.begin(info.byteSize());
    TensorBlockReader reader(location, info.dtype, info.name);
    const Result<void> read = reader.forEach(0, info.elementCount(), control, [&](const DecodedBlock& block) {
        if (const auto* f = std::get_if<DecodedBlock::Floats>(&block.values)) {
            for (std::size_t i = 0; i < block.count; ++i)
                look(block.firstIndex + i, static_cast<double>(f->values[i]));
        } else if (const auto* d = std::get_if<DecodedBlock::Doubles>(&block.values)) {
            for (std::size_t i = 0; i < block.count; ++i)
                look(block.firstIndex + i, d->values[i]);
        } else if (const auto* c = std::get_if<DecodedBlock::Complex>(&block.values)) {
            for (std::size_t i = 0; i < block.count; ++i)
                look(block.firstIndex + i, c->magnitude[i]);
        }
    });
    if (!read)
        return read.error();
    return out;
}

} // namespace ts
