#pragma once

#include "io/ByteSource.h"

#include <QByteArray>
#include <QString>

#include <cstdint>

namespace ts {

// The header text of a file as the file has it, for the Raw Header page: bounded, never parsed,
// readable even when the file does not open (a broken shard still shows what it says).
struct RawHeader {
    QString source;                  // the file it comes from
    QByteArray bytes;                // at most the cap it was read with
    std::uint64_t declaredBytes = 0; // the length the file declares (a safetensors prefix; an index's size)
    bool preformatted = false;       // text to show as it is (a pickle's disassembly), not JSON

    // The JSON after the 8-byte length prefix of a safetensors file.
    static RawHeader ofSafetensors(const ByteSource& source, std::uint64_t cap);
    // A local file that may not have opened: a shard index .json is shown whole (it is JSON),
    // anything else as a safetensors header. Empty when the file cannot be read.
    static RawHeader ofFile(const QString& path, std::uint64_t cap);
};

} // namespace ts
