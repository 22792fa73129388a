#include "view/ElementReader.h"

#include "analysis/TensorBlockReader.h"
#include "codec/DtypeDecoder.h"

#include <span>

namespace ts {

ElementReader::ElementReader(TensorLocation location, TensorInfo info)
    : m_location(std::move(location)), m_info(std::move(info))
{
}

Result<std::vector<double>> ElementReader::read(std::uint64_t first, std::uint64_t count) const
{
    const std::uint64_t elements = m_info.elementCount();
    if (first > elements || count > elements - first)
        return makeError(ErrorCode::InvalidArgument,
                         m_location.source ? m_location.source->displayName() : QString(),
                         QStringLiteral("Elements %1 to %2 are outside the tensor's %3 elements.")
                             .arg(first)
                             .arg(first + count)
                             .arg(elements),
                         m_info.name);
    std::vector<double> out(count);
    if (count == 0)
        return out;
    // Sub-byte dtypes pack 2 (F4) or 4 (F6) elements per byte group: start on a multiple of 8
    // elements so the first element is byte-aligned whatever the packing.
    const int bits = dtypeBits(m_info.dtype);
    const std::uint64_t aligned = bits % 8 == 0 ? first : first / 8 * 8;
    const std::uint64_t skip = first - aligned;
    const std::uint64_t byteBegin = aligned * static_cast<std::uint64_t>(bits) / 8;
    const std::uint64_t byteCount = TensorBlockReader::bytesFor(m_info.dtype, skip + count);
    if (byteBegin + byteCount > m_location.length)
        return makeError(ErrorCode::InvalidArgument, m_location.source->displayName(),
                         QStringLiteral("The tensor's bytes end before element %1.").arg(first + count),
                         m_info.name, m_location.offset + m_location.length);
    std::vector<std::byte> bytes(byteCount);
    if (Result<void> r = m_location.source->read(m_location.offset + byteBegin, bytes); !r) {
        // Named like TensorBlockReader's: the window's reload banner says which read failed.
        Error error = r.error();
        error.message = QStringLiteral("cannot read tensor \"%1\": %2").arg(m_info.name, error.message);
        error.tensor = m_info.name;
        return error;
    }
    const std::span<const std::byte> span(bytes);
    for (std::uint64_t i = 0; i < count; ++i)
        out[i] = decode::element(m_info.dtype, span, skip + i);
    return out;
}

Result<double> ElementReader::at(std::uint64_t index) const
{
    Result<std::vector<double>> one = read(index, 1);
    if (!one)
        return one.error();
    return one.value().front();
}

} // namespace ts
