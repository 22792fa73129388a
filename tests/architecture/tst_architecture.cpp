// Architecture from names and shapes, on header-only copies of published checkpoints
// (models/make_models.py), and config.json compared with it: every field that disagrees is a
// finding, and what the shapes cannot tell is said so.
#include "Fixtures.h"
#include "ModelFolders.h"

#include "architecture/ArchitectureDetector.h"
#include "architecture/ModelProfile.h"
#include "checkpoint/Checkpoint.h"

#include <QFile>
#include <QJsonArray>

using namespace ts;

namespace {

struct Opened {
    std::shared_ptr<const Checkpoint> checkpoint;
    ModelProfile profile;
};

Opened open(const QString& path)
{
    auto c = Checkpoint::open(path);
    if (!c) {
        qWarning("%s", qPrintable(c.error().toString()));
        return {};
    }
    return {c.value(), ModelProfiler::profile(*c.value(), path)};
}

const ArchitectureComponent* component(const ModelProfile& p, const QString& role)
{
    for (const ArchitectureComponent& c : p.architecture.components) {
        if (c.role == role)
            return &c;
    }
    return nullptr;
}

// A field of component `role` as the summary shows it: "32", "cannot tell", "320, 640".
QString value(const ModelProfile& p, const QString& role, const QString& key)
{
    const ArchitectureComponent* c = component(p, role);
    const ArchitectureField* f = c ? c->field(key) : nullptr;
    return f ? f->display() : QStringLiteral("<no field %1>").arg(key);
}

QStringList codes(const std::vector<Diagnostic>& findings)
{
    QStringList c;
    for (const Diagnostic& d : findings)
        c << d.code;
    return c;
}

QString messages(const std::vector<Diagnostic>& findings)
{
    QStringList m;
    for (const Diagnostic& d : findings)
        m << d.message;
    return m.join(QLatin1Char('\n'));
}

// Every field config.json gives agrees with the weights.
bool allAgree(const ModelProfile& p, int* compared = nullptr)
{
    int n = 0;
    for (const ConfigComparison& c : p.config.comparisons) {
        if (c.compared && !c.agrees) {
            qWarning("disagrees: %s %s: weights %s, config %s", qPrintable(c.component),
                     qPrintable(c.configKey), qPrintable(c.weights), qPrintable(c.config));
            return false;
        }
        n += c.compared;
    }
    if (compared)
        *compared = n;
    return p.config.findings.empty();
}

// A generated model's folder again with its config.json changed by `edit`: the weights linked
// (a copy of a sparse 16 GB model would write 16 GB), the JSON files copied.
QString withConfig(QTemporaryDir& dir, const QString& model, const std::function<void(QJsonObject&)>& edit)
{
    const QDir from(models::folder(model));
    for (const QString& name : from.entryList(QDir::Files)) {
        const QString to = QDir(dir.path()).filePath(name);
        const bool ok = name.endsWith(QLatin1String(".json")) ? QFile::copy(from.filePath(name), to)
                                                              : QFile::link(from.filePath(name), to);
        if (!ok)
            return {};
    }
    QJsonObject config = models::readJson(from.filePath(QStringLiteral("config.json")));
    edit(config);
    models::writeJson(QDir(dir.path()).filePath(QStringLiteral("config.json")), config);
    return dir.path();
}

} // namespace

class TestArchitecture : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!models::folder(QString()).isEmpty(), "make_models.py could not write the models");
    }

    void llamaFamily();
    void headsWhereAPerHeadTensorSaysSo();
    void mixtureOfExperts();
    void fusedAttentionModels();
    void encoders();
    void visionAndClip();
    void stableDiffusion();
    void diffusionTransformers();
    void adapters();

    void configThatDisagreesIsAFinding();
    void layersMissingFromTheWeights();
    void headsAndTiedHeadAgainstConfig();
    void aMiddleStageSaysNothingOfTying();
    void adapterConfigAndMetadata();
    void unknownLayoutIsSaidSo();
};

