#pragma once

#include "io/ByteSource.h"

#include <QByteArray>

namespace ts {

// Bytes held in memory: files made by tests and fuzzers, and tensors produced by a conversion.
class MemorySource final : public ByteSource {
public:
    explicit MemorySource(QByteArray bytes, QString name = QStringLiteral("<memory>"));

    QString displayName() const override { return m_name; }
    std::uint64_t size() const override { return static_cast<std::uint64_t>(m_bytes.size()); }
    Result<void> read(std::uint64_t offset, std::span<std::byte> dst) const override;
    std::span<const std::byte> view(std::uint64_t offset, std::uint64_t length) const override;

private:
    QByteArray m_bytes;
    QString m_name;
};

} // namespace ts
