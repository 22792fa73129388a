// libFuzzer target: the statistics / scan engine on arbitrary bytes of every dtype, and the views
// computed from the same tensor. Input: 6 control bytes, then the tensor's raw bytes.
//   0      dtype (any of the 22)
//   1, 2   histogram bins, 1..1024 (the low 10 bits)
//   3      bit 0 log histogram, bits 1-2 worker threads (1..3), bit 3 (with bits 2 and 3 of byte 2)
//          add a tensor of the payload tiled past 1 MiB (the scanner never splits less:
//          ScanOptions::chunkBytes is raised to TensorBlockReader::kReadBytes), bits 4-5 rank of
//          the main tensor, bit 6 a second small tensor, bit 7 an empty tensor
//   4      shape and range-split choices
//   5      heatmap plane (axes), cells and pooling
// The model is laid out by SafetensorsWriter's planner and serializer and opened from memory, then
// scanned twice by ModelScanner (one thread, then 1-3 threads with the tensors in reverse order).
// Checked: every count of every tensor against a plain per-element decode (decode::element), the
// quantiles against that decode sorted, the invariants (nan + inf + finite = count, min <= max,
// histograms holding every finite value), the two scans identical to the bit (quantiles included),
// TensorAnalyzer (also analyze(): histogram and quantiles) on the whole tensor and on ranges merged with
// mergeFollowing giving the same numbers, findings consistent with the counts, the NaN/Inf-only
// check agreeing with the full scan, and ElementReader, buildHeatmap and buildEnvelope agreeing
// with the same decode.
#include "FuzzSupport.h"

#include "analysis/ModelScanner.h"
#include "analysis/ScanFindings.h"
#include "analysis/TensorAnalyzer.h"
#include "codec/DtypeDecoder.h"
#include "view/ElementReader.h"
#include "view/Envelope.h"
#include "view/Heatmap.h"
#include "view/TensorPlane.h"

#include <QHash>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace {

constexpr std::size_t kControl = 6;
constexpr std::uint64_t kMaxElements = 64 * 1024;

// Bitwise equality, every NaN equal to every other (the scans may not agree on a NaN's payload,
// and no statistic carries one).
bool same(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) ||
           std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

// Equal as numbers (+0 == -0), every NaN equal to every other.
bool equal(double a, double b)
{
    return a == b || (std::isnan(a) && std::isnan(b));
}

// The counts, extremes and positions that must be exact however a tensor is cut into ranges.
void checkSameCounts(const ts::ValueStats& a, const ts::ValueStats& b)
{
    FUZZ_CHECK(a.count == b.count);
    FUZZ_CHECK(a.finite == b.finite);
    FUZZ_CHECK(a.nan == b.nan);
    FUZZ_CHECK(a.posinf == b.posinf);
    FUZZ_CHECK(a.neginf == b.neginf);
    FUZZ_CHECK(a.zeros == b.zeros);
    FUZZ_CHECK(a.subnormals == b.subnormals);
    FUZZ_CHECK(a.f16Overflow == b.f16Overflow);
    FUZZ_CHECK(a.f16Underflow == b.f16Underflow);
    FUZZ_CHECK(a.bf16Underflow == b.bf16Underflow);
    FUZZ_CHECK(a.nanIndices == b.nanIndices);
    FUZZ_CHECK(a.infIndices == b.infIndices);
    FUZZ_CHECK(equal(a.min, b.min) && equal(a.max, b.max) && equal(a.absmax, b.absmax));
    FUZZ_CHECK(a.absmaxIndex == b.absmaxIndex);
    FUZZ_CHECK(equal(a.minAbsNonzero, b.minAbsNonzero));
}

// Everything, to the bit: what two scans of one model with different thread counts must give.
void checkIdentical(const ts::ValueStats& a, const ts::ValueStats& b)
{
    checkSameCounts(a, b);
    FUZZ_CHECK(same(a.mean, b.mean));
    FUZZ_CHECK(same(a.m2, b.m2));
    FUZZ_CHECK(same(a.std, b.std));
    FUZZ_CHECK(same(a.l2, b.l2));
}

