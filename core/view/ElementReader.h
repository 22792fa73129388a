#pragma once

#include "base/Result.h"
#include "format/TensorInfo.h"
#include "io/TensorLocation.h"

#include <cstdint>
#include <vector>

namespace ts {

// Decodes a few elements of a tensor on demand (the value grid's visible cells, a heatmap row)
// through ByteSource::read, so a file truncated under us gives an Error, never SIGBUS. Any dtype;
// C64 gives the real part, as decode::element does.
class ElementReader {
public:
    ElementReader(TensorLocation location, TensorInfo info);

    // Elements [first, first + count) as doubles.
    Result<std::vector<double>> read(std::uint64_t first, std::uint64_t count) const;
    Result<double> at(std::uint64_t index) const;
    const TensorInfo& info() const { return m_info; }

private:
    TensorLocation m_location;
    TensorInfo m_info;
};

} // namespace ts
