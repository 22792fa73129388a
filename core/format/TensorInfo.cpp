#include "format/TensorInfo.h"

#include "base/Format.h"

namespace ts {

std::uint64_t TensorInfo::elementCount() const
{
    std::uint64_t n = 1;
    for (const std::uint64_t d : shape)
        n *= d;
    return n;
}

QString TensorInfo::shapeString() const
{
    return formatShape(shape);
}

TensorInfo TensorInfo::flattened() const
{
    return TensorInfo{name, dtype, {elementCount()}, begin, end};
}

} // namespace ts
