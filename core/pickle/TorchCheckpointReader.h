#pragma once

#include "base/Result.h"
#include "io/ByteSource.h"
#include "pickle/PickleLimits.h"
#include "pickle/TorchContents.h"

#include <QString>

namespace ts::pickle {

enum class PickleFormat { None, Zip, Tar, Pickle };

// Which reader torch.load would use for these bytes, decided as torch/serialization.py decides:
// "PK\x03\x04" at byte 0 is the zip layout; otherwise a tar header with a valid checksum is the
// tar layout; otherwise the file is read as stacked pickles. `None` when the bytes look like a
// safetensors file, or like no pickle (a PROTO opcode or, for the PyTorch extensions .bin .pt
// .pth .ckpt .pkl .pickle, any opcode torch's old writers start with).
PickleFormat sniffPickleFormat(const ByteSource& source, const QString& path);

// Reads a PyTorch checkpoint (zip, legacy or tar layout, TorchScript, or a plain pickle)
// without running any of it. Fails only on I/O errors and files no reader could start on; every
// other problem, including a pickle that breaks half way, is a finding in `audit`.
Result<TorchContents> readTorchCheckpoint(const ByteSource& source, const PickleLimits& limits = {});

} // namespace ts::pickle
