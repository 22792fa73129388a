#include "architecture/DiffusionTransformerDetector.h"

#include "architecture/Fields.h"

#include <cmath>

namespace ts {
namespace {

using namespace fields;

std::optional<std::uint64_t> divide(std::optional<std::uint64_t> a, std::optional<std::uint64_t> b)
{
    if (!a || !b || *b == 0)
        return std::nullopt;
    return *a / *b;
}

void addHeads(ArchitectureComponent& c, std::optional<std::uint64_t> hidden,
              std::optional<std::uint64_t> headDim, const QString& normName)
{
    if (headDim) {
        c.fields.push_back(number(QStringLiteral("attention_head_dim"), QStringLiteral("Head dimension"),
                                  headDim, normName + QStringLiteral(" has one weight per head dimension")));
        c.fields.push_back(number(QStringLiteral("num_attention_heads"), QStringLiteral("Attention heads"),
                                  divide(hidden, headDim), QStringLiteral("hidden size / head dimension")));
    } else {
        c.fields.push_back(unknown(QStringLiteral("num_attention_heads"), QStringLiteral("Attention heads"),
                                   QStringLiteral("no QK-norm weights to split the width by")));
    }
}

ArchitectureComponent fluxBfl(const NameShapes& names, const QString& p)
{
    ArchitectureComponent c;
    c.role = QStringLiteral("transformer");
    c.family = QStringLiteral("flux");
    c.name = QStringLiteral("Flux diffusion transformer (BFL layout)");
    c.prefix = p;
    const BlockRun dbl = names.findBlocks(QStringLiteral("img_attn.qkv.weight"));
    const BlockRun sgl = names.findBlocks(QStringLiteral("linear1.weight"));
    const bool guidance = names.has(p + QStringLiteral("guidance_in.in_layer.weight"));
    c.detail = guidance ? QStringLiteral("guidance embedding, as FLUX.1 [dev]")
                        : QStringLiteral("no guidance embedding, as FLUX.1 [schnell]");
    const std::optional<std::uint64_t> hidden = names.dim(p + QStringLiteral("img_in.weight"), 0);
    c.fields = {
        number(QStringLiteral("num_layers"), QStringLiteral("Double-stream blocks"),
               static_cast<std::uint64_t>(dbl.last() + 1), blockRange(dbl.container, 0, dbl.last())),
        number(QStringLiteral("num_single_layers"), QStringLiteral("Single-stream blocks"),
               static_cast<std::uint64_t>(sgl.last() + 1), blockRange(sgl.container, 0, sgl.last())),
        number(QStringLiteral("hidden_size"), QStringLiteral("Hidden size"), hidden,
               QStringLiteral("img_in rows"), {QStringLiteral("-")}),
        number(QStringLiteral("joint_attention_dim"), QStringLiteral("Text states width"),
               names.dim(p + QStringLiteral("txt_in.weight"), 1), QStringLiteral("txt_in columns")),
        number(QStringLiteral("pooled_projection_dim"), QStringLiteral("Pooled text width"),
               names.dim(p + QStringLiteral("vector_in.in_layer.weight"), 1),
               QStringLiteral("vector_in columns")),
        number(QStringLiteral("in_channels"), QStringLiteral("Latent input"),
               names.dim(p + QStringLiteral("img_in.weight"), 1),
               QStringLiteral("img_in columns (packed 2x2 latent patches)")),
        flag(QStringLiteral("guidance_embeds"), QStringLiteral("Guidance embedding"), guidance,
             guidance ? QStringLiteral("guidance_in is stored") : QStringLiteral("no guidance_in")),
    };
    const QString norm = dbl.container + QString::number(dbl.blocks.front()) +
                         QStringLiteral(".img_attn.norm.query_norm.scale");
    addHeads(c, hidden, names.dim(norm, 0), QStringLiteral("img_attn.norm.query_norm"));
    return c;
}

ArchitectureComponent fluxDiffusers(const NameShapes& names, const QString& p, const BlockRun& dbl,
                                    const BlockRun& sgl)
{
    ArchitectureComponent c;
    c.role = QStringLiteral("transformer");
    c.family = QStringLiteral("flux");
    c.name = QStringLiteral("Flux diffusion transformer (diffusers layout)");
    c.prefix = p;
    const bool guidance = names.has(p + QStringLiteral("time_text_embed.guidance_embedder.linear_1.weight"));
    c.detail = guidance ? QStringLiteral("guidance embedding, as FLUX.1 [dev]")
                        : QStringLiteral("no guidance embedding, as FLUX.1 [schnell]");
    const std::optional<std::uint64_t> hidden = names.dim(p + QStringLiteral("x_embedder.weight"), 0);
    c.fields = {
        number(QStringLiteral("num_layers"), QStringLiteral("Double-stream blocks"),
               static_cast<std::uint64_t>(dbl.last() + 1), blockRange(dbl.container, 0, dbl.last())),
        number(QStringLiteral("num_single_layers"), QStringLiteral("Single-stream blocks"),
               static_cast<std::uint64_t>(sgl.last() + 1), blockRange(sgl.container, 0, sgl.last())),
        number(QStringLiteral("hidden_size"), QStringLiteral("Hidden size"), hidden,
               QStringLiteral("x_embedder rows"), {QStringLiteral("-")}),
        number(QStringLiteral("joint_attention_dim"), QStringLiteral("Text states width"),
               names.dim(p + QStringLiteral("context_embedder.weight"), 1),
               QStringLiteral("context_embedder columns")),
        number(QStringLiteral("pooled_projection_dim"), QStringLiteral("Pooled text width"),
               names.dim(p + QStringLiteral("time_text_embed.text_embedder.linear_1.weight"), 1),
               QStringLiteral("text_embedder.linear_1 columns")),
        number(QStringLiteral("in_channels"), QStringLiteral("Latent input"),
               names.dim(p + QStringLiteral("x_embedder.weight"), 1),
               QStringLiteral("x_embedder columns (packed 2x2 latent patches)")),
        flag(QStringLiteral("guidance_embeds"), QStringLiteral("Guidance embedding"), guidance,
             guidance ? QStringLiteral("guidance_embedder is stored")
                      : QStringLiteral("no guidance_embedder")),
    };
    const QString norm =
        dbl.container + QString::number(dbl.blocks.front()) + QStringLiteral(".attn.norm_q.weight");
    addHeads(c, hidden, names.dim(norm, 0), QStringLiteral("attn.norm_q"));
    return c;
}

ArchitectureComponent sd3(const NameShapes& names, const QString& p, const BlockRun& run, bool original)
{
    ArchitectureComponent c;
    c.role = QStringLiteral("transformer");
    c.family = QStringLiteral("sd3");
    c.name = original ? QStringLiteral("SD3 MMDiT (original layout)")
                      : QStringLiteral("SD3 MMDiT (diffusers layout)");
    c.prefix = p;
    const QString proj =
        original ? p + QStringLiteral("x_embedder.proj.weight") : p + QStringLiteral("pos_embed.proj.weight");
    const QString pos =
        original ? p + QStringLiteral("pos_embed") : p + QStringLiteral("pos_embed.pos_embed");
    const QString context = p + QStringLiteral("context_embedder.weight");
    const QString pooled = original ? p + QStringLiteral("y_embedder.mlp.0.weight")
                                    : p + QStringLiteral("time_text_embed.text_embedder.linear_1.weight");
    const std::optional<std::uint64_t> hidden = names.dim(proj, 0);
    const std::optional<std::uint64_t> positions = names.dim(pos, 1);
    std::optional<std::uint64_t> side;
    if (positions) {
        const auto s = static_cast<std::uint64_t>(std::llround(std::sqrt(static_cast<double>(*positions))));
        if (s * s == *positions)
            side = s;
    }
    c.fields = {
        number(QStringLiteral("num_layers"), QStringLiteral("Joint blocks"),
               static_cast<std::uint64_t>(run.last() + 1), blockRange(run.container, 0, run.last()),
               {QStringLiteral("num_layers"), QStringLiteral("depth")}),
        number(QStringLiteral("hidden_size"), QStringLiteral("Hidden size"), hidden,
               QStringLiteral("patch projection rows"), {QStringLiteral("-")}),
        number(QStringLiteral("patch_size"), QStringLiteral("Patch size"), names.dim(proj, 2),
               QStringLiteral("patch projection kernel")),
        number(QStringLiteral("in_channels"), QStringLiteral("Latent channels"), names.dim(proj, 1),
               QStringLiteral("patch projection input channels")),
        number(QStringLiteral("joint_attention_dim"), QStringLiteral("Text states width"),
               names.dim(context, 1), QStringLiteral("context_embedder columns")),
        number(QStringLiteral("pooled_projection_dim"), QStringLiteral("Pooled text width"),
               names.dim(pooled, 1), QStringLiteral("pooled text embedder columns")),
        number(QStringLiteral("pos_embed_max_size"), QStringLiteral("Position grid"), side,
               QStringLiteral("sqrt of the position embedding's rows")),
    };
    const QString b = run.container + QString::number(run.blocks.front()) + QLatin1Char('.');
    const QString norm =
        original ? b + QStringLiteral("x_block.attn.ln_q.weight") : b + QStringLiteral("attn.norm_q.weight");
    addHeads(c, hidden, names.dim(norm, 0),
             original ? QStringLiteral("x_block.attn.ln_q") : QStringLiteral("attn.norm_q"));
    c.detail = names.has(norm) ? QStringLiteral("QK norms, as SD 3.5")
                               : QStringLiteral("no QK norms, as SD3 Medium");
    return c;
}

} // namespace

std::optional<ArchitectureComponent> DiffusionTransformerDetector::detect(const NameShapes& names)
{
    std::optional<ArchitectureComponent> found;
    if (const BlockRun dbl = names.findBlocks(QStringLiteral("img_attn.qkv.weight"));
        dbl.container.endsWith(QLatin1String("double_blocks."))) {
        found = fluxBfl(names, dbl.container.left(dbl.container.size() - 14));
    } else if (const BlockRun sgl = names.findBlocks(QStringLiteral("proj_mlp.weight"));
               sgl.container.endsWith(QLatin1String("single_transformer_blocks."))) {
        const QString p = sgl.container.left(sgl.container.size() - 26);
        BlockRun dblRun;
        dblRun.container = p + QStringLiteral("transformer_blocks.");
        dblRun.blocks = names.blocksWith(dblRun.container, QStringLiteral("attn.add_q_proj.weight"));
        if (!dblRun.blocks.empty())
            found = fluxDiffusers(names, p, dblRun, sgl);
    } else if (const BlockRun joint = names.findBlocks(QStringLiteral("attn.add_q_proj.weight"));
               joint.container.endsWith(QLatin1String("transformer_blocks.")) &&
               names.has(joint.container.left(joint.container.size() - 19) +
                         QStringLiteral("pos_embed.proj.weight"))) {
        found = sd3(names, joint.container.left(joint.container.size() - 19), joint, false);
    } else if (const BlockRun mmdit = names.findBlocks(QStringLiteral("x_block.attn.qkv.weight"));
               mmdit.container.endsWith(QLatin1String("joint_blocks."))) {
        found = sd3(names, mmdit.container.left(mmdit.container.size() - 13), mmdit, true);
    }
    if (found) {
        found->tensors = names.tensorsUnder(found->prefix);
        found->elements = names.elementsUnder(found->prefix);
    }
    return found;
}

} // namespace ts
