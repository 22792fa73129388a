#include "checkpoint/Checkpoint.h"

#include "checkpoint/FolderModels.h"

#include "write/SaveLeftovers.h"

#include <QDir>
#include <QFileInfo>
#include <QSet>

namespace ts {

QString Checkpoint::displayName() const
{
    const QFileInfo info(m_path);
    if (m_kind == Kind::IndexedShards)
        return info.dir().dirName() + QLatin1Char('/') + info.fileName();
    return info.fileName().isEmpty() ? m_path : info.fileName();
}

const std::optional<Metadata>& Checkpoint::metadata() const
{
    static const std::optional<Metadata> none;
    return m_shards.empty() ? none : m_shards.front()->header().metadata;
}

QStringList Checkpoint::files() const
{
    QStringList paths;
    for (const auto& shard : m_shards)
        paths << shard->path();
    if (!m_indexPath.isEmpty())
        paths << m_indexPath;
    return paths;
}

TensorLocation Checkpoint::location(int tensor) const
{
    const CheckpointTensor& t = m_tensors[static_cast<std::size_t>(tensor)];
    return m_shards[static_cast<std::size_t>(t.shard)]->location(t.info);
}

std::uint64_t Checkpoint::totalFileBytes() const
{
    std::uint64_t sum = 0;
    for (const auto& s : m_shards)
        sum += s->fileSize();
    return sum;
}

std::uint64_t Checkpoint::totalTensorBytes() const
{
    std::uint64_t sum = 0;
    for (const auto& s : m_shards)
        sum += s->header().dataSize();
    return sum;
}

std::uint64_t Checkpoint::totalParameters() const
{
    std::uint64_t sum = 0;
    for (const CheckpointTensor& t : m_tensors)
        sum += t.info.elementCount();
    return sum;
}

std::uint64_t Checkpoint::headerBytes() const
{
    std::uint64_t sum = 0;
    for (const auto& s : m_shards)
        sum += s->header().dataOffset();
    return sum;
}

bool Checkpoint::changedOnDisk() const
{
    for (const auto& s : m_shards) {
        if (s->source()->changedOnDisk())
            return true;
    }
    return false;
}

std::shared_ptr<const Checkpoint> Checkpoint::fromFile(std::shared_ptr<const SafetensorsFile> file)
{
    std::shared_ptr<Checkpoint> model(new Checkpoint());
    model->m_kind = Kind::SingleFile;
    model->m_path = file->path();
    (void)model->addShard(std::move(file)); // a single file cannot clash with itself
    return model;
}

Result<void> Checkpoint::addShard(std::shared_ptr<const SafetensorsFile> file)
{
    const int shard = static_cast<int>(m_shards.size());
    const bool prefix = m_kind != Kind::SingleFile;
    const QString shardName = QFileInfo(file->path()).fileName();
    m_tensors.reserve(m_tensors.size() + file->tensors().size());
    m_byName.reserve(static_cast<qsizetype>(m_tensors.size() + file->tensors().size()));
    for (const TensorInfo& t : file->tensors()) {
        if (auto it = m_byName.constFind(t.name); it != m_byName.constEnd()) {
            const QString other =
                QFileInfo(m_shards[static_cast<std::size_t>(m_tensors[*it].shard)]->path()).fileName();
            return makeError(ErrorCode::DuplicateTensor, m_path,
                             QStringLiteral("tensor \"%1\" is in two shards, \"%2\" and \"%3\"")
                                 .arg(t.name, other, shardName),
                             t.name);
        }
        m_byName.insert(t.name, static_cast<int>(m_tensors.size()));
        m_tensors.push_back(CheckpointTensor{t, shard});
    }
    std::vector<Diagnostic> found = file->header().warnings;
    for (Diagnostic& d : SaveLeftovers::diagnose(file->path()))
        found.push_back(std::move(d));
    for (Diagnostic& d : found) {
        if (prefix)
            d.message = shardName + QStringLiteral(": ") + d.message;
        m_warnings.push_back(std::move(d));
    }
    m_shards.push_back(std::move(file));
    return {};
}

Result<std::shared_ptr<const Checkpoint>> Checkpoint::open(const QString& path)
{
    const QFileInfo info(path);
    if (!info.exists())
        return makeError(ErrorCode::IoError, path, QStringLiteral("the file does not exist"));
    if (info.isDir())
        return openFolder(path);
    if (path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        return openIndex(path, Kind::IndexedShards);
    auto file = SafetensorsFile::open(path);
    if (!file)
        return file.error();
    return fromFile(std::move(file.value()));
}

Result<std::shared_ptr<const Checkpoint>> Checkpoint::openFolder(const QString& folder)
{
    const QDir dir(folder);
    const std::vector<FolderModel> models = FolderModels::list(folder);
    if (models.empty())
        return makeError(ErrorCode::NotAFile, folder,
                         QStringLiteral("the folder holds no .safetensors file"));
    // transformers' own choice when a folder has several: model.safetensors.index.json.
    const QString preferred = QStringLiteral("model.safetensors.index.json");
    const bool hasPreferred = std::any_of(models.begin(), models.end(), [&](const FolderModel& m) {
        return m.kind == FolderModel::Kind::Index && m.label == preferred;
    });
    if (hasPreferred)
        return openIndex(dir.filePath(preferred), Kind::FolderOfShards);
    if (models.size() > 1) {
        QStringList labels;
        for (std::size_t i = 0; i < models.size() && i < 8; ++i)
            labels << models[i].label;
        if (models.size() > 8)
            labels << QStringLiteral("%1 more").arg(models.size() - 8);
        return makeError(
            ErrorCode::SeveralModels, folder,
            QStringLiteral("the folder holds %1 models, not the shards of one (%2); open one of them")
                .arg(models.size())
                .arg(labels.join(QStringLiteral("; "))));
    }
    const FolderModel& only = models.front();
    if (only.kind == FolderModel::Kind::Index)
        return openIndex(only.files.front(), Kind::FolderOfShards);
    if (!only.missing.isEmpty()) {
        return makeError(
            ErrorCode::ShardMissing, folder,
            QStringLiteral("%1 of the %2 shards named %3 are missing: %4")
                .arg(only.missing.size())
                .arg(only.files.size())
                .arg(only.label.section(QLatin1Char(' '), 0, 0), only.missing.join(QStringLiteral(", "))));
    }
    std::shared_ptr<Checkpoint> model(new Checkpoint());
    model->m_kind = only.kind == FolderModel::Kind::ShardSet ? Kind::FolderOfShards : Kind::SingleFile;
    model->m_path = folder;
    for (const QString& path : only.files) {
        auto file = SafetensorsFile::open(path);
        if (!file)
            return file.error();
        if (auto r = model->addShard(std::move(file.value())); !r)
            return r.error();
    }
    return std::shared_ptr<const Checkpoint>(std::move(model));
}

Result<std::shared_ptr<const Checkpoint>> Checkpoint::openIndex(const QString& indexPath, Kind kind)
{
    auto index = ShardIndex::load(indexPath);
    if (!index)
        return index.error();
    const QDir dir = QFileInfo(indexPath).dir();
    std::shared_ptr<Checkpoint> model(new Checkpoint());
    model->m_kind = kind;
    model->m_path = kind == Kind::FolderOfShards ? dir.path() : indexPath;
    for (const QString& shardName : index->shardFiles) {
        const QString shardPath = dir.filePath(shardName);
        if (!QFileInfo::exists(shardPath)) {
            return makeError(
                ErrorCode::ShardMissing, indexPath,
                QStringLiteral("shard \"%1\" listed in the index does not exist").arg(shardName));
        }
        auto file = SafetensorsFile::open(shardPath);
        if (!file)
            return file.error();
        if (auto r = model->addShard(std::move(file.value())); !r)
            return r.error();
    }
    // Both directions: what the index promises must be where it says, and nothing more.
    for (const auto& [name, shardName] : index->weightMap) {
        const int i = model->indexOf(name);
        const QString actual = i < 0 ? QString()
                                     : QFileInfo(model
                                                     ->m_shards[static_cast<std::size_t>(
                                                         model->m_tensors[static_cast<std::size_t>(i)].shard)]
                                                     ->path())
                                           .fileName();
        if (actual != shardName) {
            return makeError(
                ErrorCode::ShardMismatch, indexPath,
                QStringLiteral("the index places tensor \"%1\" in \"%2\", but that shard does not hold it")
                    .arg(name, shardName),
                name);
        }
    }
    if (index->weightMap.size() != model->m_tensors.size()) {
        QSet<QString> listed;
        for (const auto& entry : index->weightMap)
            listed.insert(entry.first);
        for (const CheckpointTensor& t : model->m_tensors) {
            if (!listed.contains(t.info.name)) {
                const QString shardName =
                    QFileInfo(model->m_shards[static_cast<std::size_t>(t.shard)]->path()).fileName();
                return makeError(
                    ErrorCode::ShardMismatch, indexPath,
                    QStringLiteral("shard \"%1\" holds tensor \"%2\", which the index does not list")
                        .arg(shardName, t.info.name),
                    t.info.name);
            }
        }
    }
    if (index->totalSize && *index->totalSize != model->totalTensorBytes()) {
        return makeError(
            ErrorCode::ShardMismatch, indexPath,
            QStringLiteral("the index says total_size is %1 bytes, but the shards' tensors add up to %2")
                .arg(*index->totalSize)
                .arg(model->totalTensorBytes()));
    }
    model->m_index = std::move(index.value());
    model->m_indexPath = indexPath;
    return std::shared_ptr<const Checkpoint>(std::move(model));
}

} // namespace ts
