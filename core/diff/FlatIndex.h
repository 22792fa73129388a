#pragma once

#include "format/Shape.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace ts::diff {

// Row-major coordinates of flat element `index` in `shape` (empty for a scalar).
std::vector<std::uint64_t> unflattenIndex(const Shape& shape, std::uint64_t index);
// "[12, 7]" for element 12 * cols + 7 of a matrix; "flat index N" past 32 dimensions.
QString indexText(const Shape& shape, std::uint64_t index);

} // namespace ts::diff