void TestArchitecture::llamaFamily()
{
    const Opened o = open(models::folder(QStringLiteral("meta-llama--Llama-3.1-8B")));
    QVERIFY(o.checkpoint);
    QCOMPARE(o.profile.architecture.family, QStringLiteral("llama"));
    QCOMPARE(value(o.profile, QStringLiteral("model"), QStringLiteral("num_hidden_layers")),
             QStringLiteral("32"));
    QCOMPARE(value(o.profile, QStringLiteral("model"), QStringLiteral("hidden_size")),
             QStringLiteral("4096"));
    QCOMPARE(value(o.profile, QStringLiteral("model"), QStringLiteral("vocab_size")),
             QStringLiteral("128256"));
    QCOMPARE(value(o.profile, QStringLiteral("model"), QStringLiteral("intermediate_size")),
             QStringLiteral("14336"));
    QCOMPARE(value(o.profile, QStringLiteral("model"), QStringLiteral("tie_word_embeddings")),
             QStringLiteral("no"));
    // Llama's shapes hold heads x head_dim only: said, not guessed.
    QCOMPARE(value(o.profile, QStringLiteral("model"), QStringLiteral("num_attention_heads")),
             QStringLiteral("cannot tell"));
    QCOMPARE(value(o.profile, QStringLiteral("model"), QStringLiteral("num_key_value_heads")),
             QStringLiteral("cannot tell"));
    const ArchitectureField* heads =
        component(o.profile, QStringLiteral("model"))->field(QStringLiteral("num_attention_heads"));
    QVERIFY2(heads->evidence.contains(QLatin1String("4 query heads per KV head")),
             qPrintable(heads->evidence));
    // Its config agrees on everything, the heads x head_dim products included.
    int compared = 0;
    QVERIFY(allAgree(o.profile, &compared));
    QVERIFY2(compared >= 5, qPrintable(QString::number(compared)));
    QVERIFY(o.profile.architecture.findings.empty());
    QCOMPARE(o.profile.config.architecture, QStringLiteral("LlamaForCausalLM"));

    const Opened qwen = open(models::folder(QStringLiteral("Qwen--Qwen2.5-7B")));
    QVERIFY(qwen.profile.architecture.components.front().detail.contains(QLatin1String("Qwen2")));
    QVERIFY(allAgree(qwen.profile));
    const Opened small = open(models::folder(QStringLiteral("Qwen--Qwen2.5-0.5B")));
    QCOMPARE(value(small.profile, QStringLiteral("model"), QStringLiteral("tie_word_embeddings")),
             QStringLiteral("yes"));
    QVERIFY(allAgree(small.profile));
    // Gemma: head_dim 256 is wider than hidden / heads, which the config's head_dim explains.
    const Opened gemma = open(models::folder(QStringLiteral("google--gemma-7b")));
    QCOMPARE(gemma.profile.architecture.family, QStringLiteral("llama"));
    QVERIFY(allAgree(gemma.profile));
    const Opened mistral = open(models::folder(QStringLiteral("mistralai--Mistral-7B-v0.1")));
    QCOMPARE(mistral.profile.architecture.family, QStringLiteral("llama"));
    QVERIFY(allAgree(mistral.profile));
}

void TestArchitecture::headsWhereAPerHeadTensorSaysSo()
{
    // Qwen3's q_norm has one weight per head dimension: 4096 / 128 = 32 heads, 1024 / 128 = 8.
    const Opened qwen3 = open(models::folder(QStringLiteral("Qwen--Qwen3-8B")));
    QCOMPARE(value(qwen3.profile, QStringLiteral("model"), QStringLiteral("head_dim")),
             QStringLiteral("128"));
    QCOMPARE(value(qwen3.profile, QStringLiteral("model"), QStringLiteral("num_attention_heads")),
             QStringLiteral("32"));
    QCOMPARE(value(qwen3.profile, QStringLiteral("model"), QStringLiteral("num_key_value_heads")),
             QStringLiteral("8"));
    QVERIFY(allAgree(qwen3.profile));
    // gpt-oss's attention sinks have one value per head.
    const Opened oss = open(models::folder(QStringLiteral("openai--gpt-oss-20b")));
    QCOMPARE(oss.profile.architecture.family, QStringLiteral("gpt-oss"));
    QCOMPARE(value(oss.profile, QStringLiteral("model"), QStringLiteral("num_attention_heads")),
             QStringLiteral("64"));
    QCOMPARE(value(oss.profile, QStringLiteral("model"), QStringLiteral("head_dim")), QStringLiteral("64"));
    QCOMPARE(value(oss.profile, QStringLiteral("model"), QStringLiteral("num_key_value_heads")),
             QStringLiteral("8"));
    QCOMPARE(value(oss.profile, QStringLiteral("model"), QStringLiteral("num_local_experts")),
             QStringLiteral("32"));
    QCOMPARE(value(oss.profile, QStringLiteral("model"), QStringLiteral("intermediate_size")),
             QStringLiteral("2880"));
    QVERIFY(allAgree(oss.profile));
    // T5's relative attention bias has one column per head.
    const Opened t5 = open(models::folder(QStringLiteral("google-t5--t5-small")));
    QCOMPARE(value(t5.profile, QStringLiteral("model"), QStringLiteral("num_heads")), QStringLiteral("8"));
    QCOMPARE(value(t5.profile, QStringLiteral("model"), QStringLiteral("d_kv")), QStringLiteral("64"));
}