void checkIdentical(const ts::TensorStats& a, const ts::TensorStats& b)
{
    FUZZ_CHECK(a.name == b.name && a.dtype == b.dtype && a.elements == b.elements);
    checkIdentical(a.values, b.values);
    FUZZ_CHECK(a.real.has_value() == b.real.has_value() && a.imag.has_value() == b.imag.has_value());
    if (a.real) {
        checkIdentical(*a.real, *b.real);
        checkIdentical(*a.imag, *b.imag);
    }
    FUZZ_CHECK(a.nonBinaryBool == b.nonBinaryBool && a.firstNonBinaryBool == b.firstNonBinaryBool);
}

void checkIdentical(const ts::Histogram& a, const ts::Histogram& b)
{
    FUZZ_CHECK(same(a.lo, b.lo) && same(a.hi, b.hi) && same(a.logLo, b.logLo) && same(a.logHi, b.logHi));
    FUZZ_CHECK(a.counts == b.counts && a.logCounts == b.logCounts && a.zeros == b.zeros);
}

// What a finalized ValueStats must satisfy on its own.
void checkInvariants(const ts::ValueStats& s)
{
    FUZZ_CHECK(s.nan + s.posinf + s.neginf + s.finite == s.count);
    FUZZ_CHECK(s.zeros <= s.finite && s.subnormals <= s.finite - s.zeros);
    FUZZ_CHECK(s.nanIndices.size() == std::min<std::uint64_t>(s.nan, ts::kRecordedIndices));
    FUZZ_CHECK(s.infIndices.size() == std::min<std::uint64_t>(s.posinf + s.neginf, ts::kRecordedIndices));
    FUZZ_CHECK(std::is_sorted(s.nanIndices.begin(), s.nanIndices.end()));
    FUZZ_CHECK(std::is_sorted(s.infIndices.begin(), s.infIndices.end()));
    for (std::uint64_t i : s.nanIndices)
        FUZZ_CHECK(i < s.count);
    for (std::uint64_t i : s.infIndices)
        FUZZ_CHECK(i < s.count);
    if (s.finite == 0) {
        FUZZ_CHECK(std::isnan(s.min) && std::isnan(s.max) && std::isnan(s.mean) && !s.absmaxIndex);
        return;
    }
    FUZZ_CHECK(std::isfinite(s.min) && std::isfinite(s.max) && s.min <= s.max);
    FUZZ_CHECK(s.absmax == std::max(-s.min, s.max));
    FUZZ_CHECK(s.absmaxIndex && *s.absmaxIndex < s.count);
    FUZZ_CHECK(std::isnan(s.minAbsNonzero) == (s.zeros == s.finite));
    if (!std::isnan(s.minAbsNonzero))
        FUZZ_CHECK(s.minAbsNonzero > 0 && s.minAbsNonzero <= s.absmax);
    FUZZ_CHECK(s.std >= 0 || std::isnan(s.std));
    // The mean lies within the values, and the spread within half the range, whenever the sums
    // involved cannot overflow (F64 and the 64-bit integers reach 1e308 and 1e19).
    if (s.absmax < 1e100) {
        const double slack = 1e-9 * s.absmax;
        FUZZ_CHECK(s.mean >= s.min - slack && s.mean <= s.max + slack);
        FUZZ_CHECK(s.std <= (s.max - s.min) / 2 * (1 + 1e-9) + slack);
    }
}

void checkHistogram(const ts::Histogram& h, const ts::ValueStats& s, int bins, bool withLog)
{
    if (s.finite == 0) {
        FUZZ_CHECK(h.counts.empty() && h.logCounts.empty() && h.total() == 0 && h.zeros == 0);
        return;
    }
    FUZZ_CHECK(h.counts.size() == static_cast<std::size_t>(bins));
    std::uint64_t linear = 0;
    for (std::uint64_t c : h.counts)
        linear += c;
    FUZZ_CHECK(linear == s.finite); // every finite value lands in exactly one bin
    FUZZ_CHECK(h.zeros == s.zeros);
    FUZZ_CHECK(h.lo < h.hi);                         // charts divide by the width
    if (s.min == s.max && std::fabs(s.min) < 0x1p52) // numpy widens a constant by half a unit
        FUZZ_CHECK(h.lo == s.min - 0.5 && h.hi == s.max + 0.5);
    else if (s.min == s.max) // where half a unit is lost to rounding, by a little more
        FUZZ_CHECK(h.lo <= s.min && h.hi >= s.max);
    else
        FUZZ_CHECK(h.lo == s.min && h.hi == s.max);
    FUZZ_CHECK(h.logCounts.empty() == (!withLog || s.zeros == s.finite));
    if (!h.logCounts.empty()) {
        FUZZ_CHECK(h.logCounts.size() == static_cast<std::size_t>(bins));
        std::uint64_t logs = 0;
        for (std::uint64_t c : h.logCounts)
            logs += c;
        FUZZ_CHECK(logs == s.finite - s.zeros);
        FUZZ_CHECK(h.logLo <= h.logHi);
    }
}

