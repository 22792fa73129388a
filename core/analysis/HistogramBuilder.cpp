#include "analysis/HistogramBuilder.h"

#include "analysis/SimdKernels.h"
#include "codec/CodeTable.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace ts {

void HistogramBuilder::Axis::init(double first, double last, int n)
{
    if (first == last) { // numpy: a constant tensor gets a unit-wide range around its value
        first -= 0.5;
        last += 0.5;
        if (first == last) {
            // Beyond 2^53 half a unit is lost to rounding (numpy refuses such a range: "Too many
            // bins for data range"). A range of zero width would divide by zero below and in every
            // chart, so widen by a fraction of the value instead; 2^-32 leaves room for kMaxBins
            // distinct edges.
            const double half = std::fabs(first) * 0x1p-32;
            first = std::max(first - half, -std::numeric_limits<double>::max());
            last = std::min(last + half, std::numeric_limits<double>::max());
        }
    }
    // F64 values of both signs can span more than the largest double: then work in halves, which
    // is exact for such magnitudes and keeps every width below finite.
    scale = std::isfinite(last - first) ? 1.0 : 0.5;
    first *= scale;
    last *= scale;
    bins = static_cast<std::size_t>(n);
    lo = first;
    norm = static_cast<double>(n) / (last - first);
    // np.linspace(first, last, n + 1): k * step + first, the last edge exactly `last`.
    const double step = (last - first) / static_cast<double>(n);
    edges.resize(bins + 1);
    for (std::size_t k = 0; k <= bins; ++k)
        edges[k] = static_cast<double>(k) * step + first;
    edges[bins] = last;
}

std::size_t HistogramBuilder::Axis::index(double value) const
{
    // Same steps as numpy: truncate, fold the top edge into the last bin, then fix rounding
    // against the actual edges so bin membership agrees with `edges` exactly.
    const double x = value * scale;
    const double f = (x - lo) * norm;
    const auto last = static_cast<std::int64_t>(bins) - 1;
    // Clamped before the conversion, which is undefined for a NaN or a value out of range (found
    // by fuzz_scan: a constant U64 tensor near 2^61 once made f = 0 * inf).
    std::int64_t i = !(f > 0) ? 0 : f >= static_cast<double>(bins) ? last + 1 : static_cast<std::int64_t>(f);
    if (i == last + 1)
        --i;
    if (x < edges[static_cast<std::size_t>(i)] && i > 0)
        --i;
    else if (i != last && x >= edges[static_cast<std::size_t>(i) + 1])
        ++i;
    return static_cast<std::size_t>(i);
}

HistogramBuilder::HistogramBuilder(const ValueStats& stats, int bins, bool withLog) : m_withLog(withLog)
{
    bins = std::clamp(bins, 1, kMaxBins);
    if (stats.finite == 0)
        return;
    m_enabled = true;
    m_linear.init(stats.min, stats.max, bins);
    m_hist.lo = m_linear.lo / m_linear.scale;
    m_hist.hi = m_linear.edges.back() / m_linear.scale;
    m_hist.counts.assign(m_linear.bins, 0);
    if (m_withLog && !std::isnan(stats.minAbsNonzero)) {
        m_log.init(std::log10(stats.minAbsNonzero), std::log10(stats.absmax), bins);
        m_hist.logLo = m_log.lo;
        m_hist.logHi = m_log.edges.back();
        m_hist.logCounts.assign(m_log.bins, 0);
        initLogThresholds();
    }
    // The SIMD bins (float lanes) are exact for values farther than the margin from an edge.
    // Linear: rounding lo and norm to float and the two float operations move the coordinate by at
    // most 2^-24 * bins * (|lo| / range + 4), doubled for safety. Log: log10 in float is within
    // 2e-5 (exponent term, series and rounding, for any float), times norm, plus the same
    // coordinate rounding. Wider margins only send more values to the exact scalar rule; past
    // 0.05 bins (very fine bins) the scalar rule does everything.
    constexpr double kUlp = 0x1p-24;
    if (m_linear.bins <= kMaxSplitBins) {
        const double range = m_linear.edges.back() - m_linear.lo;
        const double bins = static_cast<double>(m_linear.bins);
        m_linearMargin = 2 * kUlp * bins * (std::fabs(m_linear.lo) / range + 4) + 1e-7;
        m_simdLinear = m_linearMargin < 0.05 && m_linear.scale == 1; // halved axes: F64 data only
        m_split.assign(kSplit * (m_linear.bins + 1), 0);
    }
    if (!m_hist.logCounts.empty() && m_log.bins <= kMaxSplitBins) {
        const double range = m_log.edges.back() - m_log.lo;
        const double bins = static_cast<double>(m_log.bins);
        m_logMargin = 2e-5 * m_log.norm + 2 * kUlp * bins * (std::fabs(m_log.lo) / range + 4) + 1e-7;
        m_simdLog = m_logMargin < 0.05;
        m_splitLog.assign(kSplit * (m_log.bins + 1), 0);
    }
}

