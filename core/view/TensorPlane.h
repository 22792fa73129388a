#pragma once

#include "format/Shape.h"

#include <cstdint>
#include <optional>
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
    std::vector<std::uint64_t> coordinates(const Shape& shape, const PlaneSpec& spec, std::uint64_t row,
                                           std::uint64_t col) const;
};

// A spec with out-of-range axes or indices is clamped to the nearest valid one rather than refused:
// it comes from spin boxes that may lag a newly selected tensor by one event.
PlaneSpec normalizedSpec(const Shape& shape, PlaneSpec spec);
TensorPlane makePlane(const Shape& shape, const PlaneSpec& spec);

// Where row-major element `flat` shows: the plane of the last two axes that holds it (rank 1: the
// one row) and its cell there, normalized. Nullopt for a scalar or past the end. An audit finding
// and the anomaly walk open elements here, so the value grid and the heatmap agree on the plane.
struct PlaneCell {
    PlaneSpec spec;
    std::uint64_t row = 0;
    std::uint64_t col = 0;
};
std::optional<PlaneCell> planeCellOf(const Shape& shape, std::uint64_t flat);
// Whether two specs show the same cells of a tensor of `shape` (they may differ in ignored entries).
bool samePlane(const Shape& shape, const PlaneSpec& a, const PlaneSpec& b);

} // namespace ts
