#pragma once

#include "base/Result.h"
#include "format/Header.h"
#include "format/Shape.h"

namespace ts {

// The reference's layout checks (SPEC-NOTES 2.6-2.7), in its order: tensors sorted by
// (begin, end) with ties in header order, then per tensor contiguity, shape overflow, sub-byte
// alignment and size, then full coverage of the file. Sorts `header.tensors` into data order and
// adds layout warnings (unaligned offsets, unpadded header, non-canonical order).
Result<void> validateLayout(Header& header, std::uint64_t fileSize, const QString& file);

// Checked product of a shape, left to right as the reference does; nullopt on overflow.
std::optional<std::uint64_t> checkedElementCount(const Shape& shape);

} // namespace ts
