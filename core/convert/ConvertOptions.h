#pragma once

#include "format/Dtype.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace ts {

// What `tensorscope-cli convert` and the Convert dialog ask for.
struct ConvertOptions {
    std::optional<Dtype> dtype;                      // for every floating tensor the converter can decode
    std::vector<std::pair<QString, Dtype>> dtypeFor; // glob over source names -> dtype; the last match wins
    QStringList include;                             // globs over source names; empty = everything
    QStringList exclude;                             // globs over source names
    std::vector<std::pair<QString, QString>> rename; // regex -> replacement, applied in order
    std::optional<std::uint64_t> shardSize;          // write Hugging Face shards of at most this many bytes
    std::vector<std::pair<QString, QString>> setMetadata;
    QStringList unsetMetadata;
    std::uint64_t headerSlack = 0;

    bool operator==(const ConvertOptions&) const = default;
};

} // namespace ts
