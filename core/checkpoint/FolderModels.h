#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace ts {

// One model in a folder: a shard index, a set of shards named NAME-0000N-of-0000M.safetensors
// (the Hugging Face writer's naming) without an index, or a single file.
struct FolderModel {
    enum class Kind { Index, ShardSet, SingleFile };
    Kind kind = Kind::SingleFile;
    QString
        label; // "model.safetensors.index.json", "model-*-of-00003.safetensors (3 shards)", "a.safetensors"
    QStringList files; // absolute paths: the index, the shards in order (missing ones included), or the file
    QStringList missing; // ShardSet only: shard file names the naming promises and the folder lacks
    // What Checkpoint::open takes to open exactly this model: the index, the file, or for a shard
    // set without an index the pattern path FOLDER/NAME-*-of-0000M.safetensors (CheckpointLocator
    // resolves it; a user can type it too).
    QString location;
};

// What a folder holds, by the rule that a folder is one sharded model only when an index.json or
// the shard naming says so: a folder of two unrelated models, or two copies of one, is several
// models, never one merged model. Files that an index in the folder lists belong to that index;
// a shard set is the files that agree on NAME and M. Sorted: indexes, shard sets, then files, in
// natural order.
class FolderModels {
public:
    static std::vector<FolderModel> list(const QString& folder);
    // Splits "model-00002-of-00005.safetensors" into ("model", 2, 5); false for other names.
    static bool parseShardName(const QString& fileName, QString* stem, int* number, int* total);
    // True for a shard set's pattern name "model-*-of-00003.safetensors" (see FolderModel::location).
    static bool isShardSetPattern(const QString& fileName);
};

} // namespace ts
