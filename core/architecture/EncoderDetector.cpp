#include "architecture/EncoderDetector.h"

#include "architecture/Fields.h"

namespace ts {
namespace {

using namespace fields;

std::optional<ArchitectureComponent> bert(const NameShapes& names)
{
    const BlockRun run = names.findBlocks(QStringLiteral("attention.self.query.weight"));
    if (run.container.isEmpty() || !run.container.endsWith(QLatin1String("encoder.layer.")))
        return std::nullopt;
    const QString prefix = run.container.left(run.container.size() - 14); // "bert.", "roberta.", ""
    const QString e = prefix + QStringLiteral("embeddings.");
    const QString b = run.container + QString::number(run.blocks.front()) + QLatin1Char('.');
    const QString words = e + QStringLiteral("word_embeddings.weight");
    ArchitectureComponent c;
    c.role = QStringLiteral("model");
    const bool roberta =
        prefix.startsWith(QLatin1String("roberta")) || prefix.startsWith(QLatin1String("xlm"));
    c.family = roberta ? QStringLiteral("roberta") : QStringLiteral("bert");
    c.name = roberta ? QStringLiteral("RoBERTa-style encoder") : QStringLiteral("BERT-style encoder");
    c.detail = names.anyEndsWith(QStringLiteral("LayerNorm.gamma"))
                   ? QStringLiteral("TensorFlow-era LayerNorm gamma/beta names")
                   : QString();
    c.prefix = prefix;
    c.fields = {
        number(QStringLiteral("num_hidden_layers"), QStringLiteral("Layers"),
               static_cast<std::uint64_t>(run.last() + 1), blockRange(run.container, 0, run.last())),
        number(QStringLiteral("hidden_size"), QStringLiteral("Hidden size"), names.dim(words, 1),
               words + QStringLiteral(" columns")),
        number(QStringLiteral("vocab_size"), QStringLiteral("Vocabulary"), names.dim(words, 0),
               words + QStringLiteral(" rows")),
        number(QStringLiteral("intermediate_size"), QStringLiteral("MLP size"),
               names.dim(b + QStringLiteral("intermediate.dense.weight"), 0),
               QStringLiteral("intermediate.dense rows")),
        number(QStringLiteral("max_position_embeddings"), QStringLiteral("Positions"),
               names.dim(e + QStringLiteral("position_embeddings.weight"), 0),
               QStringLiteral("position_embeddings rows")),
        number(QStringLiteral("type_vocab_size"), QStringLiteral("Token types"),
               names.dim(e + QStringLiteral("token_type_embeddings.weight"), 0),
               QStringLiteral("token_type_embeddings rows")),
        unknown(QStringLiteral("num_attention_heads"), QStringLiteral("Attention heads"),
                QStringLiteral("query, key and value hold all heads in one square matrix")),
    };
    c.tensors = names.tensorsUnder(QString());
    c.elements = names.elementsUnder(QString());
    return c;
}

std::optional<ArchitectureComponent> t5(const NameShapes& names)
{
    // The encoder's run, by name: the decoder's has as many blocks and would win a count.
    const QString anchor = QStringLiteral("encoder.block.0.layer.0.SelfAttention.q.weight");
    const QString first = names.firstEndingWith(anchor);
    if (first.isEmpty() ||
        (first.size() > anchor.size() && first.at(first.size() - anchor.size() - 1) != QLatin1Char('.')))
        return std::nullopt;
    const QString prefix = first.left(first.size() - anchor.size());
    BlockRun enc;
    enc.container = prefix + QStringLiteral("encoder.block.");
    enc.blocks = names.blocksWith(enc.container, QStringLiteral("layer.0.SelfAttention.q.weight"));
    const QString e0 = enc.container + QString::number(enc.blocks.front()) + QLatin1Char('.');
    const QString decoderBlocks = prefix + QStringLiteral("decoder.block.");
    const std::vector<int> dec =
        names.blocksWith(decoderBlocks, QStringLiteral("layer.0.SelfAttention.q.weight"));
    const QString bias = e0 + QStringLiteral("layer.0.SelfAttention.relative_attention_bias.weight");
    const bool gated = names.has(e0 + QStringLiteral("layer.1.DenseReluDense.wi_0.weight"));
    const QString shared = names.has(prefix + QStringLiteral("shared.weight"))
                               ? prefix + QStringLiteral("shared.weight")
                               : prefix + QStringLiteral("encoder.embed_tokens.weight");
    const std::optional<std::uint64_t> heads = names.dim(bias, 1);
    const std::optional<std::uint64_t> qRows =
        names.dim(e0 + QStringLiteral("layer.0.SelfAttention.q.weight"), 0);
    ArchitectureComponent c;
    c.role = dec.empty() ? QStringLiteral("text encoder") : QStringLiteral("model");
    c.family = QStringLiteral("t5");
    c.name = dec.empty() ? QStringLiteral("T5 encoder") : QStringLiteral("T5-style encoder-decoder");
    c.detail = gated ? QStringLiteral("gated feed-forward (T5 v1.1, Flan-T5, T5-XXL)")
                     : QStringLiteral("ReLU feed-forward (original T5)");
    c.prefix = prefix;
    c.fields = {
        number(QStringLiteral("num_layers"), QStringLiteral("Encoder layers"),
               static_cast<std::uint64_t>(enc.last() + 1), blockRange(enc.container, 0, enc.last())),
        dec.empty()
            ? unknown(QStringLiteral("num_decoder_layers"), QStringLiteral("Decoder layers"),
                      QStringLiteral("no decoder in this file (an encoder alone)"))
            : number(QStringLiteral("num_decoder_layers"), QStringLiteral("Decoder layers"),
                     static_cast<std::uint64_t>(dec.back() + 1), blockRange(decoderBlocks, 0, dec.back()),
                     {QStringLiteral("num_decoder_layers"), QStringLiteral("num_layers")}),
        number(QStringLiteral("d_model"), QStringLiteral("Hidden size"), names.dim(shared, 1),
               shared + QStringLiteral(" columns")),
        number(QStringLiteral("vocab_size"), QStringLiteral("Vocabulary"), names.dim(shared, 0),
               shared + QStringLiteral(" rows")),
        number(QStringLiteral("d_ff"), QStringLiteral("MLP size"),
               names.dim(e0 + (gated ? QStringLiteral("layer.1.DenseReluDense.wi_0.weight")
                                     : QStringLiteral("layer.1.DenseReluDense.wi.weight")),
                         0),
               gated ? QStringLiteral("DenseReluDense.wi_0 rows") : QStringLiteral("DenseReluDense.wi rows")),
        number(QStringLiteral("num_heads"), QStringLiteral("Attention heads"), heads,
               QStringLiteral("relative_attention_bias has one column per head")),
        number(QStringLiteral("d_kv"), QStringLiteral("Head dimension"),
               heads && *heads && qRows ? std::optional<std::uint64_t>(*qRows / *heads) : std::nullopt,
               QStringLiteral("q rows / heads")),
        number(QStringLiteral("relative_attention_num_buckets"), QStringLiteral("Position buckets"),
               names.dim(bias, 0), QStringLiteral("relative_attention_bias rows")),
    };
    c.tensors = names.tensorsUnder(prefix);
    c.elements = names.elementsUnder(prefix);
    return c;
}

} // namespace

std::vector<ArchitectureComponent> EncoderDetector::detect(const NameShapes& names)
{
    std::vector<ArchitectureComponent> found;
    if (auto b = bert(names))
        found.push_back(std::move(*b));
    if (auto t = t5(names))
        found.push_back(std::move(*t));
    return found;
}

} // namespace ts
