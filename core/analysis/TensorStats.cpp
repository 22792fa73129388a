#include "analysis/TensorStats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ts {
namespace {

void appendIndices(std::vector<std::uint64_t>& into, const std::vector<std::uint64_t>& more)
{
    for (std::uint64_t i : more) {
        if (into.size() >= kRecordedIndices)
            return;
        into.push_back(i);
    }
}

} // namespace

std::optional<std::uint64_t> ValueStats::firstNan() const
{
    return nanIndices.empty() ? std::nullopt : std::optional<std::uint64_t>(nanIndices.front());
}

std::optional<std::uint64_t> ValueStats::firstInf() const
{
    return infIndices.empty() ? std::nullopt : std::optional<std::uint64_t>(infIndices.front());
}

ValueStats ValueStats::empty()
{
    ValueStats s;
    s.min = std::numeric_limits<double>::infinity();
    s.max = -std::numeric_limits<double>::infinity();
    s.absmax = -1; // below any |x|, so the first finite value always wins
    s.minAbsNonzero = std::numeric_limits<double>::infinity();
    return s;
}

double ValueStats::zeroShare() const
{
    return count == 0 ? std::numeric_limits<double>::quiet_NaN()
                      : static_cast<double>(zeros) / static_cast<double>(count);
}

void ValueStats::mergeFollowing(const ValueStats& next)
{
    quantiles.reset();
    count += next.count;
    nan += next.nan;
    posinf += next.posinf;
    neginf += next.neginf;
    zeros += next.zeros;
    subnormals += next.subnormals;
    f16Overflow += next.f16Overflow;
    f16Underflow += next.f16Underflow;
    bf16Underflow += next.bf16Underflow;
    appendIndices(nanIndices, next.nanIndices);
    appendIndices(infIndices, next.infIndices);
    if (next.finite == 0)
        return;
    min = std::min(min, next.min);
    max = std::max(max, next.max);
    // Strictly greater: on a tie the earlier element keeps the index, as a sequential scan would.
    if (next.absmax > absmax) {
        absmax = next.absmax;
        absmaxIndex = next.absmaxIndex;
    }
    minAbsNonzero = std::min(minAbsNonzero, next.minAbsNonzero);
    // Chan, Golub & LeVeque pairwise update: stable even when the mean is large against the spread.
    const double n1 = static_cast<double>(finite);
    const double n2 = static_cast<double>(next.finite);
    const double n = n1 + n2;
    const double delta = next.mean - mean;
    mean += delta * (n2 / n);
    m2 += next.m2 + delta * delta * (n1 * n2 / n);
    finite += next.finite;
}

void ValueStats::finalize()
{
    if (finite == 0) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        min = max = absmax = mean = std = minAbsNonzero = nan;
        l2 = 0;
        return;
    }
    const double n = static_cast<double>(finite);
    std = std::sqrt(std::max(0.0, m2 / n));
    l2 = std::sqrt(std::max(0.0, m2 + n * mean * mean));
    if (std::isinf(minAbsNonzero))
        minAbsNonzero = std::numeric_limits<double>::quiet_NaN();
}

void TensorStats::mergeFollowing(const TensorStats& next)
{
    elements += next.elements;
    values.mergeFollowing(next.values);
    if (real && next.real)
        real->mergeFollowing(*next.real);
    if (imag && next.imag)
        imag->mergeFollowing(*next.imag);
    if (!firstNonBinaryBool)
        firstNonBinaryBool = next.firstNonBinaryBool;
    nonBinaryBool += next.nonBinaryBool;
    nanInfOnly = nanInfOnly || next.nanInfOnly;
}

void TensorStats::finalize()
{
    values.finalize();
    if (real)
        real->finalize();
    if (imag)
        imag->finalize();
}

} // namespace ts
