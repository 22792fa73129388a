#include "architecture/VisionDetector.h"

#include "architecture/Fields.h"

#include <cmath>

namespace ts {
namespace {

using namespace fields;

// The square image side behind `positions` patch positions (one class token first).
std::optional<std::uint64_t> imageSide(std::optional<std::uint64_t> positions,
                                       std::optional<std::uint64_t> patch)
{
    if (!positions || !patch || *positions < 2)
        return std::nullopt;
    const auto side =
        static_cast<std::uint64_t>(std::llround(std::sqrt(static_cast<double>(*positions - 1))));
    if (side * side != *positions - 1)
        return std::nullopt;
    return side * *patch;
}

std::optional<ArchitectureComponent> vit(const NameShapes& names)
{
    const BlockRun run = names.findBlocks(QStringLiteral("attention.attention.query.weight"));
    if (run.container.isEmpty() || !run.container.endsWith(QLatin1String("encoder.layer.")))
        return std::nullopt;
    const QString prefix = run.container.left(run.container.size() - 14);
    const QString b = run.container + QString::number(run.blocks.front()) + QLatin1Char('.');
    const QString patch = prefix + QStringLiteral("embeddings.patch_embeddings.projection.weight");
    const QString positions = prefix + QStringLiteral("embeddings.position_embeddings");
    const std::optional<std::uint64_t> p = names.dim(patch, 2);
    ArchitectureComponent c;
    c.role = QStringLiteral("model");
    c.family = QStringLiteral("vit");
    c.name = QStringLiteral("Vision Transformer (ViT)");
    c.prefix = prefix;
    c.fields = {
        number(QStringLiteral("num_hidden_layers"), QStringLiteral("Layers"),
               static_cast<std::uint64_t>(run.last() + 1), blockRange(run.container, 0, run.last())),
        number(QStringLiteral("hidden_size"), QStringLiteral("Hidden size"), names.dim(patch, 0),
               QStringLiteral("patch projection output channels")),
        number(QStringLiteral("intermediate_size"), QStringLiteral("MLP size"),
               names.dim(b + QStringLiteral("intermediate.dense.weight"), 0),
               QStringLiteral("intermediate.dense rows")),
        number(QStringLiteral("patch_size"), QStringLiteral("Patch size"), p,
               QStringLiteral("patch projection kernel")),
        number(QStringLiteral("image_size"), QStringLiteral("Image size"),
               imageSide(names.dim(positions, 1), p), QStringLiteral("sqrt(positions - 1) x patch")),
        number(QStringLiteral("num_channels"), QStringLiteral("Input channels"), names.dim(patch, 1),
               QStringLiteral("patch projection input channels")),
        unknown(QStringLiteral("num_attention_heads"), QStringLiteral("Attention heads"),
                QStringLiteral("query, key and value hold all heads in one square matrix")),
    };
    if (names.has(QStringLiteral("classifier.weight")))
        c.fields.push_back(
            text(QStringLiteral("classes"), QStringLiteral("Classes"),
                 QString::number(names.dim(QStringLiteral("classifier.weight"), 0).value_or(0)),
                 QStringLiteral("classifier rows")));
    c.tensors = names.tensorsUnder(QString());
    c.elements = names.elementsUnder(QString());
    return c;
}

// One CLIP tower under `tower` ("text_model.", "cond_stage_model.transformer.text_model.").
ArchitectureComponent clipTower(const NameShapes& names, const BlockRun& run, bool vision)
{
    const QString tower = run.container.left(run.container.size() - 15); // minus "encoder.layers."
    const QString b = run.container + QString::number(run.blocks.front()) + QLatin1Char('.');
    ArchitectureComponent c;
    c.prefix = tower;
    c.configSection = vision ? QStringLiteral("vision_config") : QStringLiteral("text_config");
    c.fields.push_back(number(QStringLiteral("num_hidden_layers"), QStringLiteral("Layers"),
                              static_cast<std::uint64_t>(run.last() + 1),
                              blockRange(run.container, 0, run.last())));
    c.fields.push_back(number(QStringLiteral("hidden_size"), QStringLiteral("Hidden size"),
                              names.dim(b + QStringLiteral("self_attn.q_proj.weight"), 0),
                              QStringLiteral("q_proj rows")));
    c.fields.push_back(number(QStringLiteral("intermediate_size"), QStringLiteral("MLP size"),
                              names.dim(b + QStringLiteral("mlp.fc1.weight"), 0),
                              QStringLiteral("mlp.fc1 rows")));
    if (vision) {
        const QString patch = tower + QStringLiteral("embeddings.patch_embedding.weight");
        const std::optional<std::uint64_t> p = names.dim(patch, 2);
        c.family = QStringLiteral("clip-vision");
        c.name = QStringLiteral("CLIP vision tower");
        c.role = QStringLiteral("vision encoder");
        c.fields.push_back(number(QStringLiteral("patch_size"), QStringLiteral("Patch size"), p,
                                  QStringLiteral("patch_embedding kernel")));
        c.fields.push_back(
            number(QStringLiteral("image_size"), QStringLiteral("Image size"),
                   imageSide(names.dim(tower + QStringLiteral("embeddings.position_embedding.weight"), 0), p),
                   QStringLiteral("sqrt(positions - 1) x patch")));
    } else {
        const QString tokens = tower + QStringLiteral("embeddings.token_embedding.weight");
        c.family = QStringLiteral("clip-text");
        c.name = QStringLiteral("CLIP text encoder");
        c.role = QStringLiteral("text encoder");
        c.fields.push_back(number(QStringLiteral("vocab_size"), QStringLiteral("Vocabulary"),
                                  names.dim(tokens, 0), QStringLiteral("token_embedding rows")));
        c.fields.push_back(
            number(QStringLiteral("max_position_embeddings"), QStringLiteral("Positions"),
                   names.dim(tower + QStringLiteral("embeddings.position_embedding.weight"), 0),
                   QStringLiteral("position_embedding rows")));
    }
    c.fields.push_back(unknown(QStringLiteral("num_attention_heads"), QStringLiteral("Attention heads"),
                               QStringLiteral("q_proj holds all heads in one square matrix")));
    c.tensors = names.tensorsUnder(tower);
    c.elements = names.elementsUnder(tower);
    return c;
}

std::vector<ArchitectureComponent> clip(const NameShapes& names)
{
    std::vector<ArchitectureComponent> found;
    // Every run of CLIP layers, whatever its prefix: an SDXL checkpoint holds two text towers.
    QStringList containers;
    for (const TensorInfo* t : names.all()) {
        const QString& n = t->name;
        const qsizetype at = n.indexOf(QLatin1String("encoder.layers."));
        if (at < 0 || !n.endsWith(QLatin1String(".self_attn.out_proj.weight")))
            continue;
        const QString container = n.left(at) + QStringLiteral("encoder.layers.");
        if (!containers.contains(container) &&
            (container.endsWith(QLatin1String("text_model.encoder.layers.")) ||
             container.endsWith(QLatin1String("vision_model.encoder.layers."))))
            containers << container;
    }
    for (const QString& container : containers) {
        BlockRun run;
        run.container = container;
        run.blocks = names.blocksWith(container, QStringLiteral("self_attn.out_proj.weight"));
        if (!run.blocks.empty())
            found.push_back(
                clipTower(names, run, container.endsWith(QLatin1String("vision_model.encoder.layers."))));
    }
    return found;
}

// OpenCLIP's text tower (SD 2's cond_stage_model.model, SDXL's conditioner.embedders.1.model).
std::optional<ArchitectureComponent> openClipText(const NameShapes& names)
{
    const BlockRun run = names.findBlocks(QStringLiteral("attn.in_proj_weight"));
    if (run.container.isEmpty() || !run.container.endsWith(QLatin1String("transformer.resblocks.")))
        return std::nullopt;
    const QString tower = run.container.left(run.container.size() - 22);
    const QString tokens = tower + QStringLiteral("token_embedding.weight");
    if (!names.has(tokens))
        return std::nullopt; // the visual tower of an OpenCLIP model, which SD checkpoints do not carry
    const QString b = run.container + QString::number(run.blocks.front()) + QLatin1Char('.');
    ArchitectureComponent c;
    c.role = QStringLiteral("text encoder");
    c.family = QStringLiteral("openclip-text");
    c.name = QStringLiteral("OpenCLIP text encoder");
    c.prefix = tower;
    c.fields = {
        number(QStringLiteral("num_hidden_layers"), QStringLiteral("Layers"),
               static_cast<std::uint64_t>(run.last() + 1), blockRange(run.container, 0, run.last())),
        number(QStringLiteral("hidden_size"), QStringLiteral("Hidden size"), names.dim(tokens, 1),
               QStringLiteral("token_embedding columns")),
        number(QStringLiteral("vocab_size"), QStringLiteral("Vocabulary"), names.dim(tokens, 0),
               QStringLiteral("token_embedding rows")),
        number(QStringLiteral("intermediate_size"), QStringLiteral("MLP size"),
               names.dim(b + QStringLiteral("mlp.c_fc.weight"), 0), QStringLiteral("mlp.c_fc rows")),
    };
    c.tensors = names.tensorsUnder(tower);
    c.elements = names.elementsUnder(tower);
    return c;
}

} // namespace

std::vector<ArchitectureComponent> VisionDetector::detect(const NameShapes& names)
{
    std::vector<ArchitectureComponent> found;
    if (auto v = vit(names))
        found.push_back(std::move(*v));
    for (ArchitectureComponent& c : clip(names))
        found.push_back(std::move(c));
    if (auto o = openClipText(names))
        found.push_back(std::move(*o));
    // One text and one vision tower with their projections: a whole CLIP model.
    if (found.size() == 2 && found[0].family == QLatin1String("clip-text") &&
        found[1].family == QLatin1String("clip-vision") &&
        names.has(QStringLiteral("visual_projection.weight"))) {
        found[0].fields.push_back(number(QStringLiteral("projection_dim"), QStringLiteral("Projection"),
                                         names.dim(QStringLiteral("visual_projection.weight"), 0),
                                         QStringLiteral("visual_projection rows"),
                                         {QStringLiteral("/projection_dim")}));
        found[0].configSection = QStringLiteral("text_config");
    }
    return found;
}

} // namespace ts
