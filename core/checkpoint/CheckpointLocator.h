#pragma once

#include "base/Result.h"
#include "checkpoint/Checkpoint.h"
#include "format/ShardIndex.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace ts {

struct FolderModel;

// Which parts make up what the user opened, before any part is read.
struct CheckpointLayout {
    Checkpoint::Kind kind = Checkpoint::Kind::SingleFile;
    QString origin;                       // the checkpoint's path(): the file, the index or the folder
    QStringList parts;                    // the parts' locations, in order
    QString indexLocation;                // the shard index read, or empty
    std::optional<ShardIndex> shardIndex; // that index, loaded
};

// Resolves what the user gave into the parts to read: a file is itself; an index names its
// shards in its own folder; a folder is one model only when an index or the shard naming says so
// (FolderModels); a shard set without an index is opened by its pattern path. Everything that decides where a
// part is lives here, so a new source (a URL whose index names sibling URLs, an archive's members) is one
// more case of locate().
class CheckpointLocator {
public:
    static Result<CheckpointLayout> locate(const QString& location);

private:
    static Result<CheckpointLayout> locateFolder(const QString& folder);
    static Result<CheckpointLayout> locateIndex(const QString& indexPath, Checkpoint::Kind kind);
    // FOLDER/NAME-*-of-0000M.safetensors: the shard set of that name in FOLDER, which has no index.
    static Result<CheckpointLayout> locateShardSet(const QString& pattern);
    static Result<CheckpointLayout> locateModel(const FolderModel& model, const QString& origin);
};

} // namespace ts
