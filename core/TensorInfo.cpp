#include "TensorInfo.h"

#include <QStringList>

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
    QStringList parts;
    parts.reserve(static_cast<qsizetype>(shape.size()));
    for (const std::uint64_t d : shape)
        parts << QString::number(d);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

} // namespace ts