void HistogramBuilder::fold() const
{
    if (m_pending == 0)
        return;
    const auto foldInto = [](std::vector<std::uint32_t>& split, std::vector<std::uint64_t>& counts) {
        const std::size_t bins = counts.size();
        for (std::size_t part = 0; part < kSplit && !split.empty(); ++part) {
            for (std::size_t b = 0; b < bins; ++b)
                counts[b] += split[part * (bins + 1) + b]; // slot `bins` is the trash
        }
        std::fill(split.begin(), split.end(), 0u);
    };
    foldInto(m_split, m_hist.counts);
    foldInto(m_splitLog, m_hist.logCounts);
    m_pending = 0;
}

const Histogram& HistogramBuilder::histogram() const
{
    fold();
    return m_hist;
}

void HistogramBuilder::addFloats(const float* p, std::size_t n)
{
    if (!m_simdLinear || m_split.empty()) {
        addBlock(p, n);
        return;
    }
    // 32-bit split counters: fold well before any could wrap.
    if (m_pending + n > (1ull << 31))
        fold();
    m_pending += n;
    constexpr std::size_t kStep = 1024;
    std::uint32_t linear[kStep];
    std::uint32_t logs[kStep];
    std::uint32_t missed[kStep];
    const bool withLog = !m_hist.logCounts.empty();
    // Each split table has one spare slot past the last bin: the "trash" that values without a
    // bin (NaN, Inf; zeros for the log bins) are counted into, so the counting loops have no branch.
    const auto bins = static_cast<std::uint32_t>(m_linear.bins);
    const auto logBins = static_cast<std::uint32_t>(m_log.bins);
    const std::size_t stride = bins + 1, logStride = logBins + 1;
    std::uint32_t* split = m_split.data();
    std::uint32_t* splitLog = m_splitLog.data();
    for (std::size_t start = 0; start < n; start += kStep) {
        const std::size_t k = std::min(kStep, n - start);
        const float* q = p + start;
        // Values near an edge, at the top edge, or not finite: numpy's exact rule, one by one.
        const std::size_t missing =
            simd::linearBins(q, k, m_linear.lo, m_linear.norm, bins, m_linearMargin, linear, missed);
        for (std::size_t j = 0; j < missing; ++j) {
            const double x = q[missed[j]];
            linear[missed[j]] = std::isfinite(x) ? static_cast<std::uint32_t>(m_linear.index(x)) : bins;
        }
        countSplit(linear, k, split, stride);
        if (!withLog) {
            for (std::size_t t = 0; t < k; ++t)
                m_hist.zeros += q[t] == 0.0f;
            continue;
        }
        std::size_t logMissing = k;
        if (m_simdLog) {
            logMissing = simd::logBins(q, k, m_log.lo, m_log.norm, logBins, m_logMargin, logs, missed);
        } else {
            for (std::size_t t = 0; t < k; ++t)
                missed[t] = static_cast<std::uint32_t>(t);
        }
        for (std::size_t j = 0; j < logMissing; ++j) {
            const float x = q[missed[j]];
            std::uint32_t& bin = logs[missed[j]];
            if (!std::isfinite(x)) {
                bin = logBins;
            } else if (x == 0.0f) {
                ++m_hist.zeros;
                bin = logBins;
            } else {
                bin = static_cast<std::uint32_t>(logIndex(std::fabs(static_cast<double>(x))));
            }
        }
        countSplit(logs, k, splitLog, logStride);
    }
}

void HistogramBuilder::countSplit(const std::uint32_t* index, std::size_t k, std::uint32_t* split,
                                  std::size_t stride)
{
    std::size_t i = 0;
    for (; i + kSplit <= k; i += kSplit) {
        ++split[index[i]];
        ++split[stride + index[i + 1]];
        ++split[2 * stride + index[i + 2]];
        ++split[3 * stride + index[i + 3]];
    }
    for (; i < k; ++i)
        ++split[index[i]];
}

