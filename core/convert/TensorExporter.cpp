#include "convert/TensorExporter.h"

#include "codec/DtypeDecoder.h"
#include "convert/DtypeConverter.h"
#include "write/AtomicFile.h"
#include "write/InputFiles.h"

#include <QFileInfo>

#include <charconv>
#include <cmath>
#include <cstring>
#include <vector>

namespace ts {
namespace {

constexpr std::uint64_t kChunkElements = 1u << 20;

Result<void> writeBytes(AtomicFile& out, const QByteArray& bytes)
{
    return out.write(std::as_bytes(std::span(bytes.constData(), static_cast<std::size_t>(bytes.size()))));
}

template <typename T> T load(const std::byte* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

template <typename T> void appendNumber(QByteArray& line, T value)
{
    char buffer[64];
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, value);
    line.append(buffer, static_cast<qsizetype>(r.ptr - buffer));
}

// Floats in their shortest round-trip spelling, as numpy prints them; NaN and Inf as numpy's
// loadtxt reads them.
void appendFloat(QByteArray& line, double v, bool asFloat)
{
    if (std::isnan(v))
        line.append("nan");
    else if (std::isinf(v))
        line.append(v < 0 ? "-inf" : "inf");
    else if (asFloat)
        appendNumber(line, static_cast<float>(v));
    else
        appendNumber(line, v);
}

void appendValue(QByteArray& line, Dtype dtype, const std::byte* p)
{
    switch (dtype) {
    case Dtype::BOOL:
        line.append(*p != std::byte{0} ? '1' : '0');
        break;
    case Dtype::U8:
        appendNumber(line, load<std::uint8_t>(p));
        break;
    case Dtype::I8:
        appendNumber(line, load<std::int8_t>(p));
        break;
    case Dtype::U16:
        appendNumber(line, load<std::uint16_t>(p));
        break;
    case Dtype::I16:
        appendNumber(line, load<std::int16_t>(p));
        break;
    case Dtype::U32:
        appendNumber(line, load<std::uint32_t>(p));
        break;
    case Dtype::I32:
        appendNumber(line, load<std::int32_t>(p));
        break;
    case Dtype::U64:
        appendNumber(line, load<std::uint64_t>(p));
        break;
    case Dtype::I64:
        appendNumber(line, load<std::int64_t>(p));
        break;
    case Dtype::F64:
        appendFloat(line, load<double>(p), false);
        break;
    default: // F32 and narrower floats: exact in float, written in float's shortest spelling
        appendFloat(line,
                    decode::element(dtype, std::span(p, static_cast<std::size_t>(dtypeBits(dtype) / 8)), 0),
                    true);
        break;
    }
}

bool csvSupports(Dtype d)
{
    const DtypeKind kind = dtypeKind(d);
    return kind == DtypeKind::Bool || kind == DtypeKind::SignedInt || kind == DtypeKind::UnsignedInt ||
           DtypeConverter::supports(d);
}

Error notSupported(const TensorInfo& t, const QString& path, const QString& what)
{
    return makeError(ErrorCode::InvalidArgument, path,
                     QStringLiteral("cannot export tensor \"%1\" (%2) %3: not supported yet")
                         .arg(t.name, dtypeName(t.dtype), what),
                     t.name);
}

} // namespace

std::optional<TensorExporter::Format> TensorExporter::formatForPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("npy"))
        return Format::Npy;
    if (suffix == QLatin1String("csv"))
        return Format::Csv;
    return std::nullopt;
}

QByteArray TensorExporter::npyDescr(Dtype dtype)
{
    switch (dtype) {
    case Dtype::BOOL:
        return "|b1";
    case Dtype::U8:
        return "|u1";
    case Dtype::I8:
        return "|i1";
    case Dtype::U16:
        return "<u2";
    case Dtype::I16:
        return "<i2";
    case Dtype::U32:
        return "<u4";
    case Dtype::I32:
        return "<i4";
    case Dtype::U64:
        return "<u8";
    case Dtype::I64:
        return "<i8";
    case Dtype::F16:
        return "<f2";
    case Dtype::F32:
        return "<f4";
    case Dtype::F64:
        return "<f8";
    case Dtype::C64:
        return "<c8";
    default:
        return {};
    }
}

