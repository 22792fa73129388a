#include "analysis/ValueAccumulator.h"

#include "analysis/SimdKernels.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace ts {
namespace {

template <typename T> bool isFiniteValue(T x)
{
    return std::isfinite(x);
}

// The mean of the first few finite values: the first block's pivot for the one-pass m2. It only
// has to be near the block's mean, not exact.
double openingMean(const float* p, std::size_t n)
{
    double sum = 0;
    std::size_t used = 0;
    for (std::size_t i = 0; i < n && used < 64; ++i) {
        if (std::isfinite(p[i])) {
            sum += p[i];
            ++used;
        }
    }
    return used ? sum / static_cast<double>(used) : 0.0;
}

} // namespace

ValueAccumulator::ValueAccumulator(double minNormal) : m_minNormal(minNormal)
{
    if (minNormal > 0)
        m_minNormalBits =
            std::max<std::uint32_t>(1, std::bit_cast<std::uint32_t>(static_cast<float>(minNormal)));
}

void ValueAccumulator::recordSpecialIndices(const float* p, std::size_t n, std::uint64_t firstIndex,
                                            bool nans, bool infs)
{
    for (std::size_t i = 0; i < n; ++i) {
        if (nans && std::isnan(p[i]) && m_stats.nanIndices.size() < kRecordedIndices)
            m_stats.nanIndices.push_back(firstIndex + i);
        if (infs && std::isinf(p[i]) && m_stats.infIndices.size() < kRecordedIndices)
            m_stats.infIndices.push_back(firstIndex + i);
    }
}

void ValueAccumulator::add(const float* p, std::size_t n, std::uint64_t firstIndex)
{
    if (n == 0)
        return;
    if (!std::isfinite(m_pivot))
        m_pivot = openingMean(p, n);
    simd::FloatBlockSummary s;
    simd::summarizeFloats(p, n, m_minNormalBits, m_pivot, s, m_zerosLikely);
    // Zeros and subnormals come in runs along a tensor (pruned rows, small F16 weights): the next
    // block is summarised expecting them when this one had them.
    m_zerosLikely = s.belowNormal > 0;
    addSummary(s, p, n, firstIndex);
}

void ValueAccumulator::addSummary(const simd::FloatBlockSummary& s, const float* p, std::size_t n,
                                  std::uint64_t firstIndex)
{
    ValueStats block;
    block.count = n;
    block.finite = s.finite;
    block.nan = s.nan;
    block.neginf = s.negInf;
    block.posinf = s.inf - s.negInf;
    block.zeros = s.zeros;
    block.subnormals = s.belowNormal - s.zeros;
    block.f16Overflow = s.aboveF16 - s.inf - s.nan;
    block.f16Underflow = s.f16Underflow;
    block.bf16Underflow = s.bf16Underflow;

    const bool wantNans = s.nan > 0 && m_stats.nanIndices.size() < kRecordedIndices;
    const bool wantInfs = s.inf > 0 && m_stats.infIndices.size() < kRecordedIndices;
    if (wantNans || wantInfs)
        recordSpecialIndices(p, n, firstIndex, wantNans, wantInfs);

    if (s.finite > 0) {
        block.min = s.min;
        block.max = s.max;
        block.absmax = std::max(-block.min, block.max);
        block.minAbsNonzero = s.minAbsNonzeroBits < 0x7f800000u ? std::bit_cast<float>(s.minAbsNonzeroBits)
                                                                : std::numeric_limits<double>::infinity();
        block.mean = s.pivot + s.sum / static_cast<double>(s.finite);
        m_pivot = block.mean; // the next block's pivot: weights drift slowly along a tensor
        if (s.m2 >= 0) {
            block.m2 = s.m2;
        } else if (s.finite == n) {
            block.m2 = simd::sumSquaredDeviations(p, n, block.mean);
        } else {
            // Rare: a block with NaN/Inf takes the scalar path rather than masking every block.
            double m2 = 0;
            for (std::size_t i = 0; i < n; ++i) {
                if (isFiniteValue(p[i])) {
                    const double d = static_cast<double>(p[i]) - block.mean;
                    m2 += d * d;
                }
            }
            block.m2 = m2;
        }
        // Only look for the position when this block would take over the tensor's absmax.
        if (block.absmax > m_stats.absmax) {
            for (std::size_t i = 0; i < n; ++i) {
                if (std::fabs(p[i]) == static_cast<float>(block.absmax)) {
                    block.absmaxIndex = firstIndex + i;
                    break;
                }
            }
        }
    }
    // The indices were recorded straight into m_stats; keep the merge from adding them twice.
    m_stats.mergeFollowing(block);
}

void ValueAccumulator::add(const double* p, std::size_t n, std::uint64_t firstIndex)
{
    if (n == 0)
        return;
    ValueStats block = ValueStats::empty();
    block.count = n;
    double sum = 0;
    double minAbs = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
        const double x = p[i];
        if (std::isnan(x)) {
            ++block.nan;
            if (m_stats.nanIndices.size() < kRecordedIndices)
                m_stats.nanIndices.push_back(firstIndex + i);
            continue;
        }
        if (std::isinf(x)) {
            ++(x > 0 ? block.posinf : block.neginf);
            if (m_stats.infIndices.size() < kRecordedIndices)
                m_stats.infIndices.push_back(firstIndex + i);
            continue;
        }
        ++block.finite;
        const double a = std::fabs(x);
        block.zeros += a == 0;
        block.subnormals += a != 0 && a < m_minNormal;
        block.f16Overflow += a > 65504.0;
        block.f16Underflow += a != 0 && a <= 0x1p-25;
        block.bf16Underflow += a != 0 && a <= 0x1p-134;
        block.min = std::min(block.min, x);
        block.max = std::max(block.max, x);
        if (a != 0)
            minAbs = std::min(minAbs, a);
        sum += x;
    }
    if (block.finite > 0) {
        block.absmax = std::max(-block.min, block.max);
        block.minAbsNonzero = minAbs;
        block.mean = sum / static_cast<double>(block.finite);
        double m2 = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (isFiniteValue(p[i])) {
                const double d = p[i] - block.mean;
                m2 += d * d;
            }
        }
        block.m2 = m2;
        if (block.absmax > m_stats.absmax) {
            for (std::size_t i = 0; i < n; ++i) {
                if (std::fabs(p[i]) == block.absmax) {
                    block.absmaxIndex = firstIndex + i;
                    break;
                }
            }
        }
    }
    m_stats.mergeFollowing(block);
}

} // namespace ts
