#include "convert/ConvertingSource.h"

#include "analysis/NanInfCounter.h"
#include "analysis/TensorBlockReader.h"
#include "io/PieceBuffer.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace ts {

ConvertingSource::ConvertingSource(TensorLocation input, Dtype from, Dtype to, std::uint64_t elements,
                                   QString name, bool countInfinities)
    : m_input(std::move(input)), m_from(from), m_to(to), m_elements(elements),
      m_inSize(static_cast<std::uint64_t>(dtypeBits(from) / 8)),
      m_outSize(static_cast<std::uint64_t>(dtypeBits(to) / 8)), m_name(std::move(name)),
      m_countInfinities(countInfinities)
{
}

Result<void> ConvertingSource::read(std::uint64_t offset, std::span<std::byte> dst) const
{
    if (offset > size() || dst.size() > size() - offset) {
        return makeError(
            ErrorCode::IoError, m_name,
            QStringLiteral("reading %1 converted bytes at offset %2 goes past the end (%3 bytes)")
                .arg(dst.size())
                .arg(offset)
                .arg(size()),
            {}, offset);
    }
    if (dst.empty())
        return {};
    // Whole elements covering the request; the writer asks for aligned chunks, so the copy
    // through `partial` is only for odd callers.
    const std::uint64_t first = offset / m_outSize;
    const std::uint64_t end = (offset + dst.size() + m_outSize - 1) / m_outSize;
    const std::uint64_t count = end - first;
    const std::uint64_t inOffset = m_input.offset + first * m_inSize;
    const std::uint64_t inLength = count * m_inSize;

    const bool aligned = offset % m_outSize == 0 && dst.size() % m_outSize == 0;
    std::vector<std::byte> partial(aligned ? 0 : static_cast<std::size_t>(count * m_outSize));
    std::byte* out = aligned ? dst.data() : partial.data();
    ConversionCounts c;
    NanInfCounter specials(m_from);
    // Elements [at, at + n) from `in` to their place in `out`.
    const auto convertRun = [&](const std::byte* in, std::uint64_t at, std::uint64_t n) {
        DtypeConverter::convert(m_from, m_to, in, out + (at - first) * m_outSize, static_cast<std::size_t>(n),
                                c);
        // The source's Inf values, which the conversion keeps (or saturates) without a count of
        // its own: a bit-pattern test of bytes just read, at memory speed.
        if (m_countInfinities)
            specials.add(reinterpret_cast<const std::uint8_t*>(in), at, static_cast<std::size_t>(n));
    };

    // In place when the source lends the bytes (an HTTP transfer); a local file is read into
    // this thread's reused buffer (MappedFile::hold says why) a scan piece at a time, so that the
    // conversion reads its input from cache (TensorBlockReader::kReadBytes).
    const ByteSource::HeldBytes held = m_input.source->hold(inOffset, inLength);
    if (!held.bytes.empty()) {
        convertRun(held.bytes.data(), first, count);
    } else {
        const std::uint64_t perRead = std::max<std::uint64_t>(1, TensorBlockReader::kReadBytes / m_inSize);
        PieceBuffer inBuffer;
        std::byte* buffer = inBuffer.reserve(static_cast<std::size_t>(std::min(count, perRead) * m_inSize));
        for (std::uint64_t done = 0; done < count;) {
            const std::uint64_t n = std::min(perRead, count - done);
            const std::span<std::byte> into(buffer, static_cast<std::size_t>(n * m_inSize));
            if (auto r = m_input.source->read(inOffset + done * m_inSize, into); !r)
                return r;
            convertRun(buffer, first + done, n);
            done += n;
        }
    }
    if (m_countInfinities)
        c.inf = specials.result().posinf + specials.result().neginf;
    if (!aligned)
        std::memcpy(dst.data(), partial.data() + (offset - first * m_outSize), dst.size());
    if (!held.bytes.empty()) {
        // Converted from lent bytes: if the input shrank meanwhile, those were zeros, not data.
        const Result<void> intact = m_input.source->checkView(inOffset, inLength);
        m_input.source->release(inOffset, inLength);
        if (!intact)
            return intact;
    }
    m_overflowed += c.overflowed;
    m_underflowed += c.underflowed;
    m_nan += c.nan;
    m_inf += c.inf;
    return {};
}

ConversionCounts ConvertingSource::counts() const
{
    return {m_overflowed.load(), m_underflowed.load(), m_nan.load(), m_inf.load()};
}

void ConvertingSource::resetCounts() const
{
    m_overflowed = 0;
    m_underflowed = 0;
    m_nan = 0;
    m_inf = 0;
}

} // namespace ts
