#pragma once

#include "base/Result.h"
#include "format/Header.h"
#include "io/ByteSource.h"

#include <QByteArray>

namespace ts {

// The reference's limit on the length prefix (tensor.rs MAX_HEADER_SIZE).
inline constexpr std::uint64_t kMaxHeaderSize = 100'000'000;

// Reads and validates a safetensors header from a byte source, rule by rule in the reference's
// order (SPEC-NOTES section 2). Reads only the prefix and the header bytes: never tensor data.
Result<Header> parseHeader(const ByteSource& source);

// Same rules over bytes already in memory (the prefix and header; `fileSize` is the whole file's
// size). The fuzzers and the in-place save path use this.
Result<Header> parseHeaderBytes(const char* bytes, std::size_t available, std::uint64_t fileSize,
                                const QString& file);

// The header text as far as it can be read, for showing a broken file: at most `cap` bytes after
// the prefix, without any validation.
QByteArray readRawHeader(const ByteSource& source, std::uint64_t cap = 4 * 1024 * 1024);

} // namespace ts
