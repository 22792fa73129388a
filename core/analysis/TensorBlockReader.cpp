#include "analysis/TensorBlockReader.h"

#include "analysis/ValueAccumulator.h"
#include "codec/DtypeDecoder.h"
#include "io/ReadScope.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace ts {
namespace {

template <typename T> void widen(const std::byte* bytes, std::size_t n, double* out)
{
    for (std::size_t i = 0; i < n; ++i) {
        T v;
        std::memcpy(&v, bytes + i * sizeof(T), sizeof(T));
        out[i] = static_cast<double>(v);
    }
}

} // namespace

TensorBlockReader::TensorBlockReader(TensorLocation location, Dtype dtype, QString tensorName)
    : m_location(std::move(location)), m_dtype(dtype), m_name(std::move(tensorName))
{
}

std::uint64_t TensorBlockReader::bytesFor(Dtype dtype, std::uint64_t elements)
{
    const auto bits = static_cast<std::uint64_t>(dtypeBits(dtype));
    // elements * bits cannot overflow for a validated tensor (its byte size fits in 64 bits).
    return (elements / 8) * bits + ((elements % 8) * bits + 7) / 8;
}

Error TensorBlockReader::readError(const QString& why, std::uint64_t offset, ErrorCode code) const
{
    const QString file = m_location.source ? m_location.source->displayName() : QString();
    return makeError(code, file, QStringLiteral("cannot read tensor \"%1\": %2").arg(m_name, why), m_name,
                     offset);
}

std::optional<Error> TensorBlockReader::cancelled(const JobControl& control) const
{
    if (!control.cancel.isCancelled())
        return std::nullopt;
    const QString file = m_location.source ? m_location.source->displayName() : QString();
    return makeError(ErrorCode::Cancelled, file, QStringLiteral("the scan was cancelled"), m_name);
}

Result<void> TensorBlockReader::checkUnread(std::uint64_t first, std::uint64_t count,
                                            const JobControl& control) const
{
    if (!m_location.source)
        return readError(QStringLiteral("no byte source"), 0);
    if (auto stop = cancelled(control))
        return *stop;
    const ReadScope scope(control.cancel); // a source that waits for a network stops waiting on cancel
    const std::uint64_t offset = m_location.offset + bytesFor(m_dtype, first);
    const std::uint64_t length = bytesFor(m_dtype, first + count) - bytesFor(m_dtype, first);
    if (const Result<void> intact = m_location.source->checkView(offset, length); !intact)
        return readError(intact.error().message, offset, intact.error().code);
    return {};
}

