#include "architecture/DiffusionDetector.h"

#include "architecture/Fields.h"

namespace ts {
namespace {

using namespace fields;

// Channels of each level, read from `pattern` with %1 the level ("down_blocks.%1.resnets.0.conv1.weight").
std::vector<std::uint64_t> levels(const NameShapes& names, const QString& pattern)
{
    std::vector<std::uint64_t> channels;
    for (int i = 0; i < 16; ++i) {
        const std::optional<std::uint64_t> c = names.dim(pattern.arg(i), 0);
        if (!c)
            break;
        channels.push_back(*c);
    }
    return channels;
}

int countWhile(const NameShapes& names, const QString& pattern)
{
    int n = 0;
    while (n < 64 && names.has(pattern.arg(n)))
        ++n;
    return n;
}

// The cross-attention width: the input width of the first attn2.to_k under `prefix`.
std::optional<std::uint64_t> crossAttention(const NameShapes& names, const QString& prefix)
{
    for (const TensorInfo* t : names.all()) {
        if (t->name.startsWith(prefix) && t->name.endsWith(QLatin1String("attn2.to_k.weight")) &&
            t->shape.size() == 2)
            return t->shape[1];
    }
    return std::nullopt;
}

QString generation(std::optional<std::uint64_t> cross, bool addedTimeEmbedding,
                   std::optional<std::uint64_t> inChannels)
{
    QString g;
    if (addedTimeEmbedding && cross == 2048u)
        g = QStringLiteral("SDXL");
    else if (cross == 768u)
        g = QStringLiteral("Stable Diffusion 1.x");
    else if (cross == 1024u)
        g = QStringLiteral("Stable Diffusion 2.x");
    else if (cross)
        g = QStringLiteral("cross-attention to %1-wide text states").arg(*cross);
    if (inChannels == 9u)
        g += QStringLiteral(", inpainting (9 input channels)");
    else if (inChannels == 8u)
        g += QStringLiteral(", image-conditioned (8 input channels)");
    return g;
}

ArchitectureComponent diffusersUnet(const NameShapes& names, const QString& p)
{
    ArchitectureComponent c;
    c.role = QStringLiteral("unet");
    c.family = QStringLiteral("sd-unet");
    c.prefix = p;
    const std::vector<std::uint64_t> channels =
        levels(names, p + QStringLiteral("down_blocks.%1.resnets.0.conv1.weight"));
    const std::optional<std::uint64_t> cross = crossAttention(names, p);
    const bool added = names.has(p + QStringLiteral("add_embedding.linear_1.weight"));
    const std::optional<std::uint64_t> in = names.dim(p + QStringLiteral("conv_in.weight"), 1);
    c.detail = generation(cross, added, in);
    c.name = QStringLiteral("Stable Diffusion UNet (diffusers layout)");
    std::vector<std::uint64_t> depths;
    for (std::size_t i = 0; i < channels.size(); ++i)
        depths.push_back(static_cast<std::uint64_t>(
            countWhile(names, p + QStringLiteral("down_blocks.%1.attentions.0.transformer_blocks.").arg(i) +
                                  QStringLiteral("%1.norm1.weight"))));
    const QString projIn = p + QStringLiteral("down_blocks.1.attentions.0.proj_in.weight");
    c.fields = {
        list(QStringLiteral("block_out_channels"), QStringLiteral("Channels per level"), channels,
             QStringLiteral("down_blocks.#.resnets.0.conv1 output channels")),
        number(QStringLiteral("layers_per_block"), QStringLiteral("ResNets per level"),
               static_cast<std::uint64_t>(
                   countWhile(names, p + QStringLiteral("down_blocks.0.resnets.%1.conv1.weight"))),
               QStringLiteral("down_blocks.0.resnets.#")),
        number(QStringLiteral("cross_attention_dim"), QStringLiteral("Text states width"), cross,
               QStringLiteral("attn2.to_k input columns")),
        number(QStringLiteral("in_channels"), QStringLiteral("Input channels"), in,
               QStringLiteral("conv_in input channels")),
        number(QStringLiteral("out_channels"), QStringLiteral("Output channels"),
               names.dim(p + QStringLiteral("conv_out.weight"), 0),
               QStringLiteral("conv_out output channels")),
        text(
            QStringLiteral("transformer_depths"), QStringLiteral("Transformer depth per level"),
            [&] {
                QStringList parts;
                for (std::uint64_t d : depths)
                    parts << QString::number(d);
                return parts.join(QStringLiteral(", "));
            }(),
            QStringLiteral("down_blocks.#.attentions.0.transformer_blocks (0: no attention)")),
        text(QStringLiteral("added_time_embedding"), QStringLiteral("Added time embedding"),
             added ? QStringLiteral("yes (text_time, SDXL)") : QStringLiteral("no"),
             QStringLiteral("add_embedding")),
        unknown(QStringLiteral("attention_head_dim"), QStringLiteral("Attention heads"),
                QStringLiteral("to_q holds all heads in one square matrix")),
    };
    if (names.rank(projIn))
        c.fields.push_back(flag(QStringLiteral("use_linear_projection"), QStringLiteral("Linear projections"),
                                names.rank(projIn) == 2,
                                QStringLiteral("proj_in is %1")
                                    .arg(names.rank(projIn) == 2 ? QStringLiteral("a linear layer")
                                                                 : QStringLiteral("a 1x1 convolution"))));
    return c;
}

ArchitectureComponent ldmUnet(const NameShapes& names, const QString& p)
{
    ArchitectureComponent c;
    c.role = QStringLiteral("unet");
    c.family = QStringLiteral("sd-unet");
    c.prefix = p;
    const std::optional<std::uint64_t> cross = crossAttention(names, p);
    const QString label = p + QStringLiteral("label_emb.0.0.weight");
    const bool added = names.has(label);
    const std::optional<std::uint64_t> in = names.dim(p + QStringLiteral("input_blocks.0.0.weight"), 1);
    c.detail = generation(cross, added, in);
    c.name = QStringLiteral("Stable Diffusion UNet (original layout)");
    c.fields = {
        number(QStringLiteral("model_channels"), QStringLiteral("Base channels"),
               names.dim(p + QStringLiteral("input_blocks.0.0.weight"), 0),
               QStringLiteral("input_blocks.0.0 output channels")),
        number(QStringLiteral("context_dim"), QStringLiteral("Text states width"), cross,
               QStringLiteral("attn2.to_k input columns")),
        number(QStringLiteral("in_channels"), QStringLiteral("Input channels"), in,
               QStringLiteral("input_blocks.0.0 input channels")),
        number(QStringLiteral("out_channels"), QStringLiteral("Output channels"),
               names.dim(p + QStringLiteral("out.2.weight"), 0), QStringLiteral("out.2 output channels")),
    };
    if (added)
        c.fields.push_back(number(QStringLiteral("adm_in_channels"),
                                  QStringLiteral("Added conditioning width"), names.dim(label, 1),
                                  QStringLiteral("label_emb.0.0 input columns")));
    return c;
}

ArchitectureComponent vae(const NameShapes& names, const QString& p, bool ldm)
{
    ArchitectureComponent c;
    c.role = QStringLiteral("vae");
    c.family = QStringLiteral("sd-vae");
    c.prefix = p;
    const std::optional<std::uint64_t> latent = names.dim(p + QStringLiteral("decoder.conv_in.weight"), 1);
    const bool quantConv = names.has(p + QStringLiteral("quant_conv.weight"));
    c.name = ldm ? QStringLiteral("VAE (original layout)") : QStringLiteral("VAE (diffusers AutoencoderKL)");
    if (latent == 4u)
        c.detail = QStringLiteral("4 latent channels, as Stable Diffusion 1.x, 2.x and SDXL");
    else if (latent == 16u)
        c.detail = quantConv ? QStringLiteral("16 latent channels")
                             : QStringLiteral("16 latent channels, no quant_conv, as SD3 and Flux");
    const QString level = ldm ? p + QStringLiteral("encoder.down.%1.block.0.conv1.weight")
                              : p + QStringLiteral("encoder.down_blocks.%1.resnets.0.conv1.weight");
    const QString res = ldm ? p + QStringLiteral("encoder.down.0.block.%1.conv1.weight")
                            : p + QStringLiteral("encoder.down_blocks.0.resnets.%1.conv1.weight");
    c.fields = {
        number(QStringLiteral("latent_channels"), QStringLiteral("Latent channels"), latent,
               QStringLiteral("decoder.conv_in input channels"),
               {QStringLiteral("latent_channels"), QStringLiteral("z_channels")}),
        list(QStringLiteral("block_out_channels"), QStringLiteral("Channels per level"), levels(names, level),
             ldm ? QStringLiteral("encoder.down.#.block.0.conv1 output channels")
                 : QStringLiteral("encoder.down_blocks.#.resnets.0.conv1 output channels")),
        number(QStringLiteral("layers_per_block"), QStringLiteral("ResNets per level"),
               static_cast<std::uint64_t>(countWhile(names, res)),
               QStringLiteral("encoder ResNets of level 0"),
               {QStringLiteral("layers_per_block"), QStringLiteral("num_res_blocks")}),
        number(QStringLiteral("in_channels"), QStringLiteral("Image channels"),
               names.dim(p + QStringLiteral("encoder.conv_in.weight"), 1),
               QStringLiteral("encoder.conv_in input channels")),
        flag(QStringLiteral("use_quant_conv"), QStringLiteral("quant_conv"), quantConv,
             quantConv ? QStringLiteral("quant_conv is stored") : QStringLiteral("no quant_conv")),
    };
    return c;
}

} // namespace

std::vector<ArchitectureComponent> DiffusionDetector::detect(const NameShapes& names)
{
    std::vector<ArchitectureComponent> found;
    QStringList seen;
    auto add = [&](ArchitectureComponent c) {
        if (seen.contains(c.prefix + c.family))
            return;
        seen << c.prefix + c.family;
        c.tensors = names.tensorsUnder(c.prefix);
        c.elements = names.elementsUnder(c.prefix);
        found.push_back(std::move(c));
    };
    const QString diffusersAnchor = QStringLiteral("down_blocks.0.resnets.0.conv1.weight");
    const QString ldmUnetAnchor = QStringLiteral("input_blocks.0.0.weight");
    const QString ldmVaeAnchor = QStringLiteral("encoder.down.0.block.0.conv1.weight");
    for (const TensorInfo* t : names.all()) {
        const QString& n = t->name;
        if (n.endsWith(diffusersAnchor)) {
            const QString p = n.left(n.size() - diffusersAnchor.size());
            if (names.has(p + QStringLiteral("time_embedding.linear_1.weight")))
                add(diffusersUnet(names, p));
            else if (p.endsWith(QLatin1String("encoder.")) &&
                     names.has(p.left(p.size() - 8) + QStringLiteral("decoder.conv_in.weight")))
                add(vae(names, p.left(p.size() - 8), false));
        } else if (n.endsWith(ldmUnetAnchor)) {
            const QString p = n.left(n.size() - ldmUnetAnchor.size());
            if (names.has(p + QStringLiteral("time_embed.0.weight")))
                add(ldmUnet(names, p));
        } else if (n.endsWith(ldmVaeAnchor)) {
            const QString p = n.left(n.size() - ldmVaeAnchor.size());
            if (names.has(p + QStringLiteral("decoder.conv_in.weight")))
                add(vae(names, p, true));
        }
    }
    return found;
}

} // namespace ts