void TestArchitecture::mixtureOfExperts()
{
    const Opened mixtral = open(models::folder(QStringLiteral("mistralai--Mixtral-8x7B-v0.1")));
    QCOMPARE(mixtral.profile.architecture.family, QStringLiteral("mixtral"));
    QCOMPARE(value(mixtral.profile, QStringLiteral("model"), QStringLiteral("num_local_experts")),
             QStringLiteral("8"));
    QCOMPARE(value(mixtral.profile, QStringLiteral("model"), QStringLiteral("intermediate_size")),
             QStringLiteral("14336"));
    QVERIFY(allAgree(mixtral.profile));
    const Opened qmoe = open(models::folder(QStringLiteral("Qwen--Qwen1.5-MoE-A2.7B")));
    QCOMPARE(qmoe.profile.architecture.family, QStringLiteral("qwen-moe"));
    QCOMPARE(value(qmoe.profile, QStringLiteral("model"), QStringLiteral("num_local_experts")),
             QStringLiteral("60"));
    QCOMPARE(value(qmoe.profile, QStringLiteral("model"), QStringLiteral("moe_intermediate_size")),
             QStringLiteral("1408"));
    QCOMPARE(value(qmoe.profile, QStringLiteral("model"), QStringLiteral("shared_expert_intermediate_size")),
             QStringLiteral("5632"));
    QVERIFY(allAgree(qmoe.profile));
}

void TestArchitecture::fusedAttentionModels()
{
    const Opened gpt2 = open(models::folder(QStringLiteral("openai-community--gpt2")));
    QCOMPARE(gpt2.profile.architecture.family, QStringLiteral("gpt2"));
    QCOMPARE(value(gpt2.profile, QStringLiteral("model"), QStringLiteral("num_hidden_layers")),
             QStringLiteral("12"));
    QCOMPARE(value(gpt2.profile, QStringLiteral("model"), QStringLiteral("hidden_size")),
             QStringLiteral("768"));
    QCOMPARE(value(gpt2.profile, QStringLiteral("model"), QStringLiteral("vocab_size")),
             QStringLiteral("50257"));
    QCOMPARE(value(gpt2.profile, QStringLiteral("model"), QStringLiteral("max_position_embeddings")),
             QStringLiteral("1024"));
    QCOMPARE(value(gpt2.profile, QStringLiteral("model"), QStringLiteral("intermediate_size")),
             QStringLiteral("3072"));
    QCOMPARE(value(gpt2.profile, QStringLiteral("model"), QStringLiteral("num_attention_heads")),
             QStringLiteral("cannot tell"));
    // config.json spells them n_layer, n_embd, n_positions.
    int compared = 0;
    QVERIFY(allAgree(gpt2.profile, &compared));
    QVERIFY(compared >= 4);
    const Opened bloom = open(models::folder(QStringLiteral("bigscience--bloom")));
    QCOMPARE(bloom.profile.architecture.family, QStringLiteral("bloom"));
    QCOMPARE(value(bloom.profile, QStringLiteral("model"), QStringLiteral("num_hidden_layers")),
             QStringLiteral("70"));
    QVERIFY(allAgree(bloom.profile));
}