Result<void> TensorBlockReader::forEach(std::uint64_t first, std::uint64_t count, const JobControl& control,
                                        const std::function<void(const DecodedBlock&)>& fn)
{
    if (!m_location.source)
        return readError(QStringLiteral("no byte source"), 0);
    if (count == 0)
        return {};
    const ReadScope scope(control.cancel); // a source that waits for a network stops waiting on cancel
    const auto bits = static_cast<std::uint64_t>(dtypeBits(m_dtype));
    constexpr std::uint64_t block = ValueAccumulator::kBlock;
    // Whole blocks per read, so sub-byte elements never straddle two reads.
    const std::uint64_t pieceBytes =
        std::clamp<std::uint64_t>(m_location.source->pieceBytes(), 1, kReadBytes);
    const std::uint64_t perRead = std::max<std::uint64_t>(block, (pieceBytes * 8 / bits) / block * block);
    // Small tensors ask for small buffers (a scan of ten thousand biases must not fault in 4 MiB
    // each); reserved only when a piece cannot be used in place, and usually the thread's spare.
    const std::uint64_t bufferBytes = bytesFor(m_dtype, std::min(perRead, count + 8));
    const bool toFloat = decode::decodesToFloat(m_dtype);
    const auto blockLen = static_cast<std::size_t>(std::min(block, count));
    if (m_floats.size() < blockLen)
        m_floats.resize(blockLen);
    if (m_dtype == Dtype::C64 && m_imag.size() < blockLen)
        m_imag.resize(blockLen);
    if (!toFloat && m_doubles.size() < blockLen)
        m_doubles.resize(blockLen);

    // Mapped bytes are used in place only at offsets aligned for their element type.
    const std::uint64_t elementAlign = std::clamp<std::uint64_t>(bits / 8, 1, 8);
    const std::uint64_t firstByte = bytesFor(m_dtype, first);
    std::uint64_t done = 0;
    while (done < count) {
        if (auto stop = cancelled(control))
            return *stop;
        const std::uint64_t n = std::min(perRead, count - done);
        const std::uint64_t relByte = bytesFor(m_dtype, first + done) - firstByte;
        const std::uint64_t nBytes = bytesFor(m_dtype, first + done + n) - bytesFor(m_dtype, first + done);
        const std::uint64_t absOffset = m_location.offset + firstByte + relByte;
        // In place when the source lends the bytes and the elements are aligned in them (no
        // copy); else a read into the buffer.
        ByteSource::HeldBytes held;
        if (absOffset % elementAlign == 0)
            held = m_location.source->hold(absOffset, nBytes);
        const std::span<const std::byte> mapped = held.bytes;
        const std::byte* bytes = mapped.data();
        if (mapped.empty()) {
            std::byte* buffer = m_buffer.reserve(static_cast<std::size_t>(bufferBytes));
            const Result<void> read =
                m_location.source->read(absOffset, std::span<std::byte>(buffer, nBytes));
            if (!read)
                return readError(read.error().message, absOffset, read.error().code);
            bytes = buffer;
        }
        // Runs after the piece's blocks went to `fn`: a view that hit a shrunken file read zeros,
        // so the caller must learn of it before using anything computed from them.
        const auto finishPiece = [&]() -> Result<void> {
            if (!mapped.empty()) {
                const Result<void> intact = m_location.source->checkView(absOffset, nBytes);
                // A scan streams through once: drop the pages so a 100 GB scan stays small.
                m_location.source->release(absOffset, nBytes);
                if (!intact)
                    return readError(intact.error().message, absOffset, intact.error().code);
            }
            control.progress.add(nBytes);
            return {};
        };

        if (m_wholePieces || (!m_decode && decode::isCoded(m_dtype))) {
            // Code counting has a fixed cost per block (the count tables), and the NaN/Inf check
            // wants long vector runs: one block per read.
            DecodedBlock whole;
            whole.firstIndex = first + done;
            whole.count = static_cast<std::size_t>(n);
            whole.raw = reinterpret_cast<const std::uint8_t*>(bytes);
            fn(whole);
            if (auto r = finishPiece(); !r)
                return r;
            done += n;
            continue;
        }
        for (std::uint64_t b = 0; b < n; b += block) {
            const std::size_t k = static_cast<std::size_t>(std::min(block, n - b));
            const std::byte* src = bytes + bytesFor(m_dtype, b);
            DecodedBlock out;
            out.firstIndex = first + done + b;
            out.count = k;
            out.raw = reinterpret_cast<const std::uint8_t*>(src);
            switch (m_dtype) {
            case Dtype::F32: // 4-aligned: the buffer, or checked above
                out.values = DecodedBlock::Floats{reinterpret_cast<const float*>(src)};
                break;
            case Dtype::F64:
                widen<double>(src, k, m_doubles.data());
                out.values = DecodedBlock::Doubles{m_doubles.data()};
                break;
            case Dtype::I32:
                widen<std::int32_t>(src, k, m_doubles.data());
                out.values = DecodedBlock::Doubles{m_doubles.data()};
                break;
            case Dtype::U32:
                widen<std::uint32_t>(src, k, m_doubles.data());
                out.values = DecodedBlock::Doubles{m_doubles.data()};
                break;
            case Dtype::I64:
                widen<std::int64_t>(src, k, m_doubles.data());
                out.values = DecodedBlock::Doubles{m_doubles.data()};
                break;
            case Dtype::U64:
                widen<std::uint64_t>(src, k, m_doubles.data());
                out.values = DecodedBlock::Doubles{m_doubles.data()};
                break;
            case Dtype::C64:
                for (std::size_t i = 0; i < k; ++i) {
                    float pair[2];
                    std::memcpy(pair, src + 8 * i, 8);
                    m_floats[i] = pair[0];
                    m_imag[i] = pair[1];
                    // A NaN in either part makes the element NaN; hypot alone would say Inf.
                    m_doubles[i] =
                        std::isnan(pair[0]) || std::isnan(pair[1])
                            ? std::numeric_limits<double>::quiet_NaN()
                            : std::hypot(static_cast<double>(pair[0]), static_cast<double>(pair[1]));
                }
                out.values = DecodedBlock::Complex{m_floats.data(), m_imag.data(), m_doubles.data()};
                break;
            default:
                decode::decodeToFloat(m_dtype, src, k, m_floats.data());
                out.values = DecodedBlock::Floats{m_floats.data()};
                break;
            }
            fn(out);
        }
        if (auto r = finishPiece(); !r)
            return r;
        done += n;
    }
    return {};
}

} // namespace ts
