#include "analysis/NanInfCounter.h"

#include "analysis/SimdKernels.h"
#include "codec/DtypeDecoder.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>

namespace ts {
namespace {

// Stretches a piece with a NaN/Inf pattern is split into for the per-element look: small enough
// that one NaN in a 4 MiB piece costs a few microseconds, big enough to keep the vector test long.
constexpr std::size_t kStretch = 4096;

} // namespace

NanInfCounter::NanInfCounter(Dtype dtype) : m_dtype(dtype)
{
    // The pattern every NaN and Inf encoding of the dtype matches (and no finite value does).
    switch (dtype) {
    case Dtype::F64:
        m_laneBytes = 8, m_mask = m_value = 0x7ff0000000000000ull;
        break;
    case Dtype::F32:
        m_laneBytes = 4, m_mask = m_value = 0x7f800000u;
        break;
    case Dtype::C64: // both parts are F32 lanes
        m_laneBytes = 4, m_mask = m_value = 0x7f800000u, m_lanesPerElement = 2;
        break;
    case Dtype::F16:
        m_laneBytes = 2, m_mask = m_value = 0x7c00u;
        break;
    case Dtype::BF16:
        m_laneBytes = 2, m_mask = m_value = 0x7f80u;
        break;
    case Dtype::F8_E5M2: // IEEE-like: exponent all ones is Inf or NaN
        m_laneBytes = 1, m_mask = m_value = 0x7cu;
        break;
    case Dtype::F8_E4M3: // OCP "FN": NaN only at S.1111.111, no Inf
        m_laneBytes = 1, m_mask = m_value = 0x7fu;
        break;
    case Dtype::F8_E8M0: // 0xFF is NaN
        m_laneBytes = 1, m_mask = m_value = 0xffu;
        break;
    case Dtype::F8_E4M3FNUZ:
    case Dtype::F8_E5M2FNUZ: // only 0x80 (the would-be negative zero) is NaN
        m_laneBytes = 1, m_mask = 0xffu, m_value = 0x80u;
        break;
    default: // integers, BOOL, F4, F6: no encoding is NaN or Inf
        break;
    }
    m_stats = ValueStats::empty();
}

void NanInfCounter::add(const std::uint8_t* raw, std::uint64_t firstIndex, std::size_t count)
{
    m_stats.count += count;
    m_stats.finite += count;
    if (m_laneBytes == 0 || count == 0)
        return;
    const std::size_t lanes = count * static_cast<std::size_t>(m_lanesPerElement);
    if (!simd::anyMasked(raw, lanes, m_laneBytes, m_mask, m_value))
        return;
    const std::size_t elementBytes = static_cast<std::size_t>(m_laneBytes * m_lanesPerElement);
    for (std::size_t at = 0; at < count; at += kStretch) {
        const std::size_t k = std::min(kStretch, count - at);
        const std::uint8_t* stretch = raw + at * elementBytes;
        if (simd::anyMasked(stretch, k * static_cast<std::size_t>(m_lanesPerElement), m_laneBytes, m_mask,
                            m_value))
            classify(stretch, firstIndex + at, k);
    }
}

void NanInfCounter::classify(const std::uint8_t* raw, std::uint64_t firstIndex, std::size_t count)
{
    const auto* bytes = reinterpret_cast<const std::byte*>(raw);
    if (m_dtype == Dtype::C64) {
        for (std::size_t i = 0; i < count; ++i) {
            float part[2];
            std::memcpy(part, raw + 8 * i, 8);
            if (std::isnan(part[0]) || std::isnan(part[1]))
                record(firstIndex + i, std::numeric_limits<double>::quiet_NaN());
            else if (std::isinf(part[0]) || std::isinf(part[1]))
                record(firstIndex + i, std::numeric_limits<double>::infinity());
        }
        return;
    }
    const std::span<const std::byte> span(bytes, count * static_cast<std::size_t>(m_laneBytes));
    for (std::size_t i = 0; i < count; ++i) {
        const double v = decode::element(m_dtype, span, i);
        if (!std::isfinite(v))
            record(firstIndex + i, v);
    }
}

void NanInfCounter::record(std::uint64_t index, double value)
{
    --m_stats.finite;
    if (std::isnan(value)) {
        ++m_stats.nan;
        if (m_stats.nanIndices.size() < kRecordedIndices)
            m_stats.nanIndices.push_back(index);
        return;
    }
    ++(value > 0 ? m_stats.posinf : m_stats.neginf);
    if (m_stats.infIndices.size() < kRecordedIndices)
        m_stats.infIndices.push_back(index);
}

} // namespace ts
