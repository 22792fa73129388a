// libFuzzer target: the conversion engine (Converter, ConvertingSource, DtypeConverter,
// ConvertWriter) on arbitrary bytes. Input: 5 control bytes, then the tensor's raw bytes.
//   0      source dtype: F64, F32, F16, BF16, F8_E4M3 or F8_E5M2
//   1      bits 0-2 target dtype (same list, modulo 6), bits 4-5 rank, bit 6 a second tensor
//   2      the second tensor's own target (given with --dtype-for)
//   3, 4   an odd-sized read of the converted bytes, and the row choice of the shape
// The model is laid out by SafetensorsWriter's planner and serializer and opened from memory,
// planned, measured, written to a temporary file by ConvertWriter and re-opened from disk.
// Checked: the output validates, keeps every name and shape, has the planned dtypes; every output
// element is the input rounded to nearest-even (checked against the neighbouring codes, decoded here
// from their field widths, not by the decoders the converter uses), NaN stays NaN and every sign is
// kept; the measured NaN,
// overflow and underflow counts are the ones the elements show (Inf-capable targets: output Inf =
// input Inf + overflows); converting back to a wider source is exact; ConvertingSource gives the
// same bytes for a partial, misaligned read; every SIMD target the binary carries (the dispatcher
// forced to each in turn) gives the same bytes and counts.
#include "FuzzSupport.h"

#include "convert/ConvertWriter.h"
#include "convert/Converter.h"
#include "convert/ConvertingSource.h"
#include "convert/DtypeConverter.h"

#include <QByteArray>

#include <hwy/targets.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace {

constexpr std::size_t kControl = 5;
constexpr std::uint64_t kMaxElements = 64 * 1024;

struct Format {
    ts::Dtype dtype;
    int bytes;
    int expBits;
    int mantBits;
    bool hasInf; // F8_E4M3: no Inf, one NaN magnitude (all ones), saturates at 448

    std::uint64_t magMask() const { return (std::uint64_t{1} << (expBits + mantBits)) - 1; }
    std::uint64_t maxFiniteMag() const
    {
        return hasInf ? (((std::uint64_t{1} << expBits) - 1) << mantBits) - 1 : magMask() - 1;
    }
    bool contains(const Format& o) const { return expBits >= o.expBits && mantBits >= o.mantBits; }
};

constexpr Format kFormats[] = {
    {ts::Dtype::F64, 8, 11, 52, true},    {ts::Dtype::F32, 4, 8, 23, true},
    {ts::Dtype::F16, 2, 5, 10, true},     {ts::Dtype::BF16, 2, 8, 7, true},
    {ts::Dtype::F8_E4M3, 1, 4, 3, false}, {ts::Dtype::F8_E5M2, 1, 5, 2, true},
};

const Format& formatOf(ts::Dtype d)
{
    for (const Format& f : kFormats) {
        if (f.dtype == d)
            return f;
    }
    FUZZ_CHECK(false);
    return kFormats[0];
}

std::uint64_t codeAt(const Format& f, const char* bytes, std::uint64_t i)
{
    std::uint64_t v = 0;
    std::memcpy(&v, bytes + i * static_cast<std::uint64_t>(f.bytes), static_cast<std::size_t>(f.bytes));
    return v; // little-endian host, as DtypeConverter asserts
}

bool negative(const Format& f, std::uint64_t code)
{
    return (code >> (f.expBits + f.mantBits)) & 1;
}

// The value of a code from the format's field widths alone, independent of the decoders the
// converter reads its input with (codec/DtypeDecoder).
double valueOf(const Format& f, std::uint64_t code)
{
    if (f.dtype == ts::Dtype::F64)
        return std::bit_cast<double>(code);
    if (f.dtype == ts::Dtype::F32)
        return std::bit_cast<float>(static_cast<std::uint32_t>(code));
    const int bias = (1 << (f.expBits - 1)) - 1;
    const std::uint64_t expMask = (std::uint64_t{1} << f.expBits) - 1;
    const std::uint64_t mantMask = (std::uint64_t{1} << f.mantBits) - 1;
    const std::uint64_t e = (code >> f.mantBits) & expMask, m = code & mantMask;
    const double sign = negative(f, code) ? -1.0 : 1.0;
    if (e == expMask && (f.hasInf || m == mantMask))
        return f.hasInf && m == 0 ? sign * HUGE_VAL : std::nan("");
    const double mag =
        e == 0 ? std::ldexp(static_cast<double>(m), 1 - bias - f.mantBits)
               : std::ldexp(static_cast<double>(m | (mantMask + 1)), static_cast<int>(e) - bias - f.mantBits);
    return sign * mag;
}

struct Expected {
    ts::ConversionCounts counts; // counts.inf: the input's Inf values
    std::uint64_t outInf = 0;
};

