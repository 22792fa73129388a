#include "io/MemorySource.h"

#include <cstring>

namespace ts {

MemorySource::MemorySource(QByteArray bytes, QString name)
    : m_bytes(std::move(bytes)), m_name(std::move(name))
{
}

Result<void> MemorySource::read(std::uint64_t offset, std::span<std::byte> dst) const
{
    if (offset > size() || dst.size() > size() - offset) {
        return makeError(ErrorCode::IoError, m_name,
                         QStringLiteral("reading %1 bytes at offset %2 goes past the end (%3 bytes)")
                             .arg(dst.size())
                             .arg(offset)
                             .arg(size()),
                         {}, offset);
    }
    if (!dst.empty())
        std::memcpy(dst.data(), m_bytes.constData() + offset, dst.size());
    return {};
}

std::span<const std::byte> MemorySource::view(std::uint64_t offset, std::uint64_t length) const
{
    if (offset > size() || length > size() - offset)
        return {};
    return {reinterpret_cast<const std::byte*>(m_bytes.constData()) + offset,
            static_cast<std::size_t>(length)};
}

} // namespace ts
