#include "architecture/ModelProfile.h"

#include "architecture/ArchitectureDetector.h"
#include "checkpoint/Checkpoint.h"
#include "checkpoint/DiffusersLayout.h"

#include <QDir>
#include <QFileInfo>

namespace ts {
namespace {

QString canonical(const QString& path)
{
    const QFileInfo info(path);
    const QString c = info.canonicalFilePath();
    return c.isEmpty() ? info.absoluteFilePath() : c;
}

// kohya writes the rank and alpha it trained with into the metadata; a file whose tensors say
// otherwise was resized or merged without the metadata following.
void compareKohyaMetadata(const Architecture& a, const std::optional<Metadata>& metadata,
                          ConfigCheckResult& into)
{
    if (!a.adapter || !metadata)
        return;
    auto warn = [&](const QString& message) {
        Diagnostic d;
        d.code = QStringLiteral("AdapterMetadataMismatch");
        d.severity = Severity::Warning;
        d.message = message;
        into.findings.push_back(std::move(d));
    };
    if (const auto dim = metadata->value(QStringLiteral("ss_network_dim"));
        dim && a.adapter->ranks.size() == 1) {
        bool ok = false;
        const qulonglong n = dim->toULongLong(&ok);
        if (ok && n != a.adapter->ranks.front())
            warn(QStringLiteral("ss_network_dim says rank %1, but every lora_down has %2 rows")
                     .arg(n)
                     .arg(a.adapter->ranks.front()));
    }
    if (const auto alpha = metadata->value(QStringLiteral("ss_network_alpha"));
        alpha && a.adapter->alpha && a.adapter->alphaSource == QLatin1String("alpha tensors")) {
        bool ok = false;
        const double v = alpha->toDouble(&ok);
        if (ok && v != *a.adapter->alpha)
            warn(QStringLiteral("ss_network_alpha says %1, but the alpha tensors hold %2")
                     .arg(v)
                     .arg(*a.adapter->alpha));
    }
}

std::vector<PipelinePart> pipelineOf(const QString& folder, const Checkpoint& opened)
{
    std::vector<PipelinePart> parts;
    QStringList openedParts;
    for (const CheckpointPart& p : opened.parts())
        openedParts << canonical(p.localPath);
    for (const DiffusersComponent& c : DiffusersLayout::components(folder)) {
        PipelinePart part;
        part.name = c.name;
        part.type = c.type;
        part.weights = c.weights;
        if (!c.weights.isEmpty()) {
            auto checkpoint = Checkpoint::open(c.weights);
            if (!checkpoint) {
                part.problem = checkpoint.error().message;
            } else {
                const Checkpoint& cp = *checkpoint.value();
                QStringList files;
                for (const CheckpointPart& p : cp.parts())
                    files << canonical(p.localPath);
                part.opened = files == openedParts;
                const Architecture a = ArchitectureDetector::detect(cp);
                part.family = a.family;
                part.architecture = a.name;
                part.parameters = cp.totalParameters();
            }
        }
        parts.push_back(std::move(part));
    }
    return parts;
}

} // namespace

std::vector<Diagnostic> ModelProfile::findings() const
{
    std::vector<Diagnostic> all = architecture.findings;
    all.insert(all.end(), config.findings.begin(), config.findings.end());
    return all;
}

QString ModelProfiler::configBeside(const Checkpoint& checkpoint)
{
    if (checkpoint.parts().empty() || checkpoint.parts().front().localPath.isEmpty())
        return {};
    const QDir dir = QFileInfo(checkpoint.parts().front().localPath).absoluteDir();
    for (const QString& name : {QStringLiteral("config.json"), QStringLiteral("adapter_config.json")}) {
        if (QFileInfo(dir.filePath(name)).isFile())
            return dir.filePath(name);
    }
    return {};
}

ModelProfile ModelProfiler::profile(const Checkpoint& checkpoint, const QString& opened)
{
    ModelProfile p;
    p.architecture = ArchitectureDetector::detect(checkpoint);
    p.hub = HubParameterCounter::forLocation(opened, &checkpoint);
    if (const QString config = configBeside(checkpoint); !config.isEmpty())
        p.config = ConfigCheck::compareFile(p.architecture, config);
    compareKohyaMetadata(p.architecture, checkpoint.metadata(), p.config);
    // A pipeline: the folder opened, or the folder around the component opened.
    QString folder = QFileInfo(opened).isDir() ? QFileInfo(opened).absoluteFilePath() : QString();
    if (folder.isEmpty() && !checkpoint.parts().empty()) {
        QDir up = QFileInfo(checkpoint.parts().front().localPath).absoluteDir();
        if (up.cdUp())
            folder = up.absolutePath();
    }
    if (!folder.isEmpty() && DiffusersLayout::isPipeline(folder))
        p.pipeline = pipelineOf(folder, checkpoint);
    return p;
}

} // namespace ts
