#pragma once

#include "format/Dtype.h"
#include "format/Shape.h"

#include <QString>

#include <cstdint>

namespace ts {

// A tensor as a header describes it. Offsets are relative to the start of the data buffer, as in
// the file; where the bytes really are is a TensorLocation's business.
struct TensorInfo {
    QString name;
    Dtype dtype = Dtype::F32;
    Shape shape;
    std::uint64_t begin = 0;
    std::uint64_t end = 0;

    std::uint64_t byteSize() const { return end - begin; }
    // Product of the shape. Only call on validated tensors: validation rejects overflow.
    std::uint64_t elementCount() const;
    QString shapeString() const; // "[4096, 4096]"; bounded (see formatShape)
    // The same tensor as a vector of elementCount() elements: all that element readers use, and
    // cheap to copy where the shape is not (rank 49 M is 392 MB).
    TensorInfo flattened() const;
};

} // namespace ts
