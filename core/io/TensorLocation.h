#pragma once

#include "io/ByteSource.h"

#include <cstdint>
#include <memory>

namespace ts {

// Where one tensor's bytes are: a source and an absolute range in it. Analysis and conversion
// take this, so they work the same on a mapped file, a zip member or a remote range.
struct TensorLocation {
    std::shared_ptr<const ByteSource> source;
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
};

} // namespace ts
