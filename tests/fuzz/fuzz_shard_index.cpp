// libFuzzer target: model.safetensors.index.json parsing. Shard names that escape the index's
// folder must never be accepted.
#include "format/ShardIndex.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray json(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    auto index = ts::ShardIndex::parse(json, QStringLiteral("model.safetensors.index.json"));
    if (!index)
        return 0;
    for (const QString& shard : index->shardFiles) {
        if (shard.isEmpty() || shard.contains(QLatin1Char('/')) || shard.contains(QLatin1Char('\\')) ||
            shard == QLatin1String("..") || shard == QLatin1String(".") || shard.contains(QChar(0)))
            std::abort();
    }
    if (index->weightMap.size() < index->shardFiles.size())
        std::abort();
    return 0;
}
