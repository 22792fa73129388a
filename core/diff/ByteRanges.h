#pragma once

#include "analysis/TensorBlockReader.h"
#include "base/JobControl.h"
#include "base/Result.h"
#include "io/TensorLocation.h"

#include <QString>

#include <cstdint>

namespace ts::diff {

// Whether bytes [from, from + length) of two tensors are equal, at memory speed: straight from the
// mappings when both sources offer views (each piece checked with checkView() before its verdict
// counts, so a file truncated under us is an Error and never "differs"), else through reads into
// two buffers. Pages are released as they are passed. Stops at the first piece that differs.
Result<bool> sameBytes(const TensorLocation& a, const QString& nameA, const TensorLocation& b,
                       const QString& nameB, std::uint64_t from, std::uint64_t length,
                       const JobControl& control);

// The 64-bit xxHash3 of a tensor's bytes, to find the same content under another name.
Result<std::uint64_t> contentHash(const TensorLocation& location, const QString& name,
                                  const JobControl& control);

} // namespace ts::diff
