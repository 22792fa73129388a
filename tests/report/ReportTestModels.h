#pragma once

// Small models with real values for the report suites, written with the project's own writer:
// a Llama-style decoder whose weights are seeded normal noise, one block scaled to stand out
// from its siblings, optionally a NaN, hostile metadata, and a config.json beside it.
#include "io/MemorySource.h"
#include "write/SafetensorsWriter.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <vector>

namespace reportmodels {

struct DemoOptions {
    int layers = 6;
    std::uint64_t hidden = 64;
    int scaledLayer = 3;   // its down_proj is 100x its siblings'; -1 for none
    bool plantNaN = false; // a NaN in layer 0's q_proj
    std::optional<ts::Metadata> metadata;
};

inline ts::WriterTensor normal(const QString& name, std::vector<std::uint64_t> shape, double stddev,
                               std::mt19937& rng, bool nan = false)
{
    std::uint64_t n = 1;
    for (std::uint64_t d : shape)
        n *= d;
    std::normal_distribution<float> dist(0.0f, static_cast<float>(stddev));
    std::vector<float> values(n);
    for (float& v : values)
        v = dist(rng);
    if (nan)
        values[n / 2] = std::numeric_limits<float>::quiet_NaN();
    QByteArray bytes(static_cast<qsizetype>(n * sizeof(float)), Qt::Uninitialized);
    std::memcpy(bytes.data(), values.data(), bytes.size());
    auto source = std::make_shared<ts::MemorySource>(bytes);
    return {name, ts::Dtype::F32, std::move(shape), {source, 0, static_cast<std::uint64_t>(bytes.size())}};
}

inline bool writeDemo(const QString& path, const DemoOptions& o = {})
{
    std::mt19937 rng(20260821);
    const std::uint64_t h = o.hidden, inter = 2 * o.hidden, vocab = 512;
    std::vector<ts::WriterTensor> t;
    t.push_back(normal(QStringLiteral("model.embed_tokens.weight"), {vocab, h}, 0.02, rng));
    for (int i = 0; i < o.layers; ++i) {
        const QString p = QStringLiteral("model.layers.%1.").arg(i);
        t.push_back(
            normal(p + QStringLiteral("self_attn.q_proj.weight"), {h, h}, 0.02, rng, o.plantNaN && i == 0));
        t.push_back(normal(p + QStringLiteral("self_attn.k_proj.weight"), {h / 4, h}, 0.02, rng));
        t.push_back(normal(p + QStringLiteral("self_attn.v_proj.weight"), {h / 4, h}, 0.02, rng));
        t.push_back(normal(p + QStringLiteral("self_attn.o_proj.weight"), {h, h}, 0.02, rng));
        t.push_back(normal(p + QStringLiteral("mlp.gate_proj.weight"), {inter, h}, 0.02, rng));
        t.push_back(normal(p + QStringLiteral("mlp.up_proj.weight"), {inter, h}, 0.02, rng));
        t.push_back(normal(p + QStringLiteral("mlp.down_proj.weight"), {h, inter},
                           i == o.scaledLayer ? 2.0 : 0.02, rng));
        t.push_back(normal(p + QStringLiteral("input_layernorm.weight"), {h}, 1.0, rng));
        t.push_back(normal(p + QStringLiteral("post_attention_layernorm.weight"), {h}, 1.0, rng));
    }
    t.push_back(normal(QStringLiteral("model.norm.weight"), {h}, 1.0, rng));
    t.push_back(normal(QStringLiteral("lm_head.weight"), {vocab, h}, 0.02, rng));
    return ts::SafetensorsWriter::write(path, std::move(t), o.metadata).ok();
}

inline bool writeConfig(const QString& folder, int layers, std::uint64_t hidden = 64)
{
    const QJsonObject c{{QStringLiteral("architectures"), QJsonArray{QStringLiteral("LlamaForCausalLM")}},
                        {QStringLiteral("model_type"), QStringLiteral("llama")},
                        {QStringLiteral("num_hidden_layers"), layers},
                        {QStringLiteral("hidden_size"), static_cast<qint64>(hidden)},
                        {QStringLiteral("num_attention_heads"), 4},
                        {QStringLiteral("num_key_value_heads"), 1},
                        {QStringLiteral("intermediate_size"), static_cast<qint64>(2 * hidden)},
                        {QStringLiteral("vocab_size"), 512}};
    QFile f(QDir(folder).filePath(QStringLiteral("config.json")));
    return f.open(QIODevice::WriteOnly) && f.write(QJsonDocument(c).toJson()) > 0;
}

// Metadata a stranger could write: markup, a request, a script, a bidi override.
inline ts::Metadata hostileMetadata(quint16 port)
{
    ts::Metadata m;
    m.set(QStringLiteral("format"), QStringLiteral("pt"));
    m.set(QStringLiteral("ss_network_dim"), QStringLiteral("16"));
    m.set(QStringLiteral("ss_training_started_at"), QStringLiteral("1700000000"));
    m.set(
        QStringLiteral("<img src=\"http://127.0.0.1:%1/key.png\">").arg(port),
        QStringLiteral("</pre></td><img src=\"http://127.0.0.1:%1/value.png\" onerror=\"console.error('x')\">"
                       "<script>console.error('script ran')</script><link rel=\"stylesheet\" "
                       "href=\"http://127.0.0.1:%1/x.css\">")
            .arg(port));
    m.set(QStringLiteral("modelspec.thumbnail"),
          QStringLiteral("data:image/svg+xml,<svg onload=\"console.error(1)\"/>"));
    m.set(QStringLiteral("description"),
          QStringLiteral("safe\u202Etxt.exe [link](http://127.0.0.1:%1/md) | cell").arg(port));
    return m;
}

} // namespace reportmodels