void TestArchitecture::encoders()
{
    const Opened bert = open(models::folder(QStringLiteral("google-bert--bert-base-uncased")));
    QCOMPARE(bert.profile.architecture.family, QStringLiteral("bert"));
    QCOMPARE(value(bert.profile, QStringLiteral("model"), QStringLiteral("max_position_embeddings")),
             QStringLiteral("512"));
    QCOMPARE(value(bert.profile, QStringLiteral("model"), QStringLiteral("type_vocab_size")),
             QStringLiteral("2"));
    QVERIFY(allAgree(bert.profile));
    const Opened roberta = open(models::folder(QStringLiteral("FacebookAI--roberta-base")));
    QCOMPARE(roberta.profile.architecture.family, QStringLiteral("roberta"));
    QCOMPARE(value(roberta.profile, QStringLiteral("model"), QStringLiteral("max_position_embeddings")),
             QStringLiteral("514"));
    QVERIFY(allAgree(roberta.profile));
    const Opened t5 = open(models::folder(QStringLiteral("google-t5--t5-small")));
    QCOMPARE(t5.profile.architecture.family, QStringLiteral("t5"));
    QCOMPARE(value(t5.profile, QStringLiteral("model"), QStringLiteral("num_layers")), QStringLiteral("6"));
    QCOMPARE(value(t5.profile, QStringLiteral("model"), QStringLiteral("num_decoder_layers")),
             QStringLiteral("6"));
    QCOMPARE(value(t5.profile, QStringLiteral("model"), QStringLiteral("d_ff")), QStringLiteral("2048"));
    QCOMPARE(value(t5.profile, QStringLiteral("model"), QStringLiteral("vocab_size")),
             QStringLiteral("32128"));
    QVERIFY(allAgree(t5.profile));
}

void TestArchitecture::visionAndClip()
{
    const Opened vit = open(models::folder(QStringLiteral("google--vit-base-patch16-224")));
    QCOMPARE(vit.profile.architecture.family, QStringLiteral("vit"));
    QCOMPARE(value(vit.profile, QStringLiteral("model"), QStringLiteral("patch_size")), QStringLiteral("16"));
    QCOMPARE(value(vit.profile, QStringLiteral("model"), QStringLiteral("image_size")),
             QStringLiteral("224"));
    QVERIFY(allAgree(vit.profile));
    // Both CLIP towers, each against its own config section.
    const Opened clip = open(models::folder(QStringLiteral("openai--clip-vit-base-patch32")));
    QCOMPARE(clip.profile.architecture.components.size(), std::size_t(2));
    QCOMPARE(value(clip.profile, QStringLiteral("text encoder"), QStringLiteral("hidden_size")),
             QStringLiteral("512"));
    QCOMPARE(value(clip.profile, QStringLiteral("vision encoder"), QStringLiteral("hidden_size")),
             QStringLiteral("768"));
    QCOMPARE(value(clip.profile, QStringLiteral("vision encoder"), QStringLiteral("patch_size")),
             QStringLiteral("32"));
    QCOMPARE(value(clip.profile, QStringLiteral("vision encoder"), QStringLiteral("image_size")),
             QStringLiteral("224"));
    QCOMPARE(value(clip.profile, QStringLiteral("text encoder"), QStringLiteral("projection_dim")),
             QStringLiteral("512"));
    int compared = 0;
    QVERIFY(allAgree(clip.profile, &compared));
    QVERIFY(compared >= 8);
}

