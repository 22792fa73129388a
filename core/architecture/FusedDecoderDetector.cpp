#include "architecture/FusedDecoderDetector.h"

#include "architecture/Fields.h"

namespace ts {
namespace {

using namespace fields;

const QStringList kLayerKeys = {QStringLiteral("num_hidden_layers"), QStringLiteral("n_layer"),
                                QStringLiteral("num_layers")};
const QStringList kHiddenKeys = {QStringLiteral("hidden_size"), QStringLiteral("n_embd"),
                                 QStringLiteral("n_embed")};
const QStringList kHeadKeys = {QStringLiteral("num_attention_heads"), QStringLiteral("n_head")};

ArchitectureComponent gpt2(const NameShapes& names, const BlockRun& run)
{
    const QString prefix = run.container.left(run.container.size() - 2); // "" or "transformer."
    const QString b = run.container + QString::number(run.blocks.front()) + QLatin1Char('.');
    const QString wte = prefix + QStringLiteral("wte.weight");
    const QString wpe = prefix + QStringLiteral("wpe.weight");
    ArchitectureComponent c;
    c.role = QStringLiteral("model");
    c.family = QStringLiteral("gpt2");
    c.name = QStringLiteral("GPT-2-style decoder");
    c.detail = QStringLiteral("fused c_attn, learned positions, Conv1D weights");
    c.prefix = prefix;
    c.fields = {
        number(QStringLiteral("num_hidden_layers"), QStringLiteral("Layers"),
               static_cast<std::uint64_t>(run.last() + 1), blockRange(run.container, 0, run.last()),
               kLayerKeys),
        number(QStringLiteral("hidden_size"), QStringLiteral("Hidden size"), names.dim(wte, 1),
               wte + QStringLiteral(" columns"), kHiddenKeys),
        number(QStringLiteral("vocab_size"), QStringLiteral("Vocabulary"), names.dim(wte, 0),
               wte + QStringLiteral(" rows")),
        number(QStringLiteral("max_position_embeddings"), QStringLiteral("Positions"), names.dim(wpe, 0),
               wpe + QStringLiteral(" rows"),
               {QStringLiteral("n_positions"), QStringLiteral("max_position_embeddings")}),
        // Conv1D stores [in, out]: c_fc's columns are the MLP's width.
        number(QStringLiteral("intermediate_size"), QStringLiteral("MLP size"),
               names.dim(b + QStringLiteral("mlp.c_fc.weight"), 1),
               QStringLiteral("mlp.c_fc columns (Conv1D is [in, out])"), {QStringLiteral("n_inner")}),
        unknown(QStringLiteral("num_attention_heads"), QStringLiteral("Attention heads"),
                QStringLiteral("attn.c_attn fuses q, k and v of all heads (%1 columns = 3 x hidden)")
                    .arg(names.dim(b + QStringLiteral("attn.c_attn.weight"), 1).value_or(0)),
                kHeadKeys),
    };
    return c;
}

ArchitectureComponent fusedQkv(const NameShapes& names, const BlockRun& run, bool neox)
{
    const QString b = run.container + QString::number(run.blocks.front()) + QLatin1Char('.');
    ArchitectureComponent c;
    c.role = QStringLiteral("model");
    c.family = neox ? QStringLiteral("gpt-neox") : QStringLiteral("bloom");
    c.name = neox ? QStringLiteral("GPT-NeoX-style decoder") : QStringLiteral("BLOOM-style decoder");
    c.detail = neox ? QStringLiteral("fused query_key_value, rotary positions (Pythia, GPT-NeoX)")
                    : QStringLiteral("fused query_key_value, ALiBi positions");
    const QString embed =
        neox ? QStringLiteral("gpt_neox.embed_in.weight")
             : run.container.left(run.container.size() - 2) + QStringLiteral("word_embeddings.weight");
    const QString qkv = b + (neox ? QStringLiteral("attention.query_key_value.weight")
                                  : QStringLiteral("self_attention.query_key_value.weight"));
    c.fields = {
        number(QStringLiteral("num_hidden_layers"), QStringLiteral("Layers"),
               static_cast<std::uint64_t>(run.last() + 1), blockRange(run.container, 0, run.last()),
               kLayerKeys),
        number(QStringLiteral("hidden_size"), QStringLiteral("Hidden size"), names.dim(embed, 1),
               embed + QStringLiteral(" columns"), kHiddenKeys),
        number(QStringLiteral("vocab_size"), QStringLiteral("Vocabulary"), names.dim(embed, 0),
               embed + QStringLiteral(" rows")),
        number(QStringLiteral("intermediate_size"), QStringLiteral("MLP size"),
               names.dim(b + QStringLiteral("mlp.dense_h_to_4h.weight"), 0),
               QStringLiteral("mlp.dense_h_to_4h rows")),
        unknown(QStringLiteral("num_attention_heads"), QStringLiteral("Attention heads"),
                QStringLiteral("query_key_value fuses q, k and v of all heads (%1 rows = 3 x hidden)")
                    .arg(names.dim(qkv, 0).value_or(0)),
                kHeadKeys),
    };
    return c;
}

} // namespace

std::optional<ArchitectureComponent> FusedDecoderDetector::detect(const NameShapes& names)
{
    std::optional<ArchitectureComponent> found;
    if (const BlockRun run = names.findBlocks(QStringLiteral("attn.c_attn.weight"));
        !run.container.isEmpty() && run.container.endsWith(QLatin1String("h.")))
        found = gpt2(names, run);
    else if (const BlockRun bloom = names.findBlocks(QStringLiteral("self_attention.query_key_value.weight"));
             !bloom.container.isEmpty() && bloom.container.endsWith(QLatin1String("h.")))
        found = fusedQkv(names, bloom, false);
    else if (const BlockRun neox = names.findBlocks(QStringLiteral("attention.query_key_value.weight"));
             neox.container == QLatin1String("gpt_neox.layers."))
        found = fusedQkv(names, neox, true);
    if (found) {
        found->tensors = names.tensorsUnder(QString());
        found->elements = names.elementsUnder(QString());
    }
    return found;
}

} // namespace ts