// The findings say what the counts say, and nothing the counts contradict.
void checkFindings(const std::vector<ts::Diagnostic>& findings, const ts::TensorStats& t)
{
    auto has = [&](const char* code) {
        return std::any_of(findings.begin(), findings.end(), [&](const ts::Diagnostic& d) {
            return d.tensor == t.name && d.code == QLatin1String(code);
        });
    };
    const ts::ValueStats& v = t.values;
    FUZZ_CHECK(has("NanValues") == (v.nan > 0));
    FUZZ_CHECK(has("InfValues") == (v.posinf + v.neginf > 0));
    FUZZ_CHECK(has("AllZero") == (t.elements > 0 && v.zeros == t.elements));
    FUZZ_CHECK(has("NonBinaryBool") == (t.nonBinaryBool > 0));
    FUZZ_CHECK(has("F16Overflow") == (v.f16Overflow > 0 && t.dtype != ts::Dtype::F16));
    FUZZ_CHECK(!has("Constant") || (v.finite == t.elements && v.min == v.max));
}

// A plain sequential reference: one value at a time, no SIMD, no blocks, no code counting.
struct Reference {
    ts::ValueStats stats = ts::ValueStats::empty();
    long double sum = 0;
    long double sumSquares = 0; // of deviations from the mean, second pass
    std::uint64_t nonBinaryBool = 0;
    std::optional<std::uint64_t> firstNonBinaryBool;
};

void referenceAdd(Reference& r, double x, std::uint64_t index, double minNormal)
{
    ts::ValueStats& s = r.stats;
    ++s.count;
    if (std::isnan(x)) {
        ++s.nan;
        if (s.nanIndices.size() < ts::kRecordedIndices)
            s.nanIndices.push_back(index);
        return;
    }
    if (std::isinf(x)) {
        ++(x > 0 ? s.posinf : s.neginf);
        if (s.infIndices.size() < ts::kRecordedIndices)
            s.infIndices.push_back(index);
        return;
    }
    ++s.finite;
    const double a = std::fabs(x);
    s.zeros += a == 0;
    s.subnormals += a != 0 && a < minNormal;
    s.f16Overflow += a > 65504.0;
    s.f16Underflow += a != 0 && a <= 0x1p-25;
    s.bf16Underflow += a != 0 && a <= 0x1p-134;
    s.min = std::min(s.min, x);
    s.max = std::max(s.max, x);
    if (a > s.absmax) { // strictly: the first element of largest magnitude keeps the index
        s.absmax = a;
        s.absmaxIndex = index;
    }
    if (a != 0)
        s.minAbsNonzero = std::min(s.minAbsNonzero, a);
    r.sum += x;
}

void referenceFinish(Reference& r, const std::vector<double>& values)
{
    ts::ValueStats& s = r.stats;
    if (s.finite == 0) {
        s.finalize();
        return;
    }
    const long double mean = r.sum / static_cast<long double>(s.finite);
    for (double x : values) {
        if (std::isfinite(x))
            r.sumSquares += (x - mean) * (x - mean);
    }
    s.mean = static_cast<double>(mean);
    s.m2 = static_cast<double>(r.sumSquares);
    s.finalize();
}

Reference reference(const std::vector<double>& values, double minNormal)
{
    Reference r;
    for (std::size_t i = 0; i < values.size(); ++i)
        referenceAdd(r, values[i], i, minNormal);
    referenceFinish(r, values);
    return r;
}