void TestArchitecture::stableDiffusion()
{
    // The pipeline folder opens its UNet; the other components are listed.
    const Opened sd = open(models::folder(QStringLiteral("CompVis--stable-diffusion-v1-4")));
    QVERIFY(sd.checkpoint);
    QCOMPARE(sd.profile.architecture.family, QStringLiteral("sd-unet"));
    QVERIFY(component(sd.profile, QStringLiteral("unet"))
                ->detail.startsWith(QLatin1String("Stable Diffusion 1.x")));
    QCOMPARE(value(sd.profile, QStringLiteral("unet"), QStringLiteral("block_out_channels")),
             QStringLiteral("320, 640, 1280, 1280"));
    QCOMPARE(value(sd.profile, QStringLiteral("unet"), QStringLiteral("cross_attention_dim")),
             QStringLiteral("768"));
    QCOMPARE(value(sd.profile, QStringLiteral("unet"), QStringLiteral("layers_per_block")),
             QStringLiteral("2"));
    QVERIFY(allAgree(sd.profile));
    QCOMPARE(sd.profile.pipeline.size(), std::size_t(3));
    QStringList families;
    for (const PipelinePart& p : sd.profile.pipeline)
        families << p.name + QLatin1Char('=') + p.family + (p.opened ? QStringLiteral("*") : QString());
    QCOMPARE(families.join(QLatin1Char(' ')),
             QStringLiteral("text_encoder=clip-text unet=sd-unet* vae=sd-vae"));
    const Opened sdxl = open(models::folder(QStringLiteral("stabilityai--stable-diffusion-xl-base-1.0")));
    QVERIFY(component(sdxl.profile, QStringLiteral("unet"))->detail.startsWith(QLatin1String("SDXL")));
    QVERIFY(allAgree(sdxl.profile));
    // The original single file: three parts under three prefixes.
    const Opened single = open(QDir(models::folder(QStringLiteral("stable-diffusion-v1-5--single-file")))
                                   .filePath(QStringLiteral("v1-5-pruned-emaonly.safetensors")));
    QVERIFY(single.profile.architecture.name.startsWith(QLatin1String("Stable Diffusion 1.x checkpoint")));
    QCOMPARE(component(single.profile, QStringLiteral("unet"))->prefix,
             QStringLiteral("model.diffusion_model."));
    QCOMPARE(component(single.profile, QStringLiteral("vae"))->prefix, QStringLiteral("first_stage_model."));
    QCOMPARE(component(single.profile, QStringLiteral("text encoder"))->prefix,
             QStringLiteral("cond_stage_model.transformer.text_model."));
    QCOMPARE(value(single.profile, QStringLiteral("vae"), QStringLiteral("latent_channels")),
             QStringLiteral("4"));
    QVERIFY(single.profile.architecture.notes.isEmpty());
}

void TestArchitecture::diffusionTransformers()
{
    const QDir flux(models::folder(QStringLiteral("black-forest-labs--FLUX.1-dev")));
    const Opened bfl = open(flux.filePath(QStringLiteral("flux1-dev.safetensors")));
    QCOMPARE(bfl.profile.architecture.family, QStringLiteral("flux"));
    QCOMPARE(value(bfl.profile, QStringLiteral("transformer"), QStringLiteral("num_layers")),
             QStringLiteral("19"));
    QCOMPARE(value(bfl.profile, QStringLiteral("transformer"), QStringLiteral("num_single_layers")),
             QStringLiteral("38"));
    QCOMPARE(value(bfl.profile, QStringLiteral("transformer"), QStringLiteral("num_attention_heads")),
             QStringLiteral("24"));
    QCOMPARE(value(bfl.profile, QStringLiteral("transformer"), QStringLiteral("guidance_embeds")),
             QStringLiteral("yes"));
    const Opened diffusers = open(flux.filePath(QStringLiteral("transformer")));
    QCOMPARE(diffusers.profile.architecture.family, QStringLiteral("flux"));
    QCOMPARE(value(diffusers.profile, QStringLiteral("transformer"), QStringLiteral("attention_head_dim")),
             QStringLiteral("128"));
    QCOMPARE(value(diffusers.profile, QStringLiteral("transformer"), QStringLiteral("joint_attention_dim")),
             QStringLiteral("4096"));
    QVERIFY(allAgree(diffusers.profile));
    const Opened ae = open(flux.filePath(QStringLiteral("ae.safetensors")));
    QCOMPARE(ae.profile.architecture.family, QStringLiteral("sd-vae"));
    QCOMPARE(value(ae.profile, QStringLiteral("vae"), QStringLiteral("latent_channels")),
             QStringLiteral("16"));
    const Opened sd3 =
        open(models::folder(QStringLiteral("stabilityai--stable-diffusion-3-medium-diffusers--transformer")));
    QCOMPARE(sd3.profile.architecture.family, QStringLiteral("sd3"));
    QCOMPARE(value(sd3.profile, QStringLiteral("transformer"), QStringLiteral("num_layers")),
             QStringLiteral("24"));
    QCOMPARE(value(sd3.profile, QStringLiteral("transformer"), QStringLiteral("pos_embed_max_size")),
             QStringLiteral("192"));
    QCOMPARE(value(sd3.profile, QStringLiteral("transformer"), QStringLiteral("num_attention_heads")),
             QStringLiteral("cannot tell"));
    // 24 heads x 64 = 1536, the width: the config agrees though the shapes cannot split it.
    QVERIFY(allAgree(sd3.profile));
}

