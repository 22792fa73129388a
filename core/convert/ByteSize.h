#pragma once

#include <QString>

#include <cstdint>
#include <optional>

namespace ts {

// "500MB", "2GB", "1GiB", "1.5 GB", "4096": decimal units are powers of 1000 (as Hugging Face's
// max_shard_size), "i" units powers of 1024. nullopt for anything else, zero included.
std::optional<std::uint64_t> parseByteSize(const QString& text);

} // namespace ts
