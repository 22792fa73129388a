#include "hub/HubWeights.h"

#include "checkpoint/DiffusersLayout.h"

#include <QDir>
#include <QFileInfo>

namespace ts {
namespace {

QString existing(const QDir& dir, const QString& name)
{
    const QFileInfo info(dir.filePath(name));
    return info.isFile() ? info.absoluteFilePath() : QString();
}

} // namespace

HubWeights HubWeightsLocator::locate(const QString& opened)
{
    HubWeights hub;
    const QFileInfo info(opened);
    if (info.isDir()) {
        const QDir dir(info.absoluteFilePath());
        hub.root = dir.absolutePath();
        hub.diffusers = DiffusersLayout::isDiffusers(hub.root);
        // The conventional root files first, whatever the library.
        for (const QString& name :
             {QStringLiteral("model.safetensors"), QStringLiteral("model.safetensors.index.json")}) {
            if (QString found = existing(dir, name); !found.isEmpty()) {
                hub.weights = found;
                hub.rule = QStringLiteral("the Hub counts the repository's root %1").arg(name);
                break;
            }
        }
        if (!hub.found() && hub.diffusers) {
            hub.weights = DiffusersLayout::mainWeights(hub.root);
            if (hub.found())
                hub.rule =
                    QStringLiteral("a diffusers repository: the Hub counts the diffusion model (%1) alone, "
                                   "not the VAE or the text encoders")
                        .arg(dir.relativeFilePath(hub.weights));
        }
        if (!hub.found())
            hub.rule =
                hub.diffusers
                    ? QStringLiteral("the Hub finds no weights it counts here (no model.safetensors, no "
                                     "transformer/ or unet/ weights)")
                    : QStringLiteral("the Hub finds no weights it counts here (no model.safetensors or "
                                     "model.safetensors.index.json at the root)");
    } else {
        hub.weights = info.absoluteFilePath();
        QDir dir = info.absoluteDir();
        // A diffusers component (unet/diffusion_pytorch_model.safetensors): the pipeline is the repository.
        QDir parent = dir;
        if (parent.cdUp() && DiffusersLayout::isPipeline(parent.absolutePath()))
            dir = parent;
        hub.root = dir.absolutePath();
        hub.diffusers = DiffusersLayout::isDiffusers(hub.root);
        hub.rule = opened.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)
                       ? QStringLiteral(
                             "the index opened and the shards it names, as the Hub reads a path it is given")
                       : QStringLiteral("the file opened, as the Hub reads a path it is given");
    }
    hub.config = QDir(hub.root).filePath(QStringLiteral("config.json"));
    if (hub.found())
        hub.relative = QDir(hub.root).relativeFilePath(hub.weights);
    return hub;
}

} // namespace ts
