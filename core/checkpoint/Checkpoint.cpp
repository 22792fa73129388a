#include "checkpoint/Checkpoint.h"

#include "checkpoint/CheckpointLocator.h"
#include "checkpoint/PyTorchCheckpoint.h"
#include "checkpoint/SafetensorsCheckpoint.h"
#include "checkpoint/ShardedCheckpoint.h"

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
        if (PyTorchCheckpoint::recognizes(layout->parts.front()))
            return PyTorchCheckpoint::open(layout->parts.front(), layout->origin, options);
        return SafetensorsCheckpoint::open(layout->parts.front(), layout->origin);
    }
    return ShardedCheckpoint::open(*layout);
}

QString Checkpoint::displayName() const
{
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

Result<void> Checkpoint::addPart(CheckpointPart part, const std::vector<TensorInfo>& tensors,
                                 std::uint64_t dataStart, const std::vector<Diagnostic>& warnings)
{
    const int index = static_cast<int>(m_parts.size());
    m_tensors.reserve(m_tensors.size() + tensors.size());
    m_byName.reserve(static_cast<qsizetype>(m_tensors.size() + tensors.size()));
    for (const TensorInfo& t : tensors) {
        if (auto it = m_byName.constFind(t.name); it != m_byName.constEnd()) {
            const QString other =
                m_parts[static_cast<std::size_t>(m_tensors[static_cast<std::size_t>(*it)].part)].name;
            return makeError(ErrorCode::DuplicateTensor, m_path,
                             QStringLiteral("tensor \"%1\" is in two shards, \"%2\" and \"%3\"")
                                 .arg(t.name, other, part.name),
                             t.name);
        }
        m_byName.insert(t.name, static_cast<int>(m_tensors.size()));
        m_tensors.push_back(CheckpointTensor{t, index, dataStart + t.begin});
    }
    m_warnings.insert(m_warnings.end(), warnings.begin(), warnings.end());
    part.tensorCount = tensors.size();
    m_parts.push_back(std::move(part));
    return {};
}

TensorLocation Checkpoint::location(int tensor) const
{
    const CheckpointTensor& t = m_tensors[static_cast<std::size_t>(tensor)];
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
    for (const CheckpointTensor& t : m_tensors)
        sum += t.info.elementCount();
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
