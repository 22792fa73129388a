#include "format/SafetensorsFile.h"

#include "format/HeaderParser.h"
#include "io/MappedFile.h"
#include "write/SaveLock.h"

#include <chrono>

namespace ts {
namespace {

constexpr std::chrono::milliseconds kReaderWait{3000};

} // namespace

SafetensorsFile::SafetensorsFile(std::shared_ptr<const ByteSource> source, Header header)
    : m_source(std::move(source)), m_path(m_source->displayName()), m_header(std::move(header))
{
}

Result<std::shared_ptr<const SafetensorsFile>> SafetensorsFile::open(const QString& path)
{
    auto mapped = MappedFile::open(path);
    if (!mapped)
        return mapped.error();
    // A save in progress in another process holds the file's SaveLock: wait briefly for it so
    // the header is read whole, never half old, half new. A writer that keeps it longer does not
    // stop the read; a torn header then shows as an error.
    const std::shared_ptr<MappedFile> source = mapped.value(); // keeps the descriptor open until unlocked
    const int fd = source->nativeHandle();
    const bool shared = SaveLock::waitForWriters(fd, kReaderWait);
    auto file = fromSource(source);
    if (shared)
        SaveLock::releaseShared(fd);
    return file;
}

Result<std::shared_ptr<const SafetensorsFile>>
SafetensorsFile::fromSource(std::shared_ptr<const ByteSource> source)
{
    auto header = parseHeader(*source);
    if (!header)
        return header.error();
    return std::shared_ptr<const SafetensorsFile>(
        new SafetensorsFile(std::move(source), std::move(header.value())));
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
