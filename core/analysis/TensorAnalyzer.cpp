#include "analysis/TensorAnalyzer.h"

#include "analysis/CodeCounter.h"
#include "analysis/CodedAccumulator.h"
#include "analysis/NanInfCounter.h"
#include "analysis/SimdKernels.h"
#include "analysis/ValueAccumulator.h"
#include "codec/CodeTable.h"
#include "codec/DtypeDecoder.h"

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
                                                 const JobControl& control, CodeCounts* counts)
{
    const Dtype dtype = m_info.dtype;
    TensorStats stats;
    stats.name = m_info.name;
    stats.dtype = dtype;
    stats.elements = count;
    const auto countNonBinary = [&](const DecodedBlock& b) {
        for (std::size_t i = 0; i < b.count; ++i) {
            if (b.raw[i] > 1) {
                if (!stats.firstNonBinaryBool)
                    stats.firstNonBinaryBool = b.firstIndex + i;
                ++stats.nonBinaryBool;
            }
        }
    };

    // Counting codes gives statistics, histogram and quantiles in one pass, but for the 16-bit
    // floats on AVX2 and up a 65,536-entry table's scattered increments cost 2.5x the CPU of
    // decoding and summing in SIMD (tests/bench/analysis, "stats + NaN/Inf scan": 0.18-0.22 s
    // against 0.07-0.09 s of CPU per GiB of BF16). So there statistics alone decode them. Below
    // AVX2 the count wins (F16 has no F16C to widen it) and makes F16 cost what BF16 does. 8-bit
    // and smaller codes, whose table fits in L1, are always counted.
    const bool halfFloat = dtype == Dtype::BF16 || dtype == Dtype::F16;
    const bool count16BitFloats = counts != nullptr || !halfFloat || !simd::summingHalfsBeatsCounting();
    if (decode::isCoded(dtype) && count16BitFloats) {
        CodedAccumulator values(dtype);
        m_reader.setDecode(false); // whole pieces of raw codes
        const Result<void> done = m_reader.forEach(first, count, control, [&](const DecodedBlock& b) {
            values.add(reinterpret_cast<const std::byte*>(b.raw), b.count, b.firstIndex);
            if (dtype == Dtype::BOOL)
                countNonBinary(b);
        });
        if (!done)
            return done.error();
        CodeCounts codes;
        stats.values = values.finish(codes);
        if (counts)
            *counts = std::move(codes);
        return stats;
    }

    ValueAccumulator values(dtype == Dtype::C64 ? 0.0 : decode::minNormal(dtype));
    ValueAccumulator real(decode::minNormal(Dtype::F32));
    ValueAccumulator imag(decode::minNormal(Dtype::F32));
    CodeCounter* prefixes = counts ? &CodeCounter::forThread(65536) : nullptr;
    m_reader.setDecode(true);
    const Result<void> done = m_reader.forEach(first, count, control, [&](const DecodedBlock& b) {
        if (const auto* f = std::get_if<DecodedBlock::Floats>(&b.values)) {
            values.add(f->values, b.count, b.firstIndex);
            if (prefixes)
                prefixes->addKeyPrefixes(f->values, b.count);
        } else if (const auto* d = std::get_if<DecodedBlock::Doubles>(&b.values)) {
            values.add(d->values, b.count, b.firstIndex);
            if (prefixes)
                prefixes->addKeyPrefixes(d->values, b.count);
        } else if (const auto* c = std::get_if<DecodedBlock::Complex>(&b.values)) {
            real.add(c->real, b.count, b.firstIndex);
            imag.add(c->imag, b.count, b.firstIndex);
            values.add(c->magnitude, b.count, b.firstIndex);
            if (prefixes)
                prefixes->addKeyPrefixes(c->magnitude, b.count);
        }
    });
    if (!done)
        return done.error();
    stats.values = values.stats();
    if (dtype == Dtype::C64) {
        stats.real = real.stats();
        stats.imag = imag.stats();
    }
    if (counts)
        *counts = prefixes->take();
    return stats;
}

Result<void> TensorAnalyzer::histogramOfRange(std::uint64_t first, std::uint64_t count,
                                              HistogramBuilder& builder, const JobControl& control)
{
    const Dtype dtype = m_info.dtype;
    if (!decode::isCoded(dtype))
        return laterPassOfRange(first, count, &builder, nullptr, nullptr, control);
    const CodeTable& table = CodeTable::of(dtype);
    CodeCounter& counter = CodeCounter::forThread(table.size());
    m_reader.setDecode(false);
    const Result<void> done = m_reader.forEach(first, count, control, [&](const DecodedBlock& b) {
        counter.addCodes(dtype, reinterpret_cast<const std::byte*>(b.raw), b.count);
    });
    const CodeCounts counts = counter.take();
    if (!done)
        return done;
    builder.add(table, counts);
    return {};
}