void TestArchitecture::adapters()
{
    const Opened kohya = open(QDir(models::folder(QStringLiteral("kohya-lora-sd15")))
                                  .filePath(QStringLiteral("example_lora.safetensors")));
    QVERIFY(kohya.profile.architecture.adapter);
    const AdapterInfo& a = *kohya.profile.architecture.adapter;
    QCOMPARE(a.format, QStringLiteral("kohya"));
    QCOMPARE(a.ranks, std::vector<std::uint64_t>{16});
    // The alpha is read from the 96 scalar tensors (F16 8.0 each), not assumed.
    QCOMPARE(a.alpha, std::optional<double>(8.0));
    QCOMPARE(a.alphaSource, QStringLiteral("alpha tensors"));
    QCOMPARE(a.modules, 96ull);
    QCOMPARE(a.components, (QStringList{QStringLiteral("text encoder"), QStringLiteral("unet")}));
    for (const char* t : {"to_q", "to_k", "to_v", "to_out_0", "q_proj", "out_proj"})
        QVERIFY2(a.targets.contains(QLatin1String(t)), qPrintable(a.targets.join(QLatin1Char(','))));
    QVERIFY(a.base.startsWith(QLatin1String("sd_v1")));
    QCOMPARE(value(kohya.profile, QStringLiteral("adapter"), QStringLiteral("scale")), QStringLiteral("0.5"));
    QVERIFY(kohya.profile.findings().empty());

    const Opened peft = open(models::folder(QStringLiteral("peft-lora-llama-3.1-8b")));
    QVERIFY(peft.profile.architecture.adapter);
    QCOMPARE(peft.profile.architecture.adapter->format, QStringLiteral("PEFT"));
    QCOMPARE(peft.profile.architecture.adapter->ranks, std::vector<std::uint64_t>{8});
    QCOMPARE(peft.profile.architecture.adapter->targets,
             (QStringList{QStringLiteral("q_proj"), QStringLiteral("v_proj")}));
    QVERIFY(peft.profile.config.found());
    QVERIFY(allAgree(peft.profile));
}

void TestArchitecture::configThatDisagreesIsAFinding()
{
    QTemporaryDir dir;
    const QString folder = withConfig(dir, QStringLiteral("meta-llama--Llama-3.1-8B"), [](QJsonObject& c) {
        c.insert(QStringLiteral("num_hidden_layers"), 34);
        c.insert(QStringLiteral("vocab_size"), 128000);
    });
    QVERIFY(!folder.isEmpty());
    const Opened o = open(folder);
    QCOMPARE(codes(o.profile.config.findings),
             (QStringList{QStringLiteral("ConfigMismatch"), QStringLiteral("ConfigMismatch")}));
    const QString text = messages(o.profile.config.findings);
    QVERIFY2(text.contains(QLatin1String("num_hidden_layers is 34, but the weights have 32")),
             qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("vocab_size is 128000, but the weights have 128256")),
             qPrintable(text));
    for (const Diagnostic& d : o.profile.config.findings)
        QCOMPARE(d.severity, Severity::Error);
    // A config for another kind of model altogether.
    QTemporaryDir other;
    const Opened bert =
        open(withConfig(other, QStringLiteral("meta-llama--Llama-3.1-8B"), [](QJsonObject& c) {
            c.insert(QStringLiteral("model_type"), QStringLiteral("bert"));
        }));
    QVERIFY2(messages(bert.profile.config.findings).contains(QLatin1String("describes a \"bert\" model")),
             qPrintable(messages(bert.profile.config.findings)));
}

