#include "checkpoint/ShardedCheckpoint.h"

#include "checkpoint/PartOpening.h"
#include "checkpoint/SafetensorsCheckpoint.h"
#include "io/RemoteLocation.h"

#include <QSet>

namespace ts {

Result<std::shared_ptr<const Checkpoint>> ShardedCheckpoint::open(const CheckpointLayout& layout)
{
    std::shared_ptr<ShardedCheckpoint> checkpoint(new ShardedCheckpoint(layout.kind, layout.origin));
    for (const QString& path : layout.parts) {
        auto file = openSafetensorsPart(path);
        if (!file)
            return file.error();
        const SafetensorsFile& shard = *file->file;
        CheckpointPart part = SafetensorsCheckpoint::partOf(shard, file->localPath);
        const QString name = part.name;
        std::vector<Diagnostic> warnings = SafetensorsCheckpoint::warningsOf(shard, file->localPath);
        for (Diagnostic& d : warnings)
            d.message = name + QStringLiteral(": ") + d.message;
        if (auto added = checkpoint->addPart(std::move(part), SafetensorsCheckpoint::tensorsOf(file->file),
                                             shard.header().dataOffset(), warnings);
            !added)
            return added.error();
        checkpoint->m_shards.push_back(std::move(file->file));
    }
    // Shards written by one save carry the same map: the first one's stands for the model.
    if (!checkpoint->m_shards.empty())
        checkpoint->setMetadata(checkpoint->m_shards.front()->header().metadata);
    if (layout.shardIndex) {
        checkpoint->m_index = layout.shardIndex;
        if (auto checked = checkpoint->checkIndex(layout.indexLocation); !checked)
            return checked.error();
        if (!RemoteLocation::isRemote(layout.indexLocation)) // a URL is no file to watch or protect
            checkpoint->addExtraFile(layout.indexLocation);
    }
    return std::shared_ptr<const Checkpoint>(std::move(checkpoint));
}

Result<void> ShardedCheckpoint::checkIndex(const QString& indexPath) const
{
    const ShardIndex& index = *m_index;
    // Both directions: what the index promises must be where it says, and nothing more.
    for (const auto& [name, shardName] : index.weightMap) {
        const int i = indexOf(name);
        const QString actual = i < 0 ? QString() : partOf(i).name;
        if (actual != shardName) {
            return makeError(
                ErrorCode::ShardMismatch, indexPath,
                QStringLiteral("the index places tensor \"%1\" in \"%2\", but that shard does not hold it")
                    .arg(name, shardName),
                name);
        }
    }
    if (index.weightMap.size() != tensors().size()) {
        QSet<QString> listed;
        for (const auto& entry : index.weightMap)
            listed.insert(entry.first);
        for (std::size_t i = 0; i < tensors().size(); ++i) {
            const CheckpointTensor& t = tensors()[i];
            if (!listed.contains(t.info.name)) {
                return makeError(
                    ErrorCode::ShardMismatch, indexPath,
                    QStringLiteral("shard \"%1\" holds tensor \"%2\", which the index does not list")
                        .arg(partOf(static_cast<int>(i)).name, t.info.name),
                    t.info.name);
            }
        }
    }
    if (index.totalSize && *index.totalSize != totalTensorBytes()) {
        return makeError(
            ErrorCode::ShardMismatch, indexPath,
            QStringLiteral("the index says total_size is %1 bytes, but the shards' tensors add up to %2")
                .arg(*index.totalSize)
                .arg(totalTensorBytes()));
    }
    return {};
}

CheckpointCapabilities ShardedCheckpoint::capabilities() const
{
    CheckpointCapabilities c;
    c.convertFrom = true;
    return c;
}

RawHeader ShardedCheckpoint::rawHeader(std::uint64_t cap) const
{
    if (m_shards.empty())
        return {};
    return RawHeader::ofSafetensors(*m_shards.front()->source(), cap);
}

} // namespace ts
