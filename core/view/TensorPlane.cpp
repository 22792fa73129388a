#include "view/TensorPlane.h"

#include <algorithm>

namespace ts {

PlaneSpec normalizedSpec(const Shape& shape, PlaneSpec spec)
{
    const int rank = static_cast<int>(shape.size());
    // Zeros at the end are left out ("missing entries are 0"): a valid shape can have 49 M
    // dimensions of 1, and a vector for each of them would be 392 MB per spec.
    spec.fixed.resize(std::min(spec.fixed.size(), shape.size()));
    for (std::size_t i = 0; i < spec.fixed.size(); ++i)
        spec.fixed[i] = shape[i] == 0 ? 0 : std::min(spec.fixed[i], shape[i] - 1);
    while (!spec.fixed.empty() && spec.fixed.back() == 0)
        spec.fixed.pop_back();
    if (rank < 2) {
        spec.rowAxis = -1;
        spec.colAxis = rank == 1 ? 0 : -1;
        return spec;
    }
    spec.rowAxis = std::clamp(spec.rowAxis, 0, rank - 1);
    spec.colAxis = std::clamp(spec.colAxis, 0, rank - 1);
    if (spec.rowAxis == spec.colAxis) {
        // Two views of the same axis make no plane: take the last two axes, the natural matrix.
        spec.rowAxis = rank - 2;
        spec.colAxis = rank - 1;
    }
    return spec;
}

TensorPlane makePlane(const Shape& shape, const PlaneSpec& in)
{
    const PlaneSpec spec = normalizedSpec(shape, in);
    TensorPlane plane;
    // Row-major strides from the last axis back, one at a time: no vector the size of the rank.
    std::uint64_t stride = 1;
    for (std::size_t i = shape.size(); i-- > 0;) {
        const int axis = static_cast<int>(i);
        if (axis == spec.rowAxis)
            plane.rowStride = stride;
        else if (axis == spec.colAxis)
            plane.colStride = stride;
        else if (i < spec.fixed.size())
            plane.base += spec.fixed[i] * stride;
        stride *= shape[i];
    }
    if (spec.rowAxis >= 0)
        plane.rows = shape[static_cast<std::size_t>(spec.rowAxis)];
    if (spec.colAxis >= 0)
        plane.cols = shape[static_cast<std::size_t>(spec.colAxis)];
    // A fixed axis of length 0 leaves no element to show: [1, 3, 0] seen as rows of axis 1 and
    // columns of axis 0 is no 3 x 1 plane, there is nothing at index 0 of axis 2 (found by
    // fuzz_scan: the heatmap of such a tensor failed reading element 0 of 0).
    for (std::size_t i = 0; i < shape.size(); ++i) {
        const int axis = static_cast<int>(i);
        if (axis != spec.rowAxis && axis != spec.colAxis && shape[i] == 0)
            plane.rows = 0;
    }
    return plane;
}

std::vector<std::uint64_t> TensorPlane::coordinates(const Shape& shape, const PlaneSpec& in,
                                                    std::uint64_t row, std::uint64_t col) const
{
    const PlaneSpec spec = normalizedSpec(shape, in);
    std::vector<std::uint64_t> out = spec.fixed;
    out.resize(shape.size(), 0);
    if (spec.rowAxis >= 0)
        out[static_cast<std::size_t>(spec.rowAxis)] = row;
    if (spec.colAxis >= 0)
        out[static_cast<std::size_t>(spec.colAxis)] = col;
    return out;
}

std::optional<PlaneCell> planeCellOf(const Shape& shape, std::uint64_t flat)
{
    if (shape.empty())
        return std::nullopt;
    const std::size_t rank = shape.size();
    PlaneCell cell;
    cell.spec.rowAxis = static_cast<int>(rank) - 2;
    cell.spec.colAxis = static_cast<int>(rank) - 1;
    // From the last axis back, without a vector the size of the rank (a valid shape can have
    // 49 M dimensions of 1): only the axes before the last nonzero index get an entry.
    std::uint64_t rest = flat;
    for (std::size_t axis = rank; axis-- > 0;) {
        if (shape[axis] == 0)
            return std::nullopt;
        const std::uint64_t index = rest % shape[axis];
        rest /= shape[axis];
        if (axis == rank - 1)
            cell.col = index;
        else if (axis == rank - 2)
            cell.row = index;
        else if (index != 0) {
            if (cell.spec.fixed.size() <= axis)
                cell.spec.fixed.resize(axis + 1, 0);
            cell.spec.fixed[axis] = index;
        }
    }
    if (rest != 0) // past the end
        return std::nullopt;
    cell.spec = normalizedSpec(shape, cell.spec);
    return cell;
}

bool samePlane(const Shape& shape, const PlaneSpec& a, const PlaneSpec& b)
{
    const TensorPlane p = makePlane(shape, a);
    const TensorPlane q = makePlane(shape, b);
    return p.rows == q.rows && p.cols == q.cols && p.base == q.base && p.rowStride == q.rowStride &&
           p.colStride == q.colStride;
}

} // namespace ts
