#pragma once

#include "base/Diagnostic.h"
#include "base/Result.h"
#include "format/Metadata.h"
#include "format/SafetensorsFile.h"
#include "format/ShardIndex.h"
#include "io/TensorLocation.h"

#include <QHash>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace ts {

// A tensor of a model and the shard that holds it.
struct CheckpointTensor {
    TensorInfo info;
    int shard = 0;
};

// What a user opens: one .safetensors file, or a sharded model given by its
// model.safetensors.index.json or its folder. Shards are merged into one tensor list.
class Checkpoint {
public:
    enum class Kind { SingleFile, IndexedShards, FolderOfShards };

    // Accepts a .safetensors file, an index .json, or a folder.
    static Result<std::shared_ptr<const Checkpoint>> open(const QString& path);
    static std::shared_ptr<const Checkpoint> fromFile(std::shared_ptr<const SafetensorsFile> file);

    Kind kind() const { return m_kind; }
    bool isSharded() const { return m_kind != Kind::SingleFile; }
    const QString& path() const { return m_path; } // what was opened
    QString displayName() const;                   // file or folder name
    const std::vector<std::shared_ptr<const SafetensorsFile>>& shards() const { return m_shards; }
    const std::vector<CheckpointTensor>& tensors() const { return m_tensors; }
    const std::optional<ShardIndex>& index() const { return m_index; }
    // Every file the model was read from: each shard, then the index .json if there is one.
    // What a save must never write over (InputFiles).
    QStringList files() const;
    // The first shard's metadata: shards written by one save carry the same map.
    const std::optional<Metadata>& metadata() const;
    // Every shard's header warnings, plus the model-level ones.
    const std::vector<Diagnostic>& warnings() const { return m_warnings; }

    int indexOf(const QString& name) const { return m_byName.value(name, -1); }
    TensorLocation location(int tensor) const;
    std::uint64_t totalFileBytes() const;
    std::uint64_t totalTensorBytes() const;
    std::uint64_t totalParameters() const;
    std::uint64_t headerBytes() const; // sum over shards of 8 + N
    // True when any shard changed on disk since it was opened.
    bool changedOnDisk() const;

private:
    Checkpoint() = default;
    static Result<std::shared_ptr<const Checkpoint>> openIndex(const QString& indexPath, Kind kind);
    static Result<std::shared_ptr<const Checkpoint>> openFolder(const QString& folder);
    Result<void> addShard(std::shared_ptr<const SafetensorsFile> file);

    Kind m_kind = Kind::SingleFile;
    QString m_path;
    std::vector<std::shared_ptr<const SafetensorsFile>> m_shards;
    std::vector<CheckpointTensor> m_tensors;
    QHash<QString, int> m_byName;
    std::optional<ShardIndex> m_index;
    QString m_indexPath; // empty without an index
    std::vector<Diagnostic> m_warnings;
};

} // namespace ts
