#include "checkpoint/CheckpointLocator.h"

#include "checkpoint/DiffusersLayout.h"
#include "checkpoint/FolderModels.h"
#include "checkpoint/RemoteLayout.h"
#include "io/RemoteLocation.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace ts {

Result<CheckpointLayout> CheckpointLocator::locate(const QString& location)
{
    if (RemoteLocation::isRemote(location))
        return RemoteLayout::locate(location);
    const QFileInfo info(location);
    if (!info.exists() && FolderModels::isShardSetPattern(info.fileName()) && info.dir().exists())
        return locateShardSet(location);
    if (!info.exists())
        return makeError(ErrorCode::IoError, location, QStringLiteral("the file does not exist"));
    if (info.isDir())
        return locateFolder(location);
    if (location.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        return locateIndex(location, Checkpoint::Kind::IndexedShards);
    CheckpointLayout layout;
    layout.kind = Checkpoint::Kind::SingleFile;
    layout.origin = location;
    layout.parts << location;
    return layout;
}

Result<CheckpointLayout> CheckpointLocator::locateFolder(const QString& folder)
{
    const QDir dir(folder);
    const std::vector<FolderModel> models = FolderModels::list(folder);
    // A diffusers pipeline keeps its weights in component folders: open the component the Hub
    // counts for it (the transformer or the UNet); the summary lists the others.
    if (models.empty() && DiffusersLayout::isPipeline(folder)) {
        if (const QString main = DiffusersLayout::mainWeights(folder); !main.isEmpty())
            return locate(main);
    }
    if (models.empty())
        return makeError(ErrorCode::NotAFile, folder,
                         QStringLiteral("the folder holds no .safetensors file"));
    // transformers' own choice when a folder has several: model.safetensors.index.json.
    const QString preferred = QStringLiteral("model.safetensors.index.json");
    const bool hasPreferred = std::any_of(models.begin(), models.end(), [&](const FolderModel& m) {
        return m.kind == FolderModel::Kind::Index && m.label == preferred;
    });
    if (hasPreferred)
        return locateIndex(dir.filePath(preferred), Checkpoint::Kind::FolderOfShards);
    if (models.size() > 1) {
        QStringList labels;
        for (std::size_t i = 0; i < models.size() && i < 8; ++i)
            labels << models[i].label;
        if (models.size() > 8)
            labels << QStringLiteral("%1 more").arg(models.size() - 8);
        return makeError(
            ErrorCode::SeveralModels, folder,
            QStringLiteral("the folder holds %1 models, not the shards of one (%2); open one of them, "
                           "a shard set by its pattern path")
                .arg(models.size())
                .arg(labels.join(QStringLiteral("; "))));
    }
    return locateModel(models.front(), folder);
}

Result<CheckpointLayout> CheckpointLocator::locateShardSet(const QString& pattern)
{
    const QFileInfo info(pattern);
    const QString folder = info.dir().path();
    for (const FolderModel& model : FolderModels::list(folder)) {
        if (model.kind == FolderModel::Kind::ShardSet &&
            QFileInfo(model.location).fileName() == info.fileName())
            return locateModel(model, pattern);
    }
    return makeError(ErrorCode::IoError, pattern,
                     QStringLiteral("the folder holds no shard named like %1").arg(info.fileName()));
}

Result<CheckpointLayout> CheckpointLocator::locateModel(const FolderModel& model, const QString& origin)
{
    if (model.kind == FolderModel::Kind::Index)
        return locateIndex(model.files.front(), Checkpoint::Kind::FolderOfShards);
    if (!model.missing.isEmpty()) {
        return makeError(
            ErrorCode::ShardMissing, origin,
            QStringLiteral("%1 of the %2 shards named %3 are missing: %4")
                .arg(model.missing.size())
                .arg(model.files.size())
                .arg(model.label.section(QLatin1Char(' '), 0, 0), model.missing.join(QStringLiteral(", "))));
    }
    CheckpointLayout layout;
    layout.kind = model.kind == FolderModel::Kind::ShardSet ? Checkpoint::Kind::FolderOfShards
                                                            : Checkpoint::Kind::SingleFile;
    layout.origin = origin;
    layout.parts = model.files;
    return layout;
}

Result<CheckpointLayout> CheckpointLocator::locateIndex(const QString& indexPath, Checkpoint::Kind kind)
{
    auto index = ShardIndex::load(indexPath);
    if (!index)
        return index.error();
    // ShardIndex::parse allows plain file names only, so every shard is in the index's folder.
    const QDir dir = QFileInfo(indexPath).dir();
    CheckpointLayout layout;
    layout.kind = kind;
    layout.origin = kind == Checkpoint::Kind::FolderOfShards ? dir.path() : indexPath;
    layout.indexLocation = indexPath;
    for (const QString& shardName : index->shardFiles) {
        const QString shardPath = dir.filePath(shardName);
        if (!QFileInfo::exists(shardPath)) {
            return makeError(
                ErrorCode::ShardMissing, indexPath,
                QStringLiteral("shard \"%1\" listed in the index does not exist").arg(shardName));
        }
        layout.parts << shardPath;
    }
    layout.shardIndex = std::move(index.value());
    return layout;
}

} // namespace ts
