#include "checkpoint/DiffusersLayout.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace ts {
namespace {

// model_index.json and config.json are a few KB; a larger one is not read.
constexpr qint64 kMaxJsonBytes = 10 * 1024 * 1024;

QJsonObject readObject(const QString& path)
{
    QFile f(path);
    if (f.size() > kMaxJsonBytes || !f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

QString firstExisting(const QDir& dir, const QStringList& names)
{
    for (const QString& name : names) {
        const QFileInfo info(dir.filePath(name));
        if (info.isFile())
            return info.absoluteFilePath();
    }
    return {};
}

const QString kDiffusersFile = QStringLiteral("diffusion_pytorch_model.safetensors");
const QString kDiffusersIndex = QStringLiteral("diffusion_pytorch_model.safetensors.index.json");

} // namespace

bool DiffusersLayout::isPipeline(const QString& folder)
{
    return QFileInfo(QDir(folder).filePath(QStringLiteral("model_index.json"))).isFile();
}

bool DiffusersLayout::isDiffusers(const QString& folder)
{
    if (isPipeline(folder))
        return true;
    const QJsonObject config = readObject(QDir(folder).filePath(QStringLiteral("config.json")));
    return config.contains(QLatin1String("_class_name")) &&
           config.contains(QLatin1String("_diffusers_version"));
}

std::vector<DiffusersComponent> DiffusersLayout::components(const QString& folder)
{
    std::vector<DiffusersComponent> result;
    const QDir dir(folder);
    const QJsonObject index = readObject(dir.filePath(QStringLiteral("model_index.json")));
    for (auto it = index.constBegin(); it != index.constEnd(); ++it) {
        // Entries are ["library", "Class"]; keys starting with '_' are the pipeline's own fields.
        const QJsonArray spec = it.value().toArray();
        if (it.key().startsWith(QLatin1Char('_')) || spec.size() != 2 || !spec[1].isString())
            continue;
        DiffusersComponent c;
        c.name = it.key();
        c.library = spec[0].toString();
        c.type = spec[1].toString();
        // A component name is a folder of the pipeline, never a path out of it.
        if (c.name.contains(QLatin1Char('/')) || c.name.contains(QLatin1Char('\\')) ||
            c.name == QLatin1String(".."))
            continue;
        c.weights = componentWeights(dir.filePath(c.name));
        result.push_back(std::move(c));
    }
    return result;
}

QString DiffusersLayout::mainWeights(const QString& folder)
{
    const QDir dir(folder);
    for (const QString& sub : {QStringLiteral("transformer"), QStringLiteral("unet")}) {
        const QString found = firstExisting(
            dir, {sub + QLatin1Char('/') + kDiffusersFile, sub + QLatin1Char('/') + kDiffusersIndex});
        if (!found.isEmpty())
            return found;
    }
    return firstExisting(dir, {kDiffusersFile, kDiffusersIndex});
}

QString DiffusersLayout::componentWeights(const QString& componentFolder)
{
    return firstExisting(QDir(componentFolder),
                         {kDiffusersFile, kDiffusersIndex, QStringLiteral("model.safetensors"),
                          QStringLiteral("model.safetensors.index.json")});
}

} // namespace ts
