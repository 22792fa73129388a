#include "pickle/TorchCheckpointReader.h"

#include "pickle/PickleHeap.h"
#include "pickle/PickleOpcodes.h"
#include "pickle/TarArchive.h"
#include "pickle/TorchLegacyReader.h"
#include "pickle/TorchTarReader.h"
#include "pickle/TorchZipReader.h"

#include <QFileInfo>

#include <array>

namespace ts::pickle {
namespace {

bool looksLikeSafetensors(std::span<const std::byte> head, std::uint64_t size)
{
    if (head.size() < 9)
        return false;
    std::uint64_t n = 0;
    for (int i = 0; i < 8; ++i)
        n |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(head[static_cast<std::size_t>(i)]))
             << (8 * i);
    if (n == 0 || n > size - 8)
        return false;
    for (std::size_t i = 8; i < head.size(); ++i) {
        const char c = static_cast<char>(head[i]);
        if (c == '{')
            return true;
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return false;
    }
    return false;
}

bool pickleExtension(const QString& path)
{
    static const std::array<const char*, 7> exts{{"bin", "pt", "pth", "ckpt", "pkl", "pickle", "tar"}};
    const QString suffix = QFileInfo(path).suffix().toLower();
    for (const char* e : exts) {
        if (suffix == QLatin1String(e))
            return true;
    }
    return false;
}

} // namespace

PickleFormat sniffPickleFormat(const ByteSource& source, const QString& path)
{
    const std::uint64_t size = source.size();
    std::array<std::byte, 512> head{};
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(size, head.size()));
    if (n < 2 || !source.read(0, std::span(head.data(), n)))
        return PickleFormat::None;
    const auto b0 = static_cast<std::uint8_t>(head[0]);
    const auto b1 = static_cast<std::uint8_t>(head[1]);
    if (n >= 4 && b0 == 'P' && b1 == 'K' && head[2] == std::byte{3} && head[3] == std::byte{4})
        return PickleFormat::Zip;
    if (n == 512 && isTarHeader(head))
        return PickleFormat::Tar;
    if (path.endsWith(QLatin1String(".safetensors"), Qt::CaseInsensitive) ||
        looksLikeSafetensors(std::span(head.data(), n), size))
        return PickleFormat::None;
    if (b0 == op::PROTO && b1 <= 5)
        return PickleFormat::Pickle;
    // Protocols 0 and 1 start with no PROTO: accept the opcodes a pickle can start with, but only
    // under the names PyTorch checkpoints go by (any byte starts some opcode).
    if (pickleExtension(path) && opcodeInfo(b0).name && b0 != op::STOP)
        return PickleFormat::Pickle;
    return PickleFormat::None;
}

Result<TorchContents> readTorchCheckpoint(const ByteSource& source, const PickleLimits& limits)
{
    TorchContents contents;
    PickleHeap heap(limits.maxHeapBytes);
    Result<void> r;
    switch (sniffPickleFormat(source, source.displayName())) {
    case PickleFormat::Zip:
        r = TorchZipReader(source, heap, limits, contents).read();
        break;
    case PickleFormat::Tar:
        r = TorchTarReader(source, heap, limits, contents).read();
        break;
    case PickleFormat::Pickle:
        r = TorchLegacyReader(source, heap, limits, contents).read();
        break;
    case PickleFormat::None:
        return makeError(
            ErrorCode::InvalidHeader, source.displayName(),
            QStringLiteral("this is neither a PyTorch checkpoint (zip, tar or pickle) nor a pickle"));
    }
    if (!r)
        return r.error();
    return contents;
}

} // namespace ts::pickle
