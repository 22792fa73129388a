#include "SafetensorsFile.h"

#include "HeaderParser.h"
#include "MappedFile.h"

namespace ts {

SafetensorsFile::SafetensorsFile(std::shared_ptr<const ByteSource> source, Header header)
    : m_source(std::move(source)), m_path(m_source->displayName()), m_header(std::move(header))
{
}

Result<std::shared_ptr<const SafetensorsFile>> SafetensorsFile::open(const QString& path)
{
    auto mapped = MappedFile::open(path);
    if (!mapped)
        return mapped.error();
    return fromSource(std::move(mapped.value()));
}

Result<std::shared_ptr<const SafetensorsFile>> SafetensorsFile::fromSource(std::shared_ptr<const ByteSource> source)
{
    auto header = parseHeader(*source);
    if (!header)
        return header.error();
    return std::shared_ptr<const SafetensorsFile>(new SafetensorsFile(std::move(source), std::move(header.value())));
}

TensorLocation SafetensorsFile::location(const TensorInfo& tensor) const
{
    return TensorLocation{m_source, m_header.dataOffset() + tensor.begin, tensor.byteSize()};
}

int SafetensorsFile::indexOf(const QString& name) const
{
    for (std::size_t i = 0; i < m_header.tensors.size(); ++i) {
        if (m_header.tensors[i].name == name)
            return static_cast<int>(i);
    }
    return -1;
}

} // namespace ts