Result<void> TensorAnalyzer::laterPassOfRange(std::uint64_t first, std::uint64_t count,
                                              HistogramBuilder* builder, const QuantileSearch* search,
                                              QuantileSearch::Matches* matches, const JobControl& control)
{
    if (!matches)
        search = nullptr;
    m_reader.setDecode(true);
    return m_reader.forEach(first, count, control, [&](const DecodedBlock& b) {
        if (const auto* f = std::get_if<DecodedBlock::Floats>(&b.values)) {
            if (builder)
                builder->add(f->values, b.count);
            if (search)
                search->collect(f->values, b.count, *matches);
            return;
        }
        const double* d = nullptr;
        if (const auto* doubles = std::get_if<DecodedBlock::Doubles>(&b.values))
            d = doubles->values;
        else if (const auto* c = std::get_if<DecodedBlock::Complex>(&b.values))
            d = c->magnitude;
        if (!d)
            return;
        if (builder)
            builder->add(d, b.count);
        if (search)
            search->collect(d, b.count, *matches);
    });
}

Result<TensorStats> TensorAnalyzer::stats(const JobControl& control)
{
    if (auto ok = check(); !ok)
        return ok.error();
    const bool coded = decode::isCoded(m_info.dtype);
    CodeCounts counts;
    Result<TensorStats> s = statsOfRange(0, m_info.elementCount(), control, coded ? &counts : nullptr);
    if (!s)
        return s;
    s->finalize();
    if (coded)
        m_counts = std::move(counts);
    return s;
}

Result<Histogram> TensorAnalyzer::histogram(const TensorStats& stats, int bins, const JobControl& control)
{
    if (auto ok = check(); !ok)
        return ok.error();
    HistogramBuilder builder(stats.values, bins);
    if (m_counts) {
        builder.add(CodeTable::of(m_info.dtype), *m_counts);
        return builder.histogram();
    }
    if (auto ok = histogramOfRange(0, m_info.elementCount(), builder, control); !ok)
        return ok.error();
    return builder.histogram();
}

int TensorAnalyzer::keyBits(Dtype dtype)
{
    return decode::decodesToFloat(dtype) ? 32 : 64;
}

Result<TensorAnalyzer::Analysis> TensorAnalyzer::analyze(int bins, bool logHistogram, bool quantiles,
                                                         const JobControl& control)
{
    if (auto ok = check(); !ok)
        return ok.error();
    const Dtype dtype = m_info.dtype;
    const std::uint64_t n = m_info.elementCount();
    const bool coded = decode::isCoded(dtype);
    CodeCounts counts;
    const bool wantCounts = coded ? bins > 0 || quantiles : quantiles;
    Result<TensorStats> s = statsOfRange(0, n, control, wantCounts ? &counts : nullptr);
    if (!s)
        return s.error();
    s->finalize();
    Analysis a{std::move(*s), std::nullopt};
    if (coded) {
        const CodeTable& table = CodeTable::of(dtype);
        if (quantiles)
            a.stats.values.quantiles = CodedAccumulator::quantiles(table, counts);
        if (bins > 0) {
            HistogramBuilder builder(a.stats.values, bins, logHistogram);
            builder.add(table, counts);
            a.histogram = builder.histogram();
        }
        return a;
    }
    std::optional<HistogramBuilder> builder;
    if (bins > 0)
        builder.emplace(a.stats.values, bins, logHistogram);
    std::optional<QuantileSearch> search;
    if (quantiles)
        search.emplace(counts, keyBits(dtype));
    // Later passes in ranges of a few MiB, so the matches a range collects for the quantile search
    // stay small whatever the tensor (all of a range's values may sit in one bucket).
    constexpr std::uint64_t kRange = std::uint64_t{1} << 20;
    for (bool histogramPass = builder.has_value(); histogramPass || (search && !search->done());
         histogramPass = false) {
        const QuantileSearch* pending = search && !search->done() ? &*search : nullptr;
        for (std::uint64_t first = 0; first < n; first += kRange) {
            QuantileSearch::Matches matches;
            if (auto ok = laterPassOfRange(first, std::min(kRange, n - first),
                                           histogramPass ? &*builder : nullptr, pending, &matches, control);
                !ok)
                return ok.error();
            if (pending)
                search->add(matches);
        }
        if (pending)
            search->finishPass();
    }
    if (builder)
        a.histogram = builder->histogram();
    if (search)
        a.stats.values.quantiles = search->result();
    return a;
}

} // namespace ts
