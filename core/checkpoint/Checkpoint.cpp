#include "checkpoint/Checkpoint.h"

#include "checkpoint/CheckpointLocator.h"
#include "checkpoint/PyTorchCheckpoint.h"
#include "checkpoint/SafetensorsCheckpoint.h"
#include "checkpoint/ShardedCheckpoint.h"
#include "io/RemoteLocation.h"

#include <QDir>
#include <QFileInfo>

namespace ts {

Checkpoint::Checkpoint(Kind kind, QString path) : m_kind(kind), m_path(std::move(path)) {}

Checkpoint::~Checkpoint() = default;

Result<std::shared_ptr<const Checkpoint>> Checkpoint::open(const QString& location,
                                                           const CheckpointOpenOptions& options)
{
    auto layout = CheckpointLocator::locate(location);
    if (!layout)
        return layout.error();
    // Where a new format joins: sniff the single part's first bytes and pick its implementation.
    if (layout->kind == Kind::SingleFile) {
        // A pickle is read from a mapped file only; a URL is a safetensors file (core/remote).
        if (!RemoteLocation::isRemote(layout->parts.front()) &&
            PyTorchCheckpoint::recognizes(layout->parts.front()))
            return PyTorchCheckpoint::open(layout->parts.front(), layout->origin, options);
        return SafetensorsCheckpoint::open(layout->parts.front(), layout->origin);
    }
    return ShardedCheckpoint::open(*layout);
}

QString Checkpoint::displayName() const
{
    if (RemoteLocation::isRemote(m_path)) {
        if (m_kind == Kind::IndexedShards)
            return RemoteLocation::folderName(m_path) + QLatin1Char('/') + RemoteLocation::fileName(m_path);
        return RemoteLocation::fileName(m_path);
    }
    const QFileInfo info(m_path);
    if (m_kind == Kind::IndexedShards)
        return info.dir().dirName() + QLatin1Char('/') + info.fileName();
    return info.fileName().isEmpty() ? m_path : info.fileName();
}

QStringList Checkpoint::files() const
{
    QStringList paths;
    for (const CheckpointPart& part : m_parts) {
        if (!part.localPath.isEmpty())
            paths << part.localPath;
    }
    paths << m_extraFiles;
    return paths;
}

Result<void> Checkpoint::addPart(CheckpointPart part, std::shared_ptr<const std::vector<TensorInfo>> tensors,
                                 std::uint64_t dataStart, const std::vector<Diagnostic>& warnings)
{
    const std::size_t first = m_tensors.size();
    const auto nameOf = [&](int i) -> const QString& {
        const auto at = static_cast<std::size_t>(i);
        return at < first ? m_tensors.info(at).name : (*tensors)[at - first].name;
    };
    m_byName.reserve(first + tensors->size());
    for (std::size_t i = 0; i < tensors->size(); ++i) {
        const TensorInfo& t = (*tensors)[i];
        if (const int held = m_byName.insert(t.name, static_cast<int>(first + i), nameOf); held >= 0) {
            const auto heldAt = static_cast<std::size_t>(held);
            const QString other =
                heldAt < first ? m_parts[static_cast<std::size_t>(m_tensors.partOf(heldAt))].name : part.name;
            return makeError(ErrorCode::DuplicateTensor, m_path,
                             QStringLiteral("tensor \"%1\" is in two shards, \"%2\" and \"%3\"")
                                 .arg(t.name, other, part.name),
                             t.name);
        }
    }
    m_tensors.addPart(std::move(tensors), dataStart);
    m_warnings.insert(m_warnings.end(), warnings.begin(), warnings.end());
    part.tensorCount = m_tensors.size() - first;
    m_parts.push_back(std::move(part));
    return {};
}

int Checkpoint::indexOf(const QString& name) const
{
    return m_byName.find(
        name, [this](int i) -> const QString& { return m_tensors.info(static_cast<std::size_t>(i)).name; });
}

TensorLocation Checkpoint::location(int tensor) const
{
    const CheckpointTensor t = m_tensors[static_cast<std::size_t>(tensor)];
    return TensorLocation{m_parts[static_cast<std::size_t>(t.part)].source, t.offset, t.info.byteSize()};
}

std::uint64_t Checkpoint::totalFileBytes() const
{
    std::uint64_t sum = 0;
    for (const CheckpointPart& p : m_parts)
        sum += p.size();
    return sum;
}

std::uint64_t Checkpoint::totalTensorBytes() const
{
    std::uint64_t sum = 0;
    for (const CheckpointPart& p : m_parts)
        sum += p.dataBytes;
    return sum;
}

std::uint64_t Checkpoint::totalParameters() const
{
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < m_tensors.size(); ++i)
        sum += m_tensors.info(i).elementCount();
    return sum;
}

std::uint64_t Checkpoint::headerBytes() const
{
    std::uint64_t sum = 0;
    for (const CheckpointPart& p : m_parts)
        sum += p.headerBytes;
    return sum;
}

bool Checkpoint::changedOnDisk() const
{
    for (const CheckpointPart& p : m_parts) {
        if (p.source->changedOnDisk())
            return true;
    }
    return false;
}

} // namespace ts