void TestArchitecture::layersMissingFromTheWeights()
{
    // The audit's example: a config that says 32 layers beside weights with 30.
    QTemporaryDir dir;
    const QDir d(dir.path());
    QVERIFY(models::writeHeaderOnly(d.filePath(QStringLiteral("model.safetensors")), models::llama(30)));
    QVERIFY(models::writeJson(d.filePath(QStringLiteral("config.json")),
                              QJsonObject{{QStringLiteral("model_type"), QStringLiteral("llama")},
                                          {QStringLiteral("num_hidden_layers"), 32},
                                          {QStringLiteral("hidden_size"), 256},
                                          {QStringLiteral("num_attention_heads"), 4},
                                          {QStringLiteral("num_key_value_heads"), 1}}));
    Opened o = open(dir.path());
    QVERIFY2(messages(o.profile.findings())
                 .contains(QLatin1String("num_hidden_layers is 32, but the weights have 30")),
             qPrintable(messages(o.profile.findings())));
    QCOMPARE(codes(o.profile.findings()), QStringList{QStringLiteral("ConfigMismatch")});

    // A block missing from the middle of the run, and a block without a tensor its siblings have:
    // the names alone say so, config or not.
    QTemporaryDir gap;
    QVERIFY(models::writeHeaderOnly(QDir(gap.path()).filePath(QStringLiteral("model.safetensors")),
                                    models::llama(32, {17}, 5)));
    o = open(gap.path());
    QCOMPARE(codes(o.profile.architecture.findings),
             (QStringList{QStringLiteral("MissingBlock"), QStringLiteral("IncompleteBlock")}));
    const QString text = messages(o.profile.architecture.findings);
    QVERIFY2(text.contains(QLatin1String("model.layers.17 is missing")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("lack self_attn.k_proj.weight")) &&
                 text.contains(QLatin1String("(block 5)")),
             qPrintable(text));
    QCOMPARE(o.profile.architecture.findings[1].tensor,
             QStringLiteral("model.layers.5.self_attn.k_proj.weight"));
}

void TestArchitecture::aMiddleStageSaysNothingOfTying()
{
    // A pipeline stage or a shard of middle layers: no embeddings and no head. Neither "tied"
    // nor "not tied" follows from that, and a config that says either is not contradicted.
    std::vector<models::Tensor> layers = models::llama(4, {}, -1, false);
    layers.erase(layers.begin()); // model.embed_tokens.weight
    QTemporaryDir dir;
    const QDir d(dir.path());
    QVERIFY(models::writeHeaderOnly(d.filePath(QStringLiteral("model.safetensors")), layers));
    QVERIFY(models::writeJson(d.filePath(QStringLiteral("config.json")),
                              QJsonObject{{QStringLiteral("model_type"), QStringLiteral("llama")},
                                          {QStringLiteral("tie_word_embeddings"), false}}));
    const Opened o = open(dir.path());
    QCOMPARE(o.profile.architecture.family, QStringLiteral("llama"));
    QCOMPARE(value(o.profile, QStringLiteral("model"), QStringLiteral("tie_word_embeddings")),
             QStringLiteral("cannot tell"));
    const ArchitectureField* tied =
        component(o.profile, QStringLiteral("model"))->field(QStringLiteral("tie_word_embeddings"));
    QVERIFY2(tied->evidence.contains(QLatin1String("neither model.embed_tokens.weight nor lm_head.weight")),
             qPrintable(tied->evidence));
    QVERIFY2(!codes(o.profile.findings()).contains(QStringLiteral("ConfigMismatch")),
             qPrintable(messages(o.profile.findings())));
}

