#pragma once

#include "base/Result.h"
#include "convert/ConvertOptions.h"
#include "convert/ConvertPlan.h"
#include "convert/Converter.h"

#include <QByteArray>
#include <QStringList>

#include <vector>

namespace ts {

// Writes a planned conversion: one file in the reference writer's layout, or (with a shard size)
// a folder of Hugging Face shards plus model.safetensors.index.json. Every file goes through
// SafetensorsWriter's atomic save; the index is written last, so a folder with an index is a
// complete model. Refuses to write over any input file.
class ConvertWriter {
public:
    // Returns the files written, the index last. Progress counts the output's data bytes over
    // all shards; a cancel stops the write between chunks and leaves nothing behind.
    static Result<QStringList> write(const ConvertPlan& plan, const QString& out,
                                     const ConvertOptions& options, const JobControl& control = {});

    // Hugging Face's split: tensors in name order fill a shard until the next would overflow
    // it; a tensor bigger than the limit gets a shard of its own. Returns indices into the plan.
    static std::vector<std::vector<std::size_t>> splitIntoShards(const ConvertPlan& plan,
                                                                 std::uint64_t maxBytes);

    static QString shardFileName(std::size_t index, std::size_t count); // model-00001-of-00003.safetensors

    // As huggingface_hub writes it: json.dumps(index, indent=2, sort_keys=True) + "\n".
    static QByteArray indexJson(std::uint64_t totalSize,
                                const std::vector<std::pair<QString, QString>>& weightMap);
};

} // namespace ts
