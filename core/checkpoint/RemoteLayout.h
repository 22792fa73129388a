#pragma once

#include "base/Result.h"
#include "checkpoint/CheckpointLocator.h"

#include <QString>

namespace ts {

// CheckpointLocator's case for a URL: a .safetensors URL is itself; an index .json URL is read
// whole through the installed SourceOpener and names its shards as sibling URLs (the shard
// names are plain file names, so every shard is in the index's folder on the same server).
// Servers have no folders to list: a URL ending in "/" is refused with a sentence.
class RemoteLayout {
public:
    static Result<CheckpointLayout> locate(const QString& url);
};

} // namespace ts