void TestArchitecture::headsAndTiedHeadAgainstConfig()
{
    QTemporaryDir dir;
    const QDir d(dir.path());
    // 256 query rows and 64 key rows; a config of 8 heads x head_dim 64 wants 512.
    QVERIFY(models::writeHeaderOnly(d.filePath(QStringLiteral("model.safetensors")),
                                    models::llama(2, {}, -1, false)));
    QVERIFY(models::writeJson(d.filePath(QStringLiteral("config.json")),
                              QJsonObject{{QStringLiteral("model_type"), QStringLiteral("llama")},
                                          {QStringLiteral("num_attention_heads"), 8},
                                          {QStringLiteral("head_dim"), 64},
                                          {QStringLiteral("num_key_value_heads"), 1},
                                          {QStringLiteral("tie_word_embeddings"), false}}));
    const Opened o = open(dir.path());
    const QString text = messages(o.profile.findings());
    QVERIFY2(text.contains(QLatin1String(
                 "num_attention_heads 8 x head_dim 64 gives 512 rows, but self_attn.q_proj rows has 256")),
             qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("no lm_head: transformers would initialise the head at random")),
             qPrintable(text));
    // The other way round: a stored head the config ties away.
    QTemporaryDir tied;
    const QDir t(tied.path());
    QVERIFY(models::writeHeaderOnly(t.filePath(QStringLiteral("model.safetensors")), models::llama(2)));
    QVERIFY(models::writeJson(t.filePath(QStringLiteral("config.json")),
                              QJsonObject{{QStringLiteral("model_type"), QStringLiteral("llama")},
                                          {QStringLiteral("tie_word_embeddings"), true}}));
    const Opened o2 = open(tied.path());
    QCOMPARE(codes(o2.profile.findings()), QStringList{QStringLiteral("TiedHeadIgnored")});
    QCOMPARE(o2.profile.findings().front().severity, Severity::Warning);
}

void TestArchitecture::adapterConfigAndMetadata()
{
    QTemporaryDir dir;
    const QString folder = withConfig(dir, QStringLiteral("peft-lora-llama-3.1-8b"), [](QJsonObject&) {});
    QFile::remove(QDir(folder).filePath(QStringLiteral("config.json")));
    QJsonObject adapter = models::readJson(QDir(folder).filePath(QStringLiteral("adapter_config.json")));
    adapter.insert(QStringLiteral("r"), 16);
    adapter.insert(QStringLiteral("target_modules"),
                   QJsonArray{QStringLiteral("q_proj"), QStringLiteral("k_proj"), QStringLiteral("v_proj")});
    QVERIFY(models::writeJson(QDir(folder).filePath(QStringLiteral("adapter_config.json")), adapter));
    const Opened o = open(folder);
    const QString text = messages(o.profile.findings());
    QVERIFY2(text.contains(QLatin1String("r is 16, but the adapter's tensors say 8")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String(
                 "target_modules is q_proj, k_proj, v_proj, but the adapter's tensors say q_proj, v_proj")),
             qPrintable(text));

    // kohya's metadata against its own tensors: a resized LoRA whose ss_network_dim still says 32.
    QTemporaryDir lora;
    Metadata m;
    m.set(QStringLiteral("ss_network_dim"), QStringLiteral("32"));
    const QString path = QDir(lora.path()).filePath(QStringLiteral("lora.safetensors"));
    QVERIFY(
        models::writeHeaderOnly(path,
                                {{QStringLiteral("lora_unet_x_to_q.lora_down.weight"), Dtype::F16, {16, 320}},
                                 {QStringLiteral("lora_unet_x_to_q.lora_up.weight"), Dtype::F16, {320, 16}}},
                                m));
    const Opened k = open(path);
    QCOMPARE(codes(k.profile.findings()), QStringList{QStringLiteral("AdapterMetadataMismatch")});
    QVERIFY(messages(k.profile.findings())
                .contains(QLatin1String("ss_network_dim says rank 32, but every lora_down has 16 rows")));
}

void TestArchitecture::unknownLayoutIsSaidSo()
{
    QTemporaryDir dir;
    const QString path = QDir(dir.path()).filePath(QStringLiteral("m.safetensors"));
    std::vector<models::Tensor> t;
    for (int i = 0; i < 5; ++i)
        t.push_back({QStringLiteral("net.stage.%1.conv.weight").arg(i), Dtype::F32, {8, 8, 3, 3}});
    QVERIFY(models::writeHeaderOnly(path, t));
    const Opened o = open(path);
    QVERIFY(!o.profile.architecture.recognized());
    QVERIFY2(o.profile.architecture.notes.join(QString()).contains(QLatin1String("net.stage.# (5 blocks)")),
             qPrintable(o.profile.architecture.notes.join(QString())));
    // The real fixtures are not transformers: nothing is claimed about them.
    const Opened real = open(ts::test::realFixture(QStringLiteral("face_landmark_68_f32.safetensors")));
    QVERIFY(real.checkpoint);
    QVERIFY(!real.profile.architecture.recognized());
}

QTEST_GUILESS_MAIN(TestArchitecture)
#include "tst_architecture.moc"
