#include "diff/FlatIndex.h"

#include "base/Format.h"

#include <QStringList>

namespace ts::diff {

std::vector<std::uint64_t> unflattenIndex(const Shape& shape, std::uint64_t index)
{
    std::vector<std::uint64_t> at(shape.size(), 0);
    for (std::size_t k = shape.size(); k-- > 0;) {
        const std::uint64_t dim = shape[k];
        if (dim == 0)
            return std::vector<std::uint64_t>(shape.size(), 0);
        at[k] = index % dim;
        index /= dim;
    }
    return at;
}

QString indexText(const Shape& shape, std::uint64_t index)
{
    if (shape.size() > kShapeDimsShown)
        return QStringLiteral("flat index %1").arg(index);
    QStringList parts;
    for (std::uint64_t i : unflattenIndex(shape, index))
        parts << QString::number(i);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

} // namespace ts::diff
