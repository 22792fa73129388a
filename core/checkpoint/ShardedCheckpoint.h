#pragma once

#include "checkpoint/Checkpoint.h"
#include "checkpoint/CheckpointLocator.h"
#include "format/SafetensorsFile.h"
#include "format/ShardIndex.h"

#include <memory>
#include <optional>
#include <vector>

namespace ts {

// The shards of one model as one checkpoint: the files an index names (checked both ways: every
// tensor the index places is in that shard, and no shard holds a tensor the index does not list),
// or a complete NAME-0000N-of-0000M set without an index. Read-only: each shard carries its own
// copy of the metadata, and editing one of them would make them disagree.
class ShardedCheckpoint final : public Checkpoint {
public:
    static Result<std::shared_ptr<const Checkpoint>> open(const CheckpointLayout& layout);

    QString formatName() const override { return QStringLiteral("safetensors"); }
    CheckpointCapabilities capabilities() const override;
    RawHeader rawHeader(std::uint64_t cap) const override;
    const ShardIndex* shardIndex() const override { return m_index ? &*m_index : nullptr; }

private:
    ShardedCheckpoint(Kind kind, QString path) : Checkpoint(kind, std::move(path)) {}
    Result<void> checkIndex(const QString& indexPath) const;

    std::vector<std::shared_ptr<const SafetensorsFile>> m_shards;
    std::optional<ShardIndex> m_index;
};

} // namespace ts