QByteArray TensorExporter::npyHeader(const QByteArray& descr, const Shape& shape)
{
    QByteArray dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i)
            dict += ", ";
        dict += QByteArray::number(static_cast<qulonglong>(shape[i]));
    }
    dict += shape.size() == 1 ? ",), }" : "), }";
    // numpy pads with spaces and ends with '\n' so the data starts 64-byte aligned.
    const qsizetype total = (10 + dict.size() + 1 + 63) / 64 * 64;
    dict += QByteArray(total - 10 - dict.size() - 1, ' ');
    dict += '\n';
    QByteArray out("\x93NUMPY\x01\x00", 8);
    out += static_cast<char>(dict.size() & 0xff);
    out += static_cast<char>((dict.size() >> 8) & 0xff);
    return out + dict;
}

Result<TensorExporter::Outcome> TensorExporter::exportFromModel(const Checkpoint& model, int tensor,
                                                                const QString& path, Format format)
{
    // The atomic rename would leave the open model readable, but the file on disk would be gone.
    if (auto r = InputFiles::of(model).refuseOverwrite(
            path, QStringLiteral("export never writes over the model it reads, choose another output file"));
        !r)
        return r.error();
    return exportTensor(model.tensors()[static_cast<std::size_t>(tensor)].info, model.location(tensor), path,
                        format);
}

Result<TensorExporter::Outcome> TensorExporter::exportTensor(const TensorInfo& tensor,
                                                             const TensorLocation& data, const QString& path,
                                                             Format format)
{
    Outcome outcome;
    const std::uint64_t inSize = static_cast<std::uint64_t>(dtypeBits(tensor.dtype)) / 8;
    const bool widen = format == Format::Npy && npyDescr(tensor.dtype).isEmpty();
    if (dtypeBits(tensor.dtype) % 8 != 0 || (widen && !DtypeConverter::supports(tensor.dtype)))
        return notSupported(tensor, path, QStringLiteral("to .npy"));
    if (format == Format::Csv) {
        if (!csvSupports(tensor.dtype))
            return notSupported(tensor, path, QStringLiteral("to CSV"));
        if (tensor.shape.size() != 1 && tensor.shape.size() != 2) {
            return makeError(
                ErrorCode::InvalidArgument, path,
                QStringLiteral("tensor \"%1\" has shape %2; CSV export takes 1-D and 2-D tensors, use .npy")
                    .arg(tensor.name, tensor.shapeString()),
                tensor.name);
        }
    }
    if (widen)
        outcome.note =
            QStringLiteral("%1 has no NumPy dtype; exported as float32 (exact)").arg(dtypeName(tensor.dtype));

    AtomicFile out(path);
    if (auto r = out.open(); !r)
        return r.error();
    if (format == Format::Npy) {
        if (auto r =
                writeBytes(out, npyHeader(widen ? QByteArray("<f4") : npyDescr(tensor.dtype), tensor.shape));
            !r)
            return r.error();
    }
    const std::uint64_t elements = tensor.elementCount();
    const std::uint64_t columns = tensor.shape.size() == 2 ? tensor.shape[1] : 1;
    std::vector<std::byte> in;
    std::vector<std::byte> converted;
    for (std::uint64_t first = 0; first < elements; first += kChunkElements) {
        const std::uint64_t n = std::min(kChunkElements, elements - first);
        in.resize(static_cast<std::size_t>(n * inSize));
        if (auto r = data.source->read(data.offset + first * inSize, in); !r)
            return r.error();
        if (format == Format::Npy && !widen) {
            if (auto r = out.write(in); !r)
                return r.error();
        } else if (format == Format::Npy) {
            converted.resize(static_cast<std::size_t>(n * 4));
            ConversionCounts ignored;
            DtypeConverter::convert(tensor.dtype, Dtype::F32, in.data(), converted.data(),
                                    static_cast<std::size_t>(n), ignored);
            if (auto r = out.write(converted); !r)
                return r.error();
        } else {
            QByteArray text;
            for (std::uint64_t i = 0; i < n; ++i) {
                const std::uint64_t index = first + i;
                appendValue(text, tensor.dtype, in.data() + i * inSize);
                text.append((index + 1) % columns == 0 ? '\n' : ',');
            }
            if (auto r = writeBytes(out, text); !r)
                return r.error();
        }
    }
    if (format == Format::Csv && tensor.shape.size() == 2 && columns == 0) {
        // Rows of no columns are still rows: one empty line each.
        if (auto r = writeBytes(out, QByteArray(static_cast<qsizetype>(tensor.shape[0]), '\n')); !r)
            return r.error();
    }
    if (auto r = out.commit(); !r)
        return r.error();
    return outcome;
}

} // namespace ts
