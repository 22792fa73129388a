#pragma once

#include <cstdint>
#include <vector>

namespace ts {

// A 2-D view of an N-D tensor: two axes shown as rows and columns, every other axis fixed at an
// index. Rank 1 is one row; rank 0 is a single cell.
struct PlaneSpec {
    int rowAxis = 0;
    int colAxis = 1;
    // Per axis; ignored for the two shown axes, missing entries are 0 (normalizedSpec drops the
    // zeros at the end).
    std::vector<std::uint64_t> fixed;
};

struct TensorPlane {
    std::uint64_t rows = 1;
    std::uint64_t cols = 1;
    std::uint64_t base = 0;      // flat index of cell (0, 0)
    std::uint64_t rowStride = 0; // in elements
    std::uint64_t colStride = 1;

    std::uint64_t flat(std::uint64_t row, std::uint64_t col) const
    {
        return base + row * rowStride + col * colStride;
    }
    // Index of cell (row, col) along every axis of the tensor.
    std::vector<std::uint64_t> coordinates(const std::vector<std::uint64_t>& shape, const PlaneSpec& spec,
                                           std::uint64_t row, std::uint64_t col) const;
};

// A spec with out-of-range axes or indices is clamped to the nearest valid one rather than refused:
// it comes from spin boxes that may lag a newly selected tensor by one event.
PlaneSpec normalizedSpec(const std::vector<std::uint64_t>& shape, PlaneSpec spec);
TensorPlane makePlane(const std::vector<std::uint64_t>& shape, const PlaneSpec& spec);

} // namespace ts
