#include "diff/ChangeMetrics.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace ts::diff {
namespace {

int significandBits(std::uint64_t mask)
{
    return mask == 0 ? 0 : 52 - std::countr_zero(mask);
}

std::optional<std::uint64_t> position(std::uint32_t inBlock, std::uint64_t firstIndex)
{
    if (inBlock == PairSummary::kNone)
        return std::nullopt;
    return firstIndex + inBlock;
}

} // namespace

ChangeMetrics ChangeMetrics::empty()
{
    ChangeMetrics m;
    constexpr double inf = std::numeric_limits<double>::infinity();
    m.minDiff = m.minA = m.minB = inf;
    m.maxDiff = m.maxA = m.maxB = -inf;
    return m;
}

void ChangeMetrics::add(const PairSummary& s, std::uint64_t firstIndex, std::uint64_t n)
{
    elements += n;
    compared += s.compared;
    changed += s.changed;
    nanA += s.nanA;
    infA += s.infA;
    nanB += s.nanB;
    infB += s.infB;
    if (s.introduced > 0 && !firstIntroduced)
        firstIntroduced = position(s.firstIntroduced, firstIndex);
    if (s.removed > 0 && !firstRemoved)
        firstRemoved = position(s.firstRemoved, firstIndex);
    nonFiniteIntroduced += s.introduced;
    nonFiniteRemoved += s.removed;
    // Ties keep the earlier element: a later block must beat the maximum, not match it.
    if (s.maxAbs > maxAbsDiff && s.maxAbsAt != PairSummary::kNone) {
        maxAbsDiff = s.maxAbs;
        maxAbsIndex = firstIndex + s.maxAbsAt;
        aAtMax = s.aAtMax;
        bAtMax = s.bAtMax;
    }
    sumAbsDiff += s.sumAbs;
    sumSqDiff += s.sumSq;
    sumSqA += s.sumSqA;
    sumSqB += s.sumSqB;
    minDiff = std::min(minDiff, s.minDiff);
    maxDiff = std::max(maxDiff, s.maxDiff);
    minA = std::min(minA, s.minA);
    maxA = std::max(maxA, s.maxA);
    minB = std::min(minB, s.minB);
    maxB = std::max(maxB, s.maxB);
    maxRelative = std::max(maxRelative, s.maxRelative);
    maxRelativeF8 = std::max(maxRelativeF8, s.maxRelativeF8);
    mantissaA |= s.mantissaA;
    mantissaB |= s.mantissaB;
}

void ChangeMetrics::mergeFollowing(const ChangeMetrics& next)
{
    elements += next.elements;
    compared += next.compared;
    changed += next.changed;
    nanA += next.nanA;
    infA += next.infA;
    nanB += next.nanB;
    infB += next.infB;
    if (!firstIntroduced)
        firstIntroduced = next.firstIntroduced;
    if (!firstRemoved)
        firstRemoved = next.firstRemoved;
    nonFiniteIntroduced += next.nonFiniteIntroduced;
    nonFiniteRemoved += next.nonFiniteRemoved;
    if (next.maxAbsDiff > maxAbsDiff) {
        maxAbsDiff = next.maxAbsDiff;
        maxAbsIndex = next.maxAbsIndex;
        aAtMax = next.aAtMax;
        bAtMax = next.bAtMax;
    }
    sumAbsDiff += next.sumAbsDiff;
    sumSqDiff += next.sumSqDiff;
    sumSqA += next.sumSqA;
    sumSqB += next.sumSqB;
    minDiff = std::min(minDiff, next.minDiff);
    maxDiff = std::max(maxDiff, next.maxDiff);
    minA = std::min(minA, next.minA);
    maxA = std::max(maxA, next.maxA);
    minB = std::min(minB, next.minB);
    maxB = std::max(maxB, next.maxB);
    maxRelative = std::max(maxRelative, next.maxRelative);
    maxRelativeF8 = std::max(maxRelativeF8, next.maxRelativeF8);
    mantissaA |= next.mantissaA;
    mantissaB |= next.mantissaB;
}

double ChangeMetrics::meanAbsDiff() const
{
    return compared == 0 ? 0 : sumAbsDiff / static_cast<double>(compared);
}

double ChangeMetrics::normA() const
{
    return std::sqrt(sumSqA);
}

double ChangeMetrics::normB() const
{
    return std::sqrt(sumSqB);
}

double ChangeMetrics::relativeL2() const
{
    if (sumSqDiff == 0)
        return 0;
    if (sumSqA == 0)
        return std::numeric_limits<double>::infinity();
    return std::sqrt(sumSqDiff / sumSqA);
}

double ChangeMetrics::cosine() const
{
    if (sumSqA == 0 || sumSqB == 0)
        return std::numeric_limits<double>::quiet_NaN();
    // From ||d||^2 = ||a||^2 + ||b||^2 - 2 a.b: 1 - cos = (||d||^2 - (||a|| - ||b||)^2) / (2 ||a|| ||b||).
    // Taken from the sum of d^2 rather than a sum of a*b, so a rounding-sized change (1 - cos near
    // 1e-6) keeps its digits instead of being the difference of two numbers near 1.
    const double na = normA(), nb = normB();
    const double gap = na - nb;
    const double oneMinus = (sumSqDiff - gap * gap) / (2 * na * nb);
    return std::clamp(1 - oneMinus, -1.0, 1.0);
}

double ChangeMetrics::fractionChanged() const
{
    return elements == 0 ? 0 : static_cast<double>(changed) / static_cast<double>(elements);
}

int ChangeMetrics::significandBitsA() const
{
    return significandBits(mantissaA);
}

int ChangeMetrics::significandBitsB() const
{
    return significandBits(mantissaB);
}

} // namespace ts::diff
