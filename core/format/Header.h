#pragma once

#include "base/Diagnostic.h"
#include "format/Metadata.h"
#include "format/TensorInfo.h"

#include <QByteArray>

#include <cstdint>
#include <optional>
#include <vector>

namespace ts {

// A parsed and validated header: what a file declares.
struct Header {
    std::uint64_t headerLength = 0;   // N, the length prefix
    std::vector<TensorInfo> tensors;  // in data-offset order, as validated
    std::optional<Metadata> metadata; // nullopt when absent (or null); an empty map is kept
    std::vector<Diagnostic> warnings; // parser differentials and layout oddities

    std::uint64_t dataOffset() const { return 8 + headerLength; } // absolute start of the data buffer
    std::uint64_t dataSize() const { return tensors.empty() ? 0 : tensors.back().end; }
};

} // namespace ts
