#include "pickle/TensorViewSource.h"

#include <algorithm>
#include <cstring>

namespace ts::pickle {

TensorViewSource::TensorViewSource(std::shared_ptr<const ByteSource> file, const TorchTensor& tensor)
    : m_file(std::move(file)), m_name(m_file->displayName() + QLatin1Char('!') + tensor.name),
      m_size(tensor.byteSize()), m_elementSize(static_cast<std::uint64_t>(tensor.elementSize)),
      m_shape(tensor.shape), m_stride(tensor.stride), m_first(tensor.firstByte()), m_swap(tensor.bigEndian),
      m_complexHalves(tensor.complexHalves)
{
}

void TensorViewSource::swap(std::byte* data, std::uint64_t count) const
{
    const std::uint64_t unit = m_complexHalves ? m_elementSize / 2 : m_elementSize;
    for (std::uint64_t i = 0; i < count * (m_elementSize / unit); ++i)
        std::reverse(data + i * unit, data + (i + 1) * unit);
}

Result<void> TensorViewSource::readElements(std::uint64_t first, std::uint64_t count, std::byte* out) const
{
    const std::size_t rank = m_shape.size();
    // The multi-index of element `first` in row-major order.
    std::vector<std::uint64_t> index(rank, 0);
    std::uint64_t rest = first;
    for (std::size_t d = rank; d-- > 0;) {
        index[d] = m_shape[d] ? rest % m_shape[d] : 0;
        rest = m_shape[d] ? rest / m_shape[d] : 0;
    }
    std::uint64_t done = 0;
    while (done < count) {
        std::uint64_t at = 0;
        for (std::size_t d = 0; d < rank; ++d)
            at += index[d] * m_stride[d];
        // Along the last axis with stride 1 the elements are one run of the file.
        std::uint64_t run = 1;
        if (rank > 0 && m_stride[rank - 1] == 1)
            run = std::min(m_shape[rank - 1] - index[rank - 1], count - done);
        if (auto r = m_file->read(
                m_first + at * m_elementSize,
                std::span(out + done * m_elementSize, static_cast<std::size_t>(run * m_elementSize)));
            !r)
            return r;
        done += run;
        if (rank == 0)
            break;
        index[rank - 1] += run;
        for (std::size_t d = rank; d-- > 0 && index[d] >= m_shape[d];) {
            index[d] = 0;
            if (d > 0)
                ++index[d - 1];
        }
    }
    if (m_swap)
        swap(out, count);
    return {};
}

Result<void> TensorViewSource::read(std::uint64_t offset, std::span<std::byte> dst) const
{
    if (offset > m_size || dst.size() > m_size - offset)
        return makeError(ErrorCode::IoError, m_name,
                         QStringLiteral("a read of %1 bytes at byte %2 is past the %3 bytes of the tensor")
                             .arg(dst.size())
                             .arg(offset)
                             .arg(m_size));
    if (dst.empty())
        return {};
    const std::uint64_t firstElement = offset / m_elementSize;
    const std::uint64_t lastElement = (offset + dst.size() - 1) / m_elementSize;
    const std::uint64_t count = lastElement - firstElement + 1;
    const std::uint64_t skip = offset - firstElement * m_elementSize;
    if (skip == 0 && dst.size() == count * m_elementSize)
        return readElements(firstElement, count, dst.data());
    std::vector<std::byte> whole(static_cast<std::size_t>(count * m_elementSize));
    if (auto r = readElements(firstElement, count, whole.data()); !r)
        return r;
    std::memcpy(dst.data(), whole.data() + skip, dst.size());
    return {};
}

} // namespace ts::pickle
