#include "view/LayerGroups.h"

#include <QMap>
#include <QStringList>

#include <algorithm>

namespace ts {

std::vector<LayerFamily> layerFamilies(const std::vector<QString>& names)
{
    QMap<QString, LayerFamily> byPattern;
    for (std::size_t i = 0; i < names.size(); ++i) {
        QStringList segments = names[i].split(QLatin1Char('.'));
        for (QString& segment : segments) {
            qsizetype digits = 0;
            while (digits < segment.size() && segment.at(segment.size() - 1 - digits).isDigit())
                ++digits;
            // A block number is short; a 12-digit segment is an id, not a layer.
            if (digits == 0 || digits > 6)
                continue;
            const int block = segment.right(digits).toInt();
            segment = segment.left(segment.size() - digits) + QLatin1Char('#');
            const QString pattern = segments.join(QLatin1Char('.'));
            LayerFamily& family = byPattern[pattern];
            family.pattern = pattern;
            family.members.push_back({block, static_cast<int>(i)});
            break;
        }
    }
    std::vector<LayerFamily> out;
    for (LayerFamily& family : byPattern) {
        std::sort(family.members.begin(), family.members.end(),
                  [](const LayerMember& a, const LayerMember& b) { return a.block < b.block; });
        if (family.members.size() >= 2)
            out.push_back(std::move(family));
    }
    return out;
}

} // namespace ts
