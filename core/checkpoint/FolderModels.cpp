#include "checkpoint/FolderModels.h"

#include "base/NaturalOrder.h"
#include "format/ShardIndex.h"

#include <QDir>
#include <QMap>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace ts {

bool FolderModels::parseShardName(const QString& fileName, QString* stem, int* number, int* total)
{
    // The writer's naming (transformers' and diffusers' save_pretrained): five digits each.
    static const QRegularExpression pattern(QStringLiteral("^(.+)-(\\d{5})-of-(\\d{5})\\.safetensors$"));
    const QRegularExpressionMatch m = pattern.match(fileName);
    if (!m.hasMatch())
        return false;
    const int n = m.captured(2).toInt();
    const int t = m.captured(3).toInt();
    if (n < 1 || t < 1 || n > t)
        return false;
    *stem = m.captured(1);
    *number = n;
    *total = t;
    return true;
}

bool FolderModels::isShardSetPattern(const QString& fileName)
{
    static const QRegularExpression pattern(QStringLiteral("^.+-\\*-of-\\d{5}\\.safetensors$"));
    return pattern.match(fileName).hasMatch();
}

std::vector<FolderModel> FolderModels::list(const QString& folder)
{
    const QDir dir(folder);
    std::vector<FolderModel> indexes, sets, singles;
    QSet<QString> claimed; // file names an index lists
    for (const QString& name : dir.entryList({QStringLiteral("*.safetensors.index.json")}, QDir::Files)) {
        FolderModel m;
        m.kind = FolderModel::Kind::Index;
        m.label = name;
        m.files << dir.filePath(name);
        m.location = m.files.front();
        // An index that does not load is still listed: opening it gives its own error.
        if (auto index = ShardIndex::load(dir.filePath(name)))
            for (const QString& shard : index->shardFiles)
                claimed.insert(shard);
        indexes.push_back(std::move(m));
    }
    QMap<QString, std::vector<std::pair<int, QString>>> groups; // "stem|total" -> (number, name)
    for (const QString& name : dir.entryList({QStringLiteral("*.safetensors")}, QDir::Files)) {
        if (claimed.contains(name))
            continue;
        QString stem;
        int number = 0, total = 0;
        if (parseShardName(name, &stem, &number, &total) && total > 1) {
            groups[stem + QLatin1Char('|') + QString::number(total)].push_back({number, name});
            continue;
        }
        FolderModel m;
        m.label = name;
        m.files << dir.filePath(name);
        m.location = m.files.front();
        singles.push_back(std::move(m));
    }
    for (auto it = groups.begin(); it != groups.end(); ++it) {
        const QString stem = it.key().section(QLatin1Char('|'), 0, 0);
        const int total = it.key().section(QLatin1Char('|'), 1).toInt();
        std::vector<std::pair<int, QString>>& present = it.value();
        std::sort(present.begin(), present.end());
        FolderModel m;
        m.kind = FolderModel::Kind::ShardSet;
        m.label = QStringLiteral("%1-*-of-%2.safetensors (%3 shards)")
                      .arg(stem, QStringLiteral("%1").arg(total, 5, 10, QLatin1Char('0')))
                      .arg(total);
        m.location = dir.filePath(m.label.section(QLatin1Char(' '), 0, 0));
        std::size_t k = 0;
        for (int n = 1; n <= total; ++n) {
            const QString name = QStringLiteral("%1-%2-of-%3.safetensors")
                                     .arg(stem, QStringLiteral("%1").arg(n, 5, 10, QLatin1Char('0')),
                                          QStringLiteral("%1").arg(total, 5, 10, QLatin1Char('0')));
            m.files << dir.filePath(name);
            if (k < present.size() && present[k].first == n)
                ++k;
            else
                m.missing << name;
        }
        sets.push_back(std::move(m));
    }
    auto byLabel = [](const FolderModel& a, const FolderModel& b) { return naturalLess(a.label, b.label); };
    std::sort(indexes.begin(), indexes.end(), byLabel);
    std::sort(sets.begin(), sets.end(), byLabel);
    std::sort(singles.begin(), singles.end(), byLabel);
    std::vector<FolderModel> out = std::move(indexes);
    out.insert(out.end(), sets.begin(), sets.end());
    out.insert(out.end(), singles.begin(), singles.end());
    return out;
}

} // namespace ts