// One element: `in` converted to `out` must be `in` rounded to nearest, ties to even.
void checkElement(const Format& from, std::uint64_t in, const Format& to, std::uint64_t out, Expected& e)
{
    const double x = valueOf(from, in);
    const double y = valueOf(to, out);
    e.counts.inf += std::isinf(x);
    e.outInf += std::isinf(y);
    if (std::isnan(x)) {
        FUZZ_CHECK(std::isnan(y) && negative(to, out) == negative(from, in));
        ++e.counts.nan;
        return;
    }
    FUZZ_CHECK(!std::isnan(y));
    FUZZ_CHECK(negative(to, out) == negative(from, in)); // signs kept, zeros included
    if (to.dtype == ts::Dtype::F64) {
        FUZZ_CHECK(y == x);
        return;
    }
    const std::uint64_t mag = out & to.magMask();
    const std::uint64_t maxMag = to.maxFiniteMag();
    if (std::isinf(x)) {
        if (to.hasInf) {
            FUZZ_CHECK(std::isinf(y));
        } else {
            FUZZ_CHECK(mag == maxMag);
            ++e.counts.overflowed;
        }
        return;
    }
    // Rounding with an unbounded exponent would go past the largest finite value: half an ulp
    // above it, the tie going to the even neighbour (Inf for IEEE formats; 448 for E4M3, whose
    // largest mantissa is even).
    const double a = std::fabs(x);
    const double maxValue = valueOf(to, maxMag);
    const double overflowAt = maxValue + (maxValue - valueOf(to, maxMag - 1)) / 2;
    if (a > overflowAt || (a == overflowAt && (maxMag & 1))) {
        ++e.counts.overflowed;
        if (to.hasInf)
            FUZZ_CHECK(std::isinf(y));
        else
            FUZZ_CHECK(mag == maxMag);
        return;
    }
    FUZZ_CHECK(std::isfinite(y) && mag <= maxMag);
    const double ay = std::fabs(y);
    const bool even = (mag & 1) == 0;
    // Midpoints between neighbouring codes of a format of at most 24 mantissa bits are exact in
    // double, so these comparisons are exact.
    if (mag > 0) {
        const double mid = (valueOf(to, mag - 1) + ay) / 2;
        FUZZ_CHECK(a > mid || (a == mid && even));
    }
    if (mag < maxMag) {
        const double mid = (ay + valueOf(to, mag + 1)) / 2;
        FUZZ_CHECK(a < mid || (a == mid && even));
    }
    if (y == 0 && x != 0)
        ++e.counts.underflowed;
}

QByteArray readAll(const ts::TensorLocation& at)
{
    QByteArray bytes(static_cast<qsizetype>(at.length), Qt::Uninitialized);
    FUZZ_CHECK(at.source->read(at.offset, std::as_writable_bytes(std::span(bytes.data(), at.length))).ok());
    return bytes;
}