void checkAgainstReference(const ts::ValueStats& s, const Reference& r)
{
    checkSameCounts(s, r.stats);
    // Mean and spread are sums in a different order: close, not equal. Only where the sums cannot
    // overflow or underflow in double.
    if (s.finite > 0 && s.absmax < 1e100 && s.absmax > 1e-100) {
        const double tolerance = 1e-7 * s.absmax;
        FUZZ_CHECK(std::fabs(s.mean - r.stats.mean) <= tolerance);
        FUZZ_CHECK(std::fabs(s.std - r.stats.std) <= 1e-6 * s.absmax);
    }
}

// Per-element values as the views and the reference see them: the element (C64: the real part),
// and for C64 the imaginary part and the magnitude the statistics use.
struct Decoded {
    std::vector<double> values; // what ts::decode::element gives
    std::vector<double> imag;
    std::vector<double> magnitude;
};

Decoded decodeAll(ts::Dtype dtype, const QByteArray& bytes, std::uint64_t n)
{
    Decoded d;
    const auto span = std::as_bytes(std::span(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    d.values.resize(n);
    for (std::uint64_t i = 0; i < n; ++i)
        d.values[i] = ts::decode::element(dtype, span, i);
    if (dtype == ts::Dtype::C64) {
        d.imag.resize(n);
        d.magnitude.resize(n);
        for (std::uint64_t i = 0; i < n; ++i) {
            float im;
            std::memcpy(&im, bytes.constData() + 8 * i + 4, 4);
            d.imag[i] = im;
            const double re = d.values[i];
            d.magnitude[i] = std::isnan(re) || std::isnan(d.imag[i])
                                 ? std::numeric_limits<double>::quiet_NaN()
                                 : std::hypot(re, d.imag[i]);
        }
    }
    return d;
}

// numpy's quantile(method="inverted_cdf") of the finite values, by sorting them.
std::optional<ts::Quantiles> referenceQuantiles(const std::vector<double>& values)
{
    std::vector<double> finite;
    for (double x : values) {
        if (std::isfinite(x))
            finite.push_back(x);
    }
    if (finite.empty())
        return std::nullopt;
    std::sort(finite.begin(), finite.end());
    ts::Quantiles q;
    for (std::size_t l = 0; l < q.values.size(); ++l)
        q.values[l] = finite[ts::Quantiles::rank(finite.size(), ts::Quantiles::kLevels[l])];
    return q;
}

// One tensor of the model against the reference decode, then the same tensor through
// TensorAnalyzer in ranges and through the views.
void checkTensor(const ts::Checkpoint& model, int index, const QByteArray& bytes,
                 const ts::TensorStats& scanned, const std::optional<ts::Histogram>& histogram, int bins,
                 bool withLog, const std::uint8_t* control)
{
    const ts::TensorInfo& info = model.tensors()[static_cast<std::size_t>(index)].info;
    const ts::TensorLocation location = model.location(index);
    const ts::Dtype dtype = info.dtype;
    const std::uint64_t n = info.elementCount();
    const bool complex = dtype == ts::Dtype::C64;
    FUZZ_CHECK(location.length == ts::TensorBlockReader::bytesFor(dtype, n));
    FUZZ_CHECK(static_cast<std::uint64_t>(bytes.size()) == location.length);

    // 1. The scan against the reference.
    const Decoded d = decodeAll(dtype, bytes, n);
    if (complex) {
        checkAgainstReference(scanned.values, reference(d.magnitude, 0.0));
        checkAgainstReference(*scanned.real, reference(d.values, ts::decode::minNormal(ts::Dtype::F32)));
        checkAgainstReference(*scanned.imag, reference(d.imag, ts::decode::minNormal(ts::Dtype::F32)));
    } else {
        FUZZ_CHECK(!scanned.real && !scanned.imag);
        checkAgainstReference(scanned.values, reference(d.values, ts::decode::minNormal(dtype)));
    }
    FUZZ_CHECK(scanned.values.quantiles == referenceQuantiles(complex ? d.magnitude : d.values));
    if (dtype == ts::Dtype::BOOL) {
        std::uint64_t nonBinary = 0;
        std::optional<std::uint64_t> first;
        for (std::uint64_t i = 0; i < n; ++i) {
            if (static_cast<std::uint8_t>(bytes[static_cast<qsizetype>(i)]) > 1) {
                ++nonBinary;
                if (!first)
                    first = i;
            }
        }
        FUZZ_CHECK(scanned.nonBinaryBool == nonBinary && scanned.firstNonBinaryBool == first);
    } else {
        FUZZ_CHECK(scanned.nonBinaryBool == 0 && !scanned.firstNonBinaryBool);
    }

    // 2. TensorAnalyzer over the whole tensor: the scanner handed it one segment, so everything
    //    is identical; the histogram too when the scan made the log one.
    ts::TensorAnalyzer analyzer(location, info);
    ts::Result<ts::TensorStats> whole = analyzer.stats();
    FUZZ_CHECK(whole.ok());
    checkIdentical(*whole, scanned);
    if (histogram && withLog) {
        ts::Result<ts::Histogram> h = analyzer.histogram(*whole, bins);
        FUZZ_CHECK(h.ok());
        checkIdentical(*h, *histogram);
    }
    // analyze(): the histogram and quantiles in the fewest passes, the same numbers.
    ts::Result<ts::TensorAnalyzer::Analysis> analysis = analyzer.analyze(bins, withLog, true);
    FUZZ_CHECK(analysis.ok() && analysis->histogram.has_value());
    checkIdentical(analysis->stats, *whole);
    FUZZ_CHECK(analysis->stats.values.quantiles == scanned.values.quantiles);
    if (histogram && withLog)
        checkIdentical(*analysis->histogram, *histogram);

    // 3. Ranges of a multiple of 8 elements (what statsOfRange allows), merged in order: the
    //    counts and extremes are exact, mean and spread close. The histogram ranges sum exactly.
    const std::uint64_t step = std::max<std::uint64_t>(8u * (1u + control[4] % 64u), (n / 64 + 7) / 8 * 8);
    std::optional<ts::TensorStats> merged;
    ts::HistogramBuilder rangeHist(whole->values, bins, withLog);
    for (std::uint64_t first = 0; first < n; first += step) {
        const std::uint64_t count = std::min(step, n - first);
        ts::Result<ts::TensorStats> part = analyzer.statsOfRange(first, count, {});
        FUZZ_CHECK(part.ok());
        if (!merged)
            merged = std::move(*part);
        else
            merged->mergeFollowing(*part);
        FUZZ_CHECK(analyzer.histogramOfRange(first, count, rangeHist, {}).ok());
    }
    if (merged) {
        merged->finalize();
        FUZZ_CHECK(merged->elements == n);
        checkSameCounts(merged->values, whole->values);
        if (complex) {
            checkSameCounts(*merged->real, *whole->real);
            checkSameCounts(*merged->imag, *whole->imag);
        }
        FUZZ_CHECK(merged->nonBinaryBool == whole->nonBinaryBool &&
                   merged->firstNonBinaryBool == whole->firstNonBinaryBool);
        if (whole->values.finite > 0 && whole->values.absmax < 1e100 && whole->values.absmax > 1e-100) {
            FUZZ_CHECK(std::fabs(merged->values.mean - whole->values.mean) <= 1e-9 * whole->values.absmax);
            FUZZ_CHECK(std::fabs(merged->values.std - whole->values.std) <= 1e-6 * whole->values.absmax);
        }
        if (histogram)
            checkHistogram(rangeHist.histogram(), whole->values, bins, withLog);
        if (histogram)
            checkIdentical(rangeHist.histogram(), *histogram);
    }

    // 4. ElementReader: a window starting anywhere (sub-byte dtypes realign internally).
    const ts::ElementReader reader(location, info);
    if (n > 0) {
        const std::uint64_t first = (static_cast<std::uint64_t>(control[4]) * 131u) % n;
        const std::uint64_t count = std::min<std::uint64_t>(n - first, 1u + control[5] * 7u);
        ts::Result<std::vector<double>> window = reader.read(first, count);
        FUZZ_CHECK(window.ok() && window->size() == count);
        for (std::uint64_t i = 0; i < count; ++i)
            FUZZ_CHECK(same((*window)[i], d.values[first + i]));
    }
    FUZZ_CHECK(!reader.read(n, 1).ok()); // one past the end is refused, not read

    // The views show the element (C64: its real part): their non-finite counts and extremes are
    // those of the reference values.
    const Reference plain = reference(d.values, 0.0);
    const std::uint64_t nonFinite = plain.stats.nan + plain.stats.posinf + plain.stats.neginf;

    // 5. Envelope over the whole tensor.
    const int buckets = 1 + control[4] % 97;
    ts::Result<ts::Envelope> env = ts::buildEnvelope(location, info, buckets);
    FUZZ_CHECK(env.ok());
    FUZZ_CHECK(env->elements == n && env->nonFinite == nonFinite);
    FUZZ_CHECK(env->min.size() == std::min<std::uint64_t>(n, static_cast<std::uint64_t>(buckets)));
    double envMin = std::numeric_limits<double>::infinity();
    double envMax = -envMin;
    for (std::size_t k = 0; k < env->min.size(); ++k) {
        FUZZ_CHECK(std::isnan(env->min[k]) == std::isnan(env->max[k]));
        if (!std::isnan(env->min[k])) {
            FUZZ_CHECK(env->min[k] <= env->max[k]);
            envMin = std::min(envMin, env->min[k]);
            envMax = std::max(envMax, env->max[k]);
        }
    }
    if (plain.stats.finite > 0)
        FUZZ_CHECK(envMin == plain.stats.min && envMax == plain.stats.max);
    else
        FUZZ_CHECK(std::isinf(envMin) && std::isinf(envMax));

    // 6. Heatmap of a plane chosen by the input (axes out of range are clamped by design).
    ts::PlaneSpec spec;
    spec.rowAxis = control[5] & 3;
    spec.colAxis = (control[5] >> 2) & 3;
    for (std::size_t a = 0; a < info.shape.size(); ++a)
        spec.fixed.push_back(static_cast<std::uint64_t>(control[4] >> a));
    const int maxCells = 1 + ((control[5] >> 4) & 7) * 37;
    const ts::Pooling pooling = (control[5] & 0x80) ? ts::Pooling::Mean : ts::Pooling::MaxAbs;
    ts::Result<ts::HeatmapGrid> grid = ts::buildHeatmap(location, info, spec, pooling, maxCells);
    FUZZ_CHECK(grid.ok());
    const ts::TensorPlane plane = ts::makePlane(info.shape, spec);
    FUZZ_CHECK(grid->srcRows == plane.rows && grid->srcCols == plane.cols);
    FUZZ_CHECK(grid->rows == static_cast<int>(std::min<std::uint64_t>(plane.rows, maxCells)));
    FUZZ_CHECK(grid->cols == static_cast<int>(std::min<std::uint64_t>(plane.cols, maxCells)));
    std::uint64_t planeNonFinite = 0;
    double planeAbsmax = 0;
    for (std::uint64_t r = 0; r < plane.rows; ++r) {
        for (std::uint64_t c = 0; c < plane.cols; ++c) {
            const std::uint64_t flat = plane.flat(r, c);
            FUZZ_CHECK(flat < n);
            const double v = d.values[flat];
            if (!std::isfinite(v))
                ++planeNonFinite;
            else
                planeAbsmax = std::max(planeAbsmax, std::fabs(v));
        }
    }
    FUZZ_CHECK(grid->nonFinite == planeNonFinite);
    if (pooling == ts::Pooling::MaxAbs)
        FUZZ_CHECK(grid->absmax == planeAbsmax);
    else
        FUZZ_CHECK(grid->absmax <= planeAbsmax);
}

// The tiled tensor is too big for the per-element reference on every input; it is checked
// against TensorAnalyzer's single sequential pass, which the scanner's chunks must reproduce.
void checkBigTensor(const ts::Checkpoint& model, int index, const ts::TensorStats& scanned,
                    const std::optional<ts::Histogram>& histogram, int bins, bool withLog)
{
    const ts::TensorInfo& info = model.tensors()[static_cast<std::size_t>(index)].info;
    ts::TensorAnalyzer analyzer(model.location(index), info);
    ts::Result<ts::TensorStats> whole = analyzer.stats();
    FUZZ_CHECK(whole.ok());
    checkSameCounts(scanned.values, whole->values);
    if (scanned.real) {
        checkSameCounts(*scanned.real, *whole->real);
        checkSameCounts(*scanned.imag, *whole->imag);
    }
    FUZZ_CHECK(scanned.nonBinaryBool == whole->nonBinaryBool &&
               scanned.firstNonBinaryBool == whole->firstNonBinaryBool);
    if (histogram && withLog) {
        ts::Result<ts::Histogram> h = analyzer.histogram(scanned, bins);
        FUZZ_CHECK(h.ok());
        checkIdentical(*h, *histogram);
    }
    // The scan joined its chunks' code counts (or narrowed its quantile search chunk by chunk).
    ts::Result<ts::TensorAnalyzer::Analysis> analysis = analyzer.analyze(0, false, true);
    FUZZ_CHECK(analysis.ok() && analysis->stats.values.quantiles == scanned.values.quantiles);
}

ts::ScanResult scan(const std::shared_ptr<const ts::Checkpoint>& model, const ts::ScanOptions& options)
{
    ts::ModelScanner scanner(model, options);
    std::vector<ts::ScanProgress> reports;
    scanner.setProgressCallback([&](const ts::ScanProgress& p) { reports.push_back(p); }, 1);
    ts::Result<ts::ScanResult> result = scanner.run();
    if (!result)
        std::fprintf(stderr, "%s\n", qPrintable(result.error().toString()));
    FUZZ_CHECK(result.ok());
    // Every pass counts: dtypes wider than 16 bits are read again for histograms and quantiles.
    FUZZ_CHECK(!reports.empty()); // run() always reports once at the end
    const std::uint64_t total = reports.back().bytesTotal;
    FUZZ_CHECK(total >= result->bytes);
    for (const ts::ScanProgress& p : reports)
        FUZZ_CHECK(p.bytesTotal == total && p.bytesDone <= total);
    FUZZ_CHECK(reports.back().bytesDone == total);
    return std::move(*result);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < kControl)
        return 0;
    const auto dtype = static_cast<ts::Dtype>(data[0] % ts::kDtypeCount);
    const int bins = 1 + (data[1] | data[2] << 8) % 1024;
    const bool withLog = data[3] & 1;
    const int threads = 1 + (data[3] >> 1 & 3) % 3;
    const bool big = (data[3] & 0x08) && (data[2] & 0x0c) == 0x0c; // one input in eight: it is slow
    const int rank = (data[3] >> 4) & 3;
    const bool second = data[3] & 0x40;
    const bool empty = data[3] & 0x80;

    const std::uint8_t* payload = data + kControl;
    const std::size_t payloadSize = size - kControl;
    const std::uint64_t n = ts::fuzz::elementsFitting(dtype, payloadSize, kMaxElements);
    const auto mainBytes = QByteArray(reinterpret_cast<const char*>(payload),
                                      static_cast<qsizetype>(ts::TensorBlockReader::bytesFor(dtype, n)));

    std::vector<ts::WriterTensor> tensors;
    QHash<QString, QByteArray> bytesOf;
    auto add = [&](const QString& name, std::vector<std::uint64_t> shape, const QByteArray& bytes) {
        tensors.push_back(ts::fuzz::memoryTensor(name, dtype, std::move(shape), bytes));
        bytesOf.insert(name, bytes);
    };
    add(QStringLiteral("main"), ts::fuzz::shapeFor(n, rank, data[4]), mainBytes);
    if (second) {
        // The main tensor's tail as a 1-D tensor: a second segment in the scanner's batch. The cut
        // is on a multiple of 8 elements, so sub-byte elements stay whole.
        const std::uint64_t skip = std::min<std::uint64_t>(n, data[4]) / 8 * 8;
        add(QStringLiteral("second"), {n - skip},
            mainBytes.mid(static_cast<qsizetype>(ts::TensorBlockReader::bytesFor(dtype, skip))));
    }
    if (empty)
        add(QStringLiteral("empty"), {0, 1u + data[4] % 5u}, QByteArray());
    if (big && !mainBytes.isEmpty()) {
        // Past 1 MiB, so the scanner cuts it into chunks and several threads share it.
        const qsizetype target = (1 << 20) + 4096 + mainBytes.size();
        QByteArray tiled;
        tiled.reserve(target);
        while (tiled.size() < target)
            tiled += mainBytes;
        const std::uint64_t m =
            ts::fuzz::elementsFitting(dtype, static_cast<std::uint64_t>(tiled.size()), ~0ull);
        tiled.truncate(static_cast<qsizetype>(ts::TensorBlockReader::bytesFor(dtype, m)));
        add(QStringLiteral("tiled"), {m}, tiled);
    }
    const std::shared_ptr<const ts::Checkpoint> model = ts::fuzz::modelInMemory(tensors);

    ts::ScanOptions sequential;
    sequential.threads = 1;
    sequential.histogramBins = bins;
    sequential.logHistogram = withLog;
    sequential.chunkBytes = 1; // as small as the scanner allows
    sequential.quantiles = true;
    const ts::ScanResult a = scan(model, sequential);

    ts::ScanOptions parallel = sequential;
    parallel.threads = threads;
    for (int i = static_cast<int>(model->tensors().size()); i-- > 0;)
        parallel.tensors.push_back(i);
    const ts::ScanResult b = scan(model, parallel);

    // The NaN/Inf-only check (raw-pattern test, no decoding) must count exactly what the full
    // scan counted, record the same indices and raise the same NaN/Inf findings.
    ts::ScanOptions nanInf;
    nanInf.threads = threads;
    nanInf.nanInfOnly = true;
    const ts::ScanResult q = scan(model, nanInf);
    FUZZ_CHECK(q.tensors.size() == a.tensors.size());
    for (std::size_t i = 0; i < q.tensors.size(); ++i) {
        const ts::ValueStats& full = a.tensors[i].values;
        const ts::ValueStats& quick = q.tensors[i].values;
        FUZZ_CHECK(q.tensors[i].nanInfOnly && quick.count == full.count && quick.finite == full.finite);
        FUZZ_CHECK(quick.nan == full.nan && quick.posinf == full.posinf && quick.neginf == full.neginf);
        FUZZ_CHECK(quick.nanIndices == full.nanIndices && quick.infIndices == full.infIndices);
    }
    std::size_t nanInfFindings = 0;
    for (const ts::Diagnostic& d : a.findings) {
        if (d.code != QLatin1String("NanValues") && d.code != QLatin1String("InfValues"))
            continue;
        FUZZ_CHECK(nanInfFindings < q.findings.size());
        const ts::Diagnostic& e = q.findings[nanInfFindings++];
        FUZZ_CHECK(e.code == d.code && e.tensor == d.tensor && e.message == d.message &&
                   e.offset == d.offset);
    }
    FUZZ_CHECK(nanInfFindings == q.findings.size());

    const std::size_t count = model->tensors().size();
    FUZZ_CHECK(a.tensors.size() == count && b.tensors.size() == count);
    FUZZ_CHECK(a.histograms.size() == count && b.histograms.size() == count);
    FUZZ_CHECK(a.bytes == b.bytes);
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t j = count - 1 - i; // b scanned the tensors in reverse
        checkIdentical(a.tensors[i], b.tensors[j]);
        FUZZ_CHECK(a.tensors[i].values.quantiles == b.tensors[j].values.quantiles);
        FUZZ_CHECK(a.histograms[i].has_value() && b.histograms[j].has_value());
        checkIdentical(*a.histograms[i], *b.histograms[j]);

        const ts::TensorStats& t = a.tensors[i];
        const ts::TensorInfo& info = model->tensors()[i].info;
        FUZZ_CHECK(t.name == info.name && t.dtype == dtype && t.elements == info.elementCount());
        checkInvariants(t.values);
        if (t.real) {
            checkInvariants(*t.real);
            checkInvariants(*t.imag);
            FUZZ_CHECK(t.real->count == t.elements && t.imag->count == t.elements);
        }
        FUZZ_CHECK(t.values.count == t.elements);
        checkHistogram(*a.histograms[i], t.values, bins, withLog);
        checkFindings(a.findings, t);

        if (t.name == QLatin1String("tiled"))
            checkBigTensor(*model, static_cast<int>(i), t, a.histograms[i], bins, withLog);
        else
            checkTensor(*model, static_cast<int>(i), bytesOf.value(t.name), t, a.histograms[i], bins, withLog,
                        data);
    }
    return 0;
}
