#pragma once

#include "base/Result.h"
#include "format/Header.h"
#include "io/ByteSource.h"
#include "io/TensorLocation.h"

#include <memory>

namespace ts {

// One opened and validated .safetensors file: its header and the source of its bytes.
// Immutable once opened; shared between the UI, scans and writers.
class SafetensorsFile {
public:
    static Result<std::shared_ptr<const SafetensorsFile>> open(const QString& path);
    static Result<std::shared_ptr<const SafetensorsFile>>
    fromSource(std::shared_ptr<const ByteSource> source);

    const QString& path() const { return m_path; }
    const Header& header() const { return m_header; }
    const std::vector<TensorInfo>& tensors() const { return m_header.tensors; }
    const std::shared_ptr<const ByteSource>& source() const { return m_source; }
    std::uint64_t fileSize() const { return m_source->size(); }

    TensorLocation location(const TensorInfo& tensor) const;
    // Index into tensors() by name, or -1.
    int indexOf(const QString& name) const;

private:
    SafetensorsFile(std::shared_ptr<const ByteSource> source, Header header);

    std::shared_ptr<const ByteSource> m_source;
    QString m_path;
    Header m_header;
};

} // namespace ts