void checkTensor(const ts::PlannedTensor& t, const ts::SafetensorsFile& written, const std::uint8_t* control)
{
    const int index = written.indexOf(t.name);
    FUZZ_CHECK(index >= 0);
    const ts::TensorInfo& info = written.tensors()[static_cast<std::size_t>(index)];
    FUZZ_CHECK(info.dtype == t.to && info.shape == t.shape && info.elementCount() == t.elements);
    const Format& from = formatOf(t.from);
    const Format& to = formatOf(t.to);
    FUZZ_CHECK(info.byteSize() == t.elements * static_cast<std::uint64_t>(to.bytes));
    const QByteArray in = readAll(t.input);
    const QByteArray out = readAll(written.location(info));

    if (!t.converts()) {
        FUZZ_CHECK(in == out && t.counts == ts::ConversionCounts{});
        return;
    }
    FUZZ_CHECK(t.measured);
    Expected e;
    for (std::uint64_t i = 0; i < t.elements; ++i) {
        const std::uint64_t code = codeAt(from, in.constData(), i);
        checkElement(from, code, to, codeAt(to, out.constData(), i), e);
    }
    FUZZ_CHECK(t.counts == e.counts);
    if (to.hasInf)
        FUZZ_CHECK(e.outInf == e.counts.inf + t.counts.overflowed);
    else
        FUZZ_CHECK(e.outInf == 0);

    // Back to the source dtype: exact when the source holds every value of the target.
    if (from.contains(to)) {
        QByteArray back(in.size(), Qt::Uninitialized);
        ts::ConversionCounts c;
        ts::DtypeConverter::convert(t.to, t.from, reinterpret_cast<const std::byte*>(out.constData()),
                                    reinterpret_cast<std::byte*>(back.data()),
                                    static_cast<std::size_t>(t.elements), c);
        FUZZ_CHECK(c.overflowed == 0 && c.underflowed == 0 && c.nan == t.counts.nan);
        for (std::uint64_t i = 0; i < t.elements; ++i) {
            const double y = valueOf(to, codeAt(to, out.constData(), i));
            const std::uint64_t code = codeAt(from, back.constData(), i);
            const double z = valueOf(from, code);
            FUZZ_CHECK(z == y || (std::isnan(z) && std::isnan(y)));
            FUZZ_CHECK(negative(from, code) == negative(to, codeAt(to, out.constData(), i)));
        }
    }

    // ConvertingSource: the whole tensor gives the written bytes and the measured counts; a
    // misaligned window gives the same bytes as the whole; a read past the end is refused.
    const ts::ConvertingSource source(t.input, t.from, t.to, t.elements, t.name, true);
    FUZZ_CHECK(source.size() == static_cast<std::uint64_t>(out.size()));
    QByteArray whole(out.size(), Qt::Uninitialized);
    FUZZ_CHECK(source.read(0, std::as_writable_bytes(std::span(whole.data(), whole.size()))).ok());
    FUZZ_CHECK(whole == out && source.counts() == t.counts);
    const std::uint64_t size = source.size();
    const std::uint64_t offset = (control[3] | std::uint64_t{control[4]} << 8) % (size + 1);
    const std::uint64_t length = std::min<std::uint64_t>(size - offset, 1u + control[3] % 61u);
    QByteArray window(static_cast<qsizetype>(length), Qt::Uninitialized);
    FUZZ_CHECK(source.read(offset, std::as_writable_bytes(std::span(window.data(), length))).ok());
    FUZZ_CHECK(window == out.mid(static_cast<qsizetype>(offset), static_cast<qsizetype>(length)));
    char one = 0;
    FUZZ_CHECK(!source.read(size, std::as_writable_bytes(std::span(&one, 1))).ok());

    // Every SIMD target the binary carries, the dispatcher forced to each: same bytes, same counts
    // (but Inf inputs, which ConvertingSource counts and the kernels do not).
    ts::ConversionCounts kernelCounts = t.counts;
    kernelCounts.inf = 0;
    for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
        QByteArray again(out.size(), Qt::Uninitialized);
        ts::ConversionCounts c;
        hwy::SetSupportedTargetsForTest(target);
        ts::DtypeConverter::convert(t.from, t.to, reinterpret_cast<const std::byte*>(in.constData()),
                                    reinterpret_cast<std::byte*>(again.data()),
                                    static_cast<std::size_t>(t.elements), c);
        hwy::SetSupportedTargetsForTest(0);
        FUZZ_CHECK(again == out && c == kernelCounts);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < kControl)
        return 0;
    const Format& from = kFormats[data[0] % 6];
    const Format& to = kFormats[(data[1] & 7) % 6];
    const int rank = (data[1] >> 4) & 3;
    const bool second = data[1] & 0x40;
    const Format& secondTo = kFormats[data[2] % 6];

    const std::uint64_t n = ts::fuzz::elementsFitting(from.dtype, size - kControl, kMaxElements);
    const QByteArray bytes(reinterpret_cast<const char*>(data + kControl),
                           static_cast<qsizetype>(n * static_cast<std::uint64_t>(from.bytes)));
    std::vector<ts::WriterTensor> tensors;
    tensors.push_back(ts::fuzz::memoryTensor(QStringLiteral("a.weight"), from.dtype,
                                             ts::fuzz::shapeFor(n, rank, data[4]), bytes));
    if (second) {
        const std::uint64_t m = n / 2;
        tensors.push_back(ts::fuzz::memoryTensor(QStringLiteral("b.bias"), from.dtype, {m},
                                                 bytes.left(static_cast<qsizetype>(m) * from.bytes)));
    }
    const std::shared_ptr<const ts::Checkpoint> model = ts::fuzz::modelInMemory(std::move(tensors));

    ts::ConvertOptions options;
    options.dtype = to.dtype;
    if (second)
        options.dtypeFor.emplace_back(QStringLiteral("b.*"), secondTo.dtype);
    options.setMetadata.emplace_back(QStringLiteral("converted_by"), QStringLiteral("fuzz_convert"));
    ts::Result<ts::ConvertPlan> plan = ts::Converter::plan({model}, options);
    FUZZ_CHECK(plan.ok());
    FUZZ_CHECK(plan->tensors.size() == (second ? 2u : 1u));
    for (const ts::PlannedTensor& t : plan->tensors) {
        FUZZ_CHECK(t.from == from.dtype);
        FUZZ_CHECK(t.to == (t.name == QLatin1String("b.bias") ? secondTo.dtype : to.dtype));
    }
    FUZZ_CHECK(ts::Converter::measure(*plan).ok());

    const QString out = ts::fuzz::tempOutputPath();
    ts::Result<QStringList> files = ts::ConvertWriter::write(*plan, out, options);
    if (!files)
        std::fprintf(stderr, "%s\n", qPrintable(files.error().toString()));
    FUZZ_CHECK(files.ok() && *files == QStringList{out});
    ts::Result<std::shared_ptr<const ts::SafetensorsFile>> written = ts::SafetensorsFile::open(out);
    if (!written)
        std::fprintf(stderr, "%s\n", qPrintable(written.error().toString()));
    FUZZ_CHECK(written.ok()); // the converted file validates
    const ts::SafetensorsFile& file = **written;
    FUZZ_CHECK(file.tensors().size() == plan->tensors.size());
    FUZZ_CHECK(file.header().metadata && file.header().metadata->value(QStringLiteral("converted_by")) ==
                                             QStringLiteral("fuzz_convert"));
    for (const ts::PlannedTensor& t : plan->tensors)
        checkTensor(t, file, data);
    return 0;
}
