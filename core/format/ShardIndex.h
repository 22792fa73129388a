#pragma once

#include "base/Result.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <utility>
#include <vector>

namespace ts {

// A Hugging Face `model.safetensors.index.json`: which shard file holds which tensor.
struct ShardIndex {
    std::optional<std::uint64_t> totalSize;                 // metadata.total_size
    std::vector<std::pair<QString, QString>> otherMetadata; // other metadata entries, as JSON text
    std::vector<std::pair<QString, QString>> weightMap;     // tensor name -> shard file name, file order
    std::vector<QString> shardFiles;                        // distinct shard names, first-seen order

    // Parses the index text. Shard names must be plain file names in the index's folder: a name
    // with a path separator or ".." would let a hostile index point anywhere on the disk.
    static Result<ShardIndex> parse(const QByteArray& json, const QString& file);
    static Result<ShardIndex> load(const QString& path);
};

// The largest index we read; real ones are a few hundred KB.
inline constexpr qint64 kMaxShardIndexSize = 64 * 1024 * 1024;
// The most shard files an index may name. Each open shard holds a file descriptor and a mapping;
// the largest published models have a few hundred shards.
inline constexpr std::size_t kMaxShardFiles = 10'000;

} // namespace ts
