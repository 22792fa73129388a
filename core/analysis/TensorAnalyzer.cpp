#include "analysis/TensorAnalyzer.h"

#include "analysis/DtypeDecoder.h"
#include "analysis/NanInfCounter.h"
#include "analysis/ValueAccumulator.h"

#include <algorithm>
#include <vector>

namespace ts {

TensorAnalyzer::TensorAnalyzer(TensorLocation location, TensorInfo info)
    : m_location(location), m_info(std::move(info)), m_reader(std::move(location), m_info.dtype, m_info.name)
{
}

Result<void> TensorAnalyzer::check() const
{
    const std::uint64_t need = TensorBlockReader::bytesFor(m_info.dtype, m_info.elementCount());
    if (m_location.length < need) {
        const QString file = m_location.source ? m_location.source->displayName() : QString();
        return makeError(ErrorCode::TensorInvalidInfo, file,
                         QStringLiteral("tensor \"%1\" holds %2 bytes but its shape needs %3")
                             .arg(m_info.name)
                             .arg(m_location.length)
                             .arg(need),
                         m_info.name, m_location.offset);
    }
    return {};
}

Result<TensorStats> TensorAnalyzer::nanInfOfRange(std::uint64_t first, std::uint64_t count,
                                                  const JobControl& control)
{
    TensorStats stats;
    stats.name = m_info.name;
    stats.dtype = m_info.dtype;
    stats.elements = count;
    stats.nanInfOnly = true;
    NanInfCounter counter(m_info.dtype);
    if (!counter.dtypeHasSpecials()) { // nothing to read: no encoding of the dtype is NaN or Inf
        if (auto ok = m_reader.checkUnread(first, count, control); !ok)
            return ok.error();
        counter.add(nullptr, first, static_cast<std::size_t>(count));
        stats.values = counter.result();
        return stats;
    }
    m_reader.setWholePieces(true);
    const Result<void> done = m_reader.forEach(
        first, count, control, [&](const DecodedBlock& b) { counter.add(b.raw, b.firstIndex, b.count); });
    m_reader.setWholePieces(false);
    if (!done)
        return done.error();
    stats.values = counter.result();
    return stats;
}

Result<TensorStats> TensorAnalyzer::statsOfRange(std::uint64_t first, std::uint64_t count,
                                                 const JobControl& control)
{
    const Dtype dtype = m_info.dtype;
    TensorStats stats;
    stats.name = m_info.name;
    stats.dtype = dtype;
    stats.elements = count;
    ValueAccumulator values(dtype == Dtype::C64 ? 0.0 : decode::minNormal(dtype));
    ValueAccumulator real(decode::minNormal(Dtype::F32));
    ValueAccumulator imag(decode::minNormal(Dtype::F32));
    const bool isBool = dtype == Dtype::BOOL;

    const bool coded = decode::isCoded(dtype);
    std::vector<std::uint32_t> codeCounts(coded ? static_cast<std::size_t>(decode::codeCount(dtype)) : 0);
    m_reader.setDecode(!coded);
    const bool halfs = dtype == Dtype::F16 || dtype == Dtype::BF16;
    m_reader.setUndecodedHalfs(halfs);
    const Result<void> done = m_reader.forEach(first, count, control, [&](const DecodedBlock& b) {
        if (coded) {
            std::fill(codeCounts.begin(), codeCounts.end(), 0u);
            decode::countCodes(dtype, reinterpret_cast<const std::byte*>(b.raw), b.count, codeCounts.data());
            values.addCodeCounts(dtype, codeCounts.data(), reinterpret_cast<const std::byte*>(b.raw), b.count,
                                 b.firstIndex);
        } else if (b.real) {
            real.add(b.real, b.count, b.firstIndex);
            imag.add(b.imag, b.count, b.firstIndex);
        }
        if (b.halfs)
            values.addHalfs(b.halfs, b.count, dtype == Dtype::BF16, b.scratch, b.firstIndex);
        else if (!coded && b.floats)
            values.add(b.floats, b.count, b.firstIndex);
        else if (!coded)
            values.add(b.doubles, b.count, b.firstIndex);
        if (isBool) {
            for (std::size_t i = 0; i < b.count; ++i) {
                if (b.raw[i] > 1) {
                    if (!stats.firstNonBinaryBool)
                        stats.firstNonBinaryBool = b.firstIndex + i;
                    ++stats.nonBinaryBool;
                }
            }
        }
    });
    m_reader.setUndecodedHalfs(false);
    if (!done)
        return done.error();
    stats.values = values.stats();
    if (dtype == Dtype::C64) {
        stats.real = real.stats();
        stats.imag = imag.stats();
    }
    return stats;
}

Result<void> TensorAnalyzer::histogramOfRange(std::uint64_t first, std::uint64_t count,
                                              HistogramBuilder& builder, const JobControl& control)
{
    const Dtype dtype = m_info.dtype;
    if (decode::isCoded(dtype)) {
        std::vector<std::uint32_t> counts(static_cast<std::size_t>(decode::codeCount(dtype)));
        m_reader.setDecode(false);
        return m_reader.forEach(first, count, control, [&](const DecodedBlock& b) {
            std::fill(counts.begin(), counts.end(), 0u);
            decode::countCodes(dtype, reinterpret_cast<const std::byte*>(b.raw), b.count, counts.data());
            builder.addCounts(decode::codeValues(dtype), counts.data(), decode::codeCount(dtype));
        });
    }
    m_reader.setDecode(true);
    return m_reader.forEach(first, count, control, [&](const DecodedBlock& b) {
        if (b.floats)
            builder.add(b.floats, b.count);
        else
            builder.add(b.doubles, b.count);
    });
}

Result<TensorStats> TensorAnalyzer::stats(const JobControl& control)
{
    if (auto ok = check(); !ok)
        return ok.error();
    Result<TensorStats> s = statsOfRange(0, m_info.elementCount(), control);
    if (s)
        s->finalize();
    return s;
}

Result<Histogram> TensorAnalyzer::histogram(const TensorStats& stats, int bins, const JobControl& control)
{
    if (auto ok = check(); !ok)
        return ok.error();
    HistogramBuilder builder(stats.values, bins);
    if (auto ok = histogramOfRange(0, m_info.elementCount(), builder, control); !ok)
        return ok.error();
    return builder.histogram();
}

} // namespace ts
