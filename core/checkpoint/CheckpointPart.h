#pragma once

#include "io/ByteSource.h"

#include <QString>

#include <cstdint>
#include <memory>

namespace ts {

// One file a checkpoint is read from: a shard, the single file, later a URL or an archive. The
// byte layout inside it (where the header ends, where each tensor is) is the format's business;
// what is here is what every view needs to name the part and to reach its bytes.
struct CheckpointPart {
    QString name;      // as shown: "model-00001-of-00002.safetensors"
    QString location;  // what opened it: an absolute path, later a URL
    QString localPath; // the file on this machine, or empty (a remote part): what is watched,
                       // and beside which journals and leftovers of saves are looked for
    std::shared_ptr<const ByteSource> source;
    std::uint64_t headerBytes = 0; // bytes before the tensor data (8 + N for safetensors)
    std::uint64_t dataBytes = 0;   // bytes of tensor data the part declares
    std::size_t tensorCount = 0;   // tensors the checkpoint took from this part

    std::uint64_t size() const { return source ? source->size() : 0; }
};

} // namespace ts