void HistogramBuilder::initLogThresholds()
{
    // Only worth it for coarse bins: the first guess below is within a few bins of the answer.
    if (m_log.bins > kMaxThresholdBins)
        return;
    m_thresholds.resize(m_log.bins + 1);
    for (std::size_t k = 0; k <= m_log.bins; ++k) {
        const double edge = m_log.edges[k];
        double a = std::pow(10.0, edge);
        // Walk to the exact boundary of std::log10 (a few ulps at most).
        for (int step = 0; step < 64 && a > 0 && std::log10(a) >= edge; ++step)
            a = std::nextafter(a, 0.0);
        for (int step = 0; step < 128 && std::log10(a) < edge; ++step)
            a = std::nextafter(a, std::numeric_limits<double>::infinity());
        m_thresholds[k] = a;
    }
    m_oneStep = 0.0015 * m_log.norm < 0.5;
}

std::size_t HistogramBuilder::logIndex(double a) const
{
    if (m_thresholds.empty() || a < std::numeric_limits<double>::min())
        return m_log.index(std::log10(a));
    // log2 from the exponent plus f + 0.3466 f (1 - f) for the mantissa 1 + f (error < 0.005,
    // i.e. under 0.0015 in log10), then exact steps against the thresholds.
    const auto bits = std::bit_cast<std::uint64_t>(a);
    const double f = static_cast<double>(bits & 0xfffffffffffffull) * 0x1p-52;
    const double log2 =
        static_cast<double>(static_cast<int>((bits >> 52) & 0x7ff) - 1023) + f + 0.3466 * f * (1 - f);
    const double guess = (log2 * 0.30102999566398120 - m_log.lo) * m_log.norm;
    const auto last = static_cast<std::int64_t>(m_log.bins) - 1;
    auto i = static_cast<std::int64_t>(std::clamp(guess, 0.0, static_cast<double>(last)));
    if (m_oneStep) {
        // The guess is off by less than half a bin: one branch-free step each way (the values
        // fall on either side at random, so branches here would mispredict half the time).
        i -= static_cast<std::int64_t>((i > 0) & (a < m_thresholds[static_cast<std::size_t>(i)]));
        i += static_cast<std::int64_t>((i < last) & (a >= m_thresholds[static_cast<std::size_t>(i) + 1]));
        return static_cast<std::size_t>(i);
    }
    while (i > 0 && a < m_thresholds[static_cast<std::size_t>(i)])
        --i;
    while (i < last && a >= m_thresholds[static_cast<std::size_t>(i) + 1])
        ++i;
    return static_cast<std::size_t>(i);
}

template <typename T> void HistogramBuilder::addBlock(const T* p, std::size_t n)
{
    if (!m_enabled)
        return;
    // Indices first, counts second: the index arithmetic of many values then overlaps instead of
    // waiting on the previous increment of a popular bin.
    constexpr std::size_t kStep = 1024;
    std::uint32_t linear[kStep];
    std::uint32_t logs[kStep];
    const bool withLog = !m_hist.logCounts.empty();
    for (std::size_t start = 0; start < n; start += kStep) {
        const std::size_t end = std::min(n, start + kStep);
        std::size_t nl = 0, ng = 0;
        for (std::size_t i = start; i < end; ++i) {
            const double x = p[i];
            if (!std::isfinite(x))
                continue;
            linear[nl++] = static_cast<std::uint32_t>(m_linear.index(x));
            if (x == 0)
                ++m_hist.zeros;
            else if (withLog)
                logs[ng++] = static_cast<std::uint32_t>(logIndex(std::fabs(x)));
        }
        for (std::size_t k = 0; k < nl; ++k)
            ++m_hist.counts[linear[k]];
        for (std::size_t k = 0; k < ng; ++k)
            ++m_hist.logCounts[logs[k]];
    }
}

void HistogramBuilder::add(const float* p, std::size_t n)
{
    if (m_enabled)
        addFloats(p, n);
}

void HistogramBuilder::add(const double* p, std::size_t n)
{
    addBlock(p, n);
}

void HistogramBuilder::add(const CodeTable& table, const CodeCounts& counts)
{
    if (!m_enabled)
        return;
    for (const CodeCount& e : counts.entries()) {
        const double x = table.value(e.code);
        if (!std::isfinite(x))
            continue;
        m_hist.counts[m_linear.index(x)] += e.count;
        if (x == 0)
            m_hist.zeros += e.count;
        else if (!m_hist.logCounts.empty())
            m_hist.logCounts[logIndex(std::fabs(x))] += e.count;
    }
}

void HistogramBuilder::merge(const HistogramBuilder& other)
{
    if (!m_enabled || !other.m_enabled)
        return;
    fold();
    other.fold();
    for (std::size_t k = 0; k < m_hist.counts.size(); ++k)
        m_hist.counts[k] += other.m_hist.counts[k];
    for (std::size_t k = 0; k < m_hist.logCounts.size(); ++k)
        m_hist.logCounts[k] += other.m_hist.logCounts[k];
    m_hist.zeros += other.m_hist.zeros;
}

} // namespace ts
