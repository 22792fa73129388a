#include "architecture/DecoderDetector.h"

#include "architecture/Fields.h"

#include <QSet>

namespace ts {
namespace {

using namespace fields;

// Distinct expert numbers under `prefix` ("model.layers.0.mlp.experts."): experts are numbered
// sub-blocks, so the count is the highest number plus one when they run from 0.
std::optional<std::uint64_t> expertCount(const NameShapes& names, const QString& prefix)
{
    QSet<int> experts;
    for (const TensorInfo* t : names.all()) {
        if (!t->name.startsWith(prefix))
            continue;
        const QStringView rest = QStringView(t->name).mid(prefix.size());
        const qsizetype dot = rest.indexOf(QLatin1Char('.'));
        bool ok = false;
        const int n = rest.left(dot).toInt(&ok);
        if (ok)
            experts.insert(n);
    }
    if (experts.isEmpty())
        return std::nullopt;
    return static_cast<std::uint64_t>(experts.size());
}

QString formatBlocks(const BlockRun& run)
{
    return run.blocks.size() == 1
               ? QStringLiteral("block %1").arg(run.blocks.front())
               : QStringLiteral("%1 blocks from %2").arg(run.blocks.size()).arg(run.blocks.front());
}

} // namespace

QStringList DecoderDetector::coreTails()
{
    return {QStringLiteral("self_attn.o_proj.weight"),         QStringLiteral("input_layernorm.weight"),
            QStringLiteral("post_attention_layernorm.weight"), QStringLiteral("self_attn.q_proj.weight"),
            QStringLiteral("self_attn.k_proj.weight"),         QStringLiteral("self_attn.v_proj.weight")};
}

std::optional<ArchitectureComponent> DecoderDetector::detect(const NameShapes& names)
{
    const BlockRun run = names.findBlocks(QStringLiteral("self_attn.o_proj.weight"));
    if (run.container.isEmpty() || !run.container.endsWith(QLatin1String("layers.")))
        return std::nullopt;
    const QString& layers = run.container;
    const QString prefix = layers.left(layers.size() - 7); // "model."
    // The first block decides the shapes; BlockChecks reports blocks that differ in what they hold.
    const QString b = layers + QString::number(run.blocks.front()) + QLatin1Char('.');
    auto has = [&](const QString& tail) { return names.has(b + tail); };

    ArchitectureComponent c;
    c.role = QStringLiteral("model");
    const QString embed = prefix + QStringLiteral("embed_tokens.weight");
    // Multimodal wrappers (Llava, Gemma 3, Mistral 3) put the language model's own config under text_config.
    if (prefix.contains(QLatin1String("language_model")))
        c.configSection = QStringLiteral("text_config");
    // The head sits beside the decoder's "model." ("lm_head.weight", "language_model.lm_head.weight").
    const QString root = prefix.endsWith(QLatin1String("model.")) ? prefix.left(prefix.size() - 6) : prefix;
    QString lmHead = root + QStringLiteral("lm_head.weight");
    if (!names.has(lmHead) && names.has(QStringLiteral("lm_head.weight")))
        lmHead = QStringLiteral("lm_head.weight");
    c.prefix = prefix;

    const bool fusedExperts = has(QStringLiteral("mlp.experts.gate_up_proj_blocks")) ||
                              has(QStringLiteral("mlp.experts.gate_up_proj"));
    const bool mixtral = has(QStringLiteral("block_sparse_moe.gate.weight"));
    const bool experts = names.anyStartsWith(b + QStringLiteral("mlp.experts.0.")) ||
                         !names.blocksWith(layers, QStringLiteral("mlp.experts.0.gate_proj.weight")).empty();
    const bool latentAttention = has(QStringLiteral("self_attn.kv_a_proj_with_mqa.weight"));
    const bool fusedQkv = has(QStringLiteral("self_attn.qkv_proj.weight"));
    const bool qkNorm = has(QStringLiteral("self_attn.q_norm.weight"));
    const bool sandwich = has(QStringLiteral("pre_feedforward_layernorm.weight"));
    const bool qkvBias = has(QStringLiteral("self_attn.q_proj.bias"));
    const bool sinks = has(QStringLiteral("self_attn.sinks"));

    if (fusedExperts) {
        c.family = QStringLiteral("gpt-oss");
        c.name = QStringLiteral("gpt-oss-style MoE decoder");
        c.detail = has(QStringLiteral("mlp.experts.gate_up_proj_blocks"))
                       ? QStringLiteral("fused experts in MXFP4 blocks, attention sinks")
                       : QStringLiteral("fused experts");
    } else if (mixtral) {
        c.family = QStringLiteral("mixtral");
        c.name = QStringLiteral("Mixtral-style MoE decoder");
        c.detail = QStringLiteral("block_sparse_moe experts w1/w2/w3 behind a router");
    } else if (latentAttention) {
        c.family = QStringLiteral("deepseek");
        c.name = QStringLiteral("DeepSeek-style decoder");
        c.detail = QStringLiteral("multi-head latent attention") +
                   (experts ? QStringLiteral(", routed and shared experts") : QString());
    } else if (experts) {
        c.family = QStringLiteral("qwen-moe");
        c.name = QStringLiteral("Qwen-MoE-style decoder");
        c.detail = names.anyContains(QStringLiteral(".mlp.shared_expert."))
                       ? QStringLiteral("routed experts and a shared expert (Qwen1.5/Qwen2-MoE)")
                       : QStringLiteral("routed experts in mlp.experts (Qwen3-MoE, OLMoE)");
    } else if (fusedQkv) {
        c.family = QStringLiteral("phi3");
        c.name = QStringLiteral("Phi-3-style decoder");
        c.detail = QStringLiteral("fused qkv_proj and gate_up_proj");
    } else {
        c.family = QStringLiteral("llama");
        c.name = QStringLiteral("Llama-style decoder");
        if (qkNorm && sandwich)
            c.detail = QStringLiteral("QK norms and sandwich norms, as Gemma 3");
        else if (sandwich)
            c.detail = QStringLiteral("sandwich norms around attention and MLP, as Gemma 2");
        else if (qkNorm)
            c.detail = QStringLiteral("QK norms, as Qwen3");
        else if (qkvBias)
            c.detail = QStringLiteral("q/k/v biases, as Qwen2 and Qwen2.5");
        else
            c.detail = QStringLiteral("the layout Llama, Mistral and Gemma share");
    }

    c.fields.push_back(number(QStringLiteral("num_hidden_layers"), QStringLiteral("Layers"),
                              static_cast<std::uint64_t>(run.last() + 1), blockRange(layers, 0, run.last())));
    const std::optional<std::uint64_t> width =
        names.has(embed) ? names.dim(embed, 1) : names.dim(b + QStringLiteral("self_attn.o_proj.weight"), 0);
    c.fields.push_back(
        number(QStringLiteral("hidden_size"), QStringLiteral("Hidden size"), width,
               names.has(embed) ? embed + QStringLiteral(" columns") : QStringLiteral("o_proj rows")));
    if (names.has(embed))
        c.fields.push_back(number(QStringLiteral("vocab_size"), QStringLiteral("Vocabulary"),
                                  names.dim(embed, 0), embed + QStringLiteral(" rows")));
    else if (names.has(lmHead))
        c.fields.push_back(number(QStringLiteral("vocab_size"), QStringLiteral("Vocabulary"),
                                  names.dim(lmHead, 0), lmHead + QStringLiteral(" rows")));
    else
        c.fields.push_back(unknown(QStringLiteral("vocab_size"), QStringLiteral("Vocabulary"),
                                   QStringLiteral("no embedding or head in this file")));

    // Heads: the shapes hold heads x head_dim only. A per-head tensor (QK norms, sinks) splits it.
    const QString q = b + QStringLiteral("self_attn.q_proj.weight");
    const QString k = b + QStringLiteral("self_attn.k_proj.weight");
    const std::optional<std::uint64_t> qRows = names.dim(q, 0);
    const std::optional<std::uint64_t> kRows = names.dim(k, 0);
    std::optional<std::uint64_t> headDim;
    std::optional<std::uint64_t> heads;
    QString headEvidence;
    if (qkNorm) {
        headDim = names.dim(b + QStringLiteral("self_attn.q_norm.weight"), 0);
        headEvidence = QStringLiteral("self_attn.q_norm has one weight per head dimension");
        if (headDim && *headDim && qRows)
            heads = *qRows / *headDim;
    } else if (sinks) {
        heads = names.dim(b + QStringLiteral("self_attn.sinks"), 0);
        headEvidence = QStringLiteral("self_attn.sinks has one value per head");
        if (heads && *heads && qRows)
            headDim = *qRows / *heads;
    }
    const QString perKv =
        qRows && kRows && *kRows && *qRows % *kRows == 0
            ? QStringLiteral("; k_proj has 1/%1 of q_proj's rows: %1 query heads per KV head")
                  .arg(*qRows / *kRows)
            : QString();
    const QString noSplit = QStringLiteral("the shapes hold heads x head_dim only (%1 query rows)%2")
                                .arg(qRows ? QString::number(*qRows) : QStringLiteral("?"), perKv);
    if (heads)
        c.fields.push_back(number(QStringLiteral("num_attention_heads"), QStringLiteral("Attention heads"),
                                  heads, headEvidence,
                                  {QStringLiteral("num_attention_heads"), QStringLiteral("n_head")}));
    else
        c.fields.push_back(unknown(QStringLiteral("num_attention_heads"), QStringLiteral("Attention heads"),
                                   noSplit,
                                   {QStringLiteral("num_attention_heads"), QStringLiteral("n_head")}));
    if (headDim && *headDim && kRows)
        c.fields.push_back(number(QStringLiteral("num_key_value_heads"), QStringLiteral("KV heads"),
                                  *kRows / *headDim, QStringLiteral("k_proj rows / head_dim"),
                                  {QStringLiteral("num_key_value_heads"), QStringLiteral("num_kv_heads")}));
    else
        c.fields.push_back(unknown(
            QStringLiteral("num_key_value_heads"), QStringLiteral("KV heads"),
            kRows ? QStringLiteral("the shapes hold KV heads x head_dim only (%1 key rows)").arg(*kRows)
                  : QStringLiteral("no separate k_proj"),
            {QStringLiteral("num_key_value_heads"), QStringLiteral("num_kv_heads")}));
    if (headDim)
        c.fields.push_back(
            number(QStringLiteral("head_dim"), QStringLiteral("Head dimension"), headDim, headEvidence));
    else
        c.fields.push_back(
            unknown(QStringLiteral("head_dim"), QStringLiteral("Head dimension"),
                    QStringLiteral("no per-head tensor (QK norm, sinks) to split the rows by")));
    // What config.json's heads x head_dim must give (ConfigCheck compares them).
    if (qRows)
        c.fields.push_back(hidden(number(QStringLiteral("query_width"), QStringLiteral("Query rows"), qRows,
                                         QStringLiteral("self_attn.q_proj rows"), {QStringLiteral("-")})));
    if (kRows)
        c.fields.push_back(hidden(number(QStringLiteral("kv_width"), QStringLiteral("Key rows"), kRows,
                                         QStringLiteral("self_attn.k_proj rows"), {QStringLiteral("-")})));

    // The feed-forward: a dense MLP, or experts (whose size Mixtral and gpt-oss call intermediate_size).
    const BlockRun dense = names.findBlocks(QStringLiteral("mlp.gate_proj.weight"));
    const BlockRun denseUp = names.findBlocks(QStringLiteral("mlp.gate_up_proj.weight"));
    if (mixtral) {
        const QString w1 = b + QStringLiteral("block_sparse_moe.experts.0.w1.weight");
        c.fields.push_back(number(QStringLiteral("intermediate_size"), QStringLiteral("Expert MLP size"),
                                  names.dim(w1, 0), QStringLiteral("block_sparse_moe.experts.0.w1 rows")));
        c.fields.push_back(
            number(QStringLiteral("num_local_experts"), QStringLiteral("Experts"),
                   expertCount(names, b + QStringLiteral("block_sparse_moe.experts.")),
                   QStringLiteral("block_sparse_moe.experts.# in block %1").arg(run.blocks.front())));
    } else if (fusedExperts) {
        const bool mx = has(QStringLiteral("mlp.experts.gate_up_proj_blocks"));
        const QString gateUp = b + (mx ? QStringLiteral("mlp.experts.gate_up_proj_blocks")
                                       : QStringLiteral("mlp.experts.gate_up_proj"));
        const std::optional<std::uint64_t> e = names.dim(gateUp, 0);
        const std::optional<std::uint64_t> rows = names.dim(gateUp, mx ? 1 : -1);
        c.fields.push_back(number(QStringLiteral("intermediate_size"), QStringLiteral("Expert MLP size"),
                                  rows ? std::optional<std::uint64_t>(*rows / 2) : std::nullopt,
                                  QStringLiteral("half of gate_up_proj's %1 (gate and up fused)")
                                      .arg(mx ? QStringLiteral("rows") : QStringLiteral("columns"))));
        c.fields.push_back(number(QStringLiteral("num_local_experts"), QStringLiteral("Experts"), e,
                                  QStringLiteral("first dimension of mlp.experts.gate_up_proj"),
                                  {QStringLiteral("num_local_experts"), QStringLiteral("num_experts")}));
    } else if (experts) {
        const BlockRun moe = names.findBlocks(QStringLiteral("mlp.experts.0.gate_proj.weight"));
        const QString mb =
            moe.container + QString::number(moe.blocks.empty() ? 0 : moe.blocks.front()) + QLatin1Char('.');
        c.fields.push_back(number(
            QStringLiteral("num_local_experts"), QStringLiteral("Experts"),
            expertCount(names, mb + QStringLiteral("mlp.experts.")),
            QStringLiteral("mlp.experts.# in block %1").arg(moe.blocks.empty() ? 0 : moe.blocks.front()),
            {QStringLiteral("num_experts"), QStringLiteral("n_routed_experts"),
             QStringLiteral("num_local_experts")}));
        c.fields.push_back(number(QStringLiteral("moe_intermediate_size"), QStringLiteral("Expert MLP size"),
                                  names.dim(mb + QStringLiteral("mlp.experts.0.gate_proj.weight"), 0),
                                  QStringLiteral("mlp.experts.0.gate_proj rows")));
        const QString shared = mb + QStringLiteral("mlp.shared_expert.gate_proj.weight");
        const QString shared2 = mb + QStringLiteral("mlp.shared_experts.gate_proj.weight");
        if (names.has(shared))
            c.fields.push_back(number(QStringLiteral("shared_expert_intermediate_size"),
                                      QStringLiteral("Shared expert size"), names.dim(shared, 0),
                                      QStringLiteral("mlp.shared_expert.gate_proj rows")));
        else if (names.has(shared2))
            c.fields.push_back(text(QStringLiteral("shared_experts_rows"),
                                    QStringLiteral("Shared experts' MLP rows"),
                                    QString::number(names.dim(shared2, 0).value_or(0)),
                                    QStringLiteral("mlp.shared_experts.gate_proj rows")));
        if (!dense.container.isEmpty())
            c.fields.push_back(number(
                QStringLiteral("intermediate_size"), QStringLiteral("Dense MLP size"),
                names.dim(dense.container + QString::number(dense.blocks.front()) +
                              QStringLiteral(".mlp.gate_proj.weight"),
                          0),
                QStringLiteral("mlp.gate_proj rows of the dense blocks (%1)").arg(formatBlocks(dense))));
    } else if (!dense.container.isEmpty()) {
        c.fields.push_back(number(QStringLiteral("intermediate_size"), QStringLiteral("MLP size"),
                                  names.dim(b + QStringLiteral("mlp.gate_proj.weight"), 0),
                                  QStringLiteral("mlp.gate_proj rows")));
    } else if (!denseUp.container.isEmpty()) {
        const std::optional<std::uint64_t> rows = names.dim(b + QStringLiteral("mlp.gate_up_proj.weight"), 0);
        c.fields.push_back(number(QStringLiteral("intermediate_size"), QStringLiteral("MLP size"),
                                  rows ? std::optional<std::uint64_t>(*rows / 2) : std::nullopt,
                                  QStringLiteral("half of mlp.gate_up_proj's rows")));
    }

    // Tied only when the embeddings are here and the head is not: a file with neither (a
    // pipeline stage, a shard of middle layers) says nothing about it.
    const bool headStored = names.has(lmHead);
    if (headStored || names.has(embed))
        c.fields.push_back(
            flag(QStringLiteral("tie_word_embeddings"), QStringLiteral("Tied embeddings"), !headStored,
                 headStored ? QStringLiteral("%1 is stored").arg(lmHead)
                            : QStringLiteral("no %1: the head reuses the embeddings").arg(lmHead)));
    else
        c.fields.push_back(unknown(QStringLiteral("tie_word_embeddings"), QStringLiteral("Tied embeddings"),
                                   QStringLiteral("neither %1 nor %2 in this file").arg(embed, lmHead)));
    c.tensors = names.tensorsUnder(prefix) + (headStored ? 1 : 0);
    c.elements = names.elementsUnder(prefix) + (headStored ? names.elementsUnder(lmHead) : 0);
    return c;
}

} // namespace ts
