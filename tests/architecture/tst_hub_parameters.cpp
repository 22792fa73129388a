// The parameter count as the Hugging Face Hub shows it, on header-only copies of published
// checkpoints (models/make_models.py; where each shape and each pinned count comes from is in
// models/SOURCES.md), and the rules of huggingface.js's parse-safetensors-metadata.ts one by one.
#include "ModelFolders.h"

#include "architecture/ModelProfile.h"
#include "checkpoint/Checkpoint.h"
#include "hub/HubParameterCount.h"
#include "hub/HubQuantization.h"

#include <QJsonArray>

#include <map>

using namespace ts;

namespace {

using Counts = std::map<QString, quint64>;

Counts countsOf(const HubParameterCount& hub)
{
    Counts c;
    for (const HubDtypeCount& d : hub.dtypes)
        c[dtypeName(d.dtype)] = d.parameters;
    return c;
}

QString text(const Counts& c)
{
    QStringList parts;
    for (const auto& [dtype, n] : c)
        parts << QStringLiteral("%1 %2").arg(dtype).arg(n);
    return parts.join(QStringLiteral(", "));
}

HubParameterCount countOf(const std::vector<models::Tensor>& tensors, const QJsonObject& config = {})
{
    std::vector<TensorInfo> infos;
    for (const models::Tensor& t : tensors)
        infos.push_back({t.name, t.dtype, t.shape, 0, 0});
    HubParameterCount result;
    HubParameterCounter::count(infos, HubQuantization::fromConfig(config), result);
    return result;
}

QJsonObject quantConfig(const QJsonObject& q)
{
    return QJsonObject{{QStringLiteral("quantization_config"), q}};
}

} // namespace

Q_DECLARE_METATYPE(Counts)

class TestHubParameters : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!models::folder(QString()).isEmpty(), "make_models.py could not write the models");
    }

    void publishedCounts_data();
    void publishedCounts();
    void sameCountThroughTheOpenedCheckpoint();

    void scalarsAndScaleDtypesAreNeverParameters();
    void packedWeights();
    void bookkeepingIsLeftOut();
    void modulesNotConverted();
    void globAndTargets();
    void metadataTotalIsCappedAndParsedAsJavaScriptDoes();
    void whichFilesTheHubReads();
    void unreadableConfigIsIgnoredAsTheHubIgnoresIt();
};

void TestHubParameters::publishedCounts_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("hubFile");
    QTest::addColumn<Counts>("expected");
    const QString index = QStringLiteral("model.safetensors.index.json");
    const QString single = QStringLiteral("model.safetensors");
    // The Hub's own client pins these (huggingface.js parse-safetensors-metadata.spec.ts).
    QTest::newRow("bert-base-uncased") << QStringLiteral("google-bert--bert-base-uncased") << single
                                       << Counts{{QStringLiteral("F32"), 110'106'428}};
    QTest::newRow("roberta-base") << QStringLiteral("FacebookAI--roberta-base") << single
                                  << Counts{{QStringLiteral("F32"), 124'697'433},
                                            {QStringLiteral("I64"), 514}};
    QTest::newRow("stable-diffusion-v1-4 (unet/)")
        << QStringLiteral("CompVis--stable-diffusion-v1-4")
        << QStringLiteral("unet/diffusion_pytorch_model.safetensors")
        << Counts{{QStringLiteral("F32"), 859'520'964}};
    QTest::newRow("bloom (72 shards)")
        << QStringLiteral("bigscience--bloom") << index << Counts{{QStringLiteral("BF16"), 176'247'271'424}};
    QTest::newRow("gemma-7b") << QStringLiteral("google--gemma-7b") << index
                              << Counts{{QStringLiteral("BF16"), 8'537'680'896}};
    QTest::newRow("gpt-oss-20b (mxfp4)")
        << QStringLiteral("openai--gpt-oss-20b") << index
        << Counts{{QStringLiteral("BF16"), 1'804'459'584}, {QStringLiteral("U8"), 19'110'297'600}};
    QTest::newRow("gpt-oss-120b (mxfp4)")
        << QStringLiteral("openai--gpt-oss-120b") << index
        << Counts{{QStringLiteral("BF16"), 2'167'371'072}, {QStringLiteral("U8"), 114'661'785'600}};
    QTest::newRow("Llama-3.1-8B bnb-4bit")
        << QStringLiteral("unsloth--Meta-Llama-3.1-8B-Instruct-bnb-4bit") << single
        << Counts{{QStringLiteral("BF16"), 1'050'939'392}, {QStringLiteral("U8"), 6'979'321'856}};
    QTest::newRow("Llama-3.3-70B w4a16 (compressed-tensors)")
        << QStringLiteral("RedHatAI--Llama-3.3-70B-Instruct-quantized.w4a16") << index
        << Counts{{QStringLiteral("I32"), 68'451'041'280}, {QStringLiteral("BF16"), 2'102'665'216}};
    // The Hub's model pages (SOURCES.md).
    QTest::newRow("Llama-3.1-8B") << QStringLiteral("meta-llama--Llama-3.1-8B") << index
                                  << Counts{{QStringLiteral("BF16"), 8'030'261'248}};
    QTest::newRow("Mistral-7B-v0.1") << QStringLiteral("mistralai--Mistral-7B-v0.1") << index
                                     << Counts{{QStringLiteral("BF16"), 7'241'732'096}};
    QTest::newRow("Qwen2.5-7B") << QStringLiteral("Qwen--Qwen2.5-7B") << index
                                << Counts{{QStringLiteral("BF16"), 7'615'616'512}};
    QTest::newRow("Qwen2.5-0.5B") << QStringLiteral("Qwen--Qwen2.5-0.5B") << single
                                  << Counts{{QStringLiteral("BF16"), 494'032'768}};
    QTest::newRow("Qwen3-8B") << QStringLiteral("Qwen--Qwen3-8B") << index
                              << Counts{{QStringLiteral("BF16"), 8'190'735'360}};
    QTest::newRow("Mixtral-8x7B") << QStringLiteral("mistralai--Mixtral-8x7B-v0.1") << index
                                  << Counts{{QStringLiteral("BF16"), 46'702'792'704}};
    QTest::newRow("vit-base-patch16-224") << QStringLiteral("google--vit-base-patch16-224") << single
                                          << Counts{{QStringLiteral("F32"), 86'567'656}};
    QTest::newRow("t5-small") << QStringLiteral("google-t5--t5-small") << single
                              << Counts{{QStringLiteral("F32"), 60'506'624}};
    QTest::newRow("stable-diffusion-xl-base-1.0 (unet/)")
        << QStringLiteral("stabilityai--stable-diffusion-xl-base-1.0")
        << QStringLiteral("unet/diffusion_pytorch_model.safetensors")
        << Counts{{QStringLiteral("F32"), 2'567'463'684}};
    QTest::newRow("FLUX.1-dev (transformer/)")
        << QStringLiteral("black-forest-labs--FLUX.1-dev")
        << QStringLiteral("transformer/diffusion_pytorch_model.safetensors.index.json")
        << Counts{{QStringLiteral("BF16"), 11'901'408'320}};
}

void TestHubParameters::publishedCounts()
{
    QFETCH(QString, model);
    QFETCH(QString, hubFile);
    QFETCH(Counts, expected);
    const QString dir = models::folder(model);
    const HubParameterCount hub = HubParameterCounter::forLocation(dir, nullptr);
    QVERIFY2(hub.counted, qPrintable(hub.error ? hub.error->toString() : hub.weights.rule));
    QCOMPARE(hub.weights.relative, hubFile);
    QCOMPARE(text(countsOf(hub)), text(expected));
    quint64 sum = 0;
    for (const auto& [dtype, n] : expected)
        sum += n;
    QCOMPARE(hub.total(), sum);
    // The plain element count beside it: everything the Hub counted, stored, plus what it left out.
    std::uint64_t stored = 0;
    for (const HubDtypeCount& d : hub.dtypes)
        stored += d.elements;
    QCOMPARE(stored + hub.skippedElements, hub.elements);
}

void TestHubParameters::sameCountThroughTheOpenedCheckpoint()
{
    // What the window and the CLI do: open the folder, then profile what was opened.
    for (const char* name :
         {"meta-llama--Llama-3.1-8B", "openai--gpt-oss-20b", "CompVis--stable-diffusion-v1-4",
          "unsloth--Meta-Llama-3.1-8B-Instruct-bnb-4bit"}) {
        const QString dir = models::folder(QLatin1String(name));
        auto opened = Checkpoint::open(dir);
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().toString()));
        const ModelProfile profile = ModelProfiler::profile(*opened.value(), dir);
        QCOMPARE(profile.hub.total(), HubParameterCounter::forLocation(dir, nullptr).total());
        QVERIFY(profile.hub.total() > 0);
    }
}

void TestHubParameters::scalarsAndScaleDtypesAreNeverParameters()
{
    using D = Dtype;
    // skips scalar tensors; never counts exponent-only dtypes, even with no quantization_config.
    const HubParameterCount c = countOf({{QStringLiteral("scalar"), D::F32, {}},
                                         {QStringLiteral("real"), D::F32, {3, 4}},
                                         {QStringLiteral("weights"), D::F4, {10, 20}},
                                         {QStringLiteral("scales"), D::F8_E8M0, {7, 8}},
                                         {QStringLiteral("f6"), D::F6_E2M3, {5, 10}}});
    QCOMPARE(text(countsOf(c)), QStringLiteral("F32 12, F4 200, F6_E2M3 50"));
    QCOMPARE(c.skippedTensors, 2ull);
    QCOMPARE(c.skippedElements, 57ull);
    QCOMPARE(c.elements, 12ull + 200 + 50 + 57);
}

void TestHubParameters::packedWeights()
{
    using D = Dtype;
    const QString name = QStringLiteral("model.layers.0.mlp.down_proj.weight_packed");
    auto packed = [](int bits) {
        return quantConfig(
            {{QStringLiteral("quant_method"), QStringLiteral("compressed-tensors")},
             {QStringLiteral("format"), QStringLiteral("pack-quantized")},
             {QStringLiteral("config_groups"),
              QJsonObject{{QStringLiteral("group_0"),
                           QJsonObject{{QStringLiteral("targets"), QJsonArray{QStringLiteral("Linear")}},
                                       {QStringLiteral("weights"),
                                        QJsonObject{{QStringLiteral("num_bits"), bits}}}}}}}});
    };
    auto multiplier = [&](const QJsonObject& config, const QString& tensor, D dtype) {
        return HubQuantization::fromConfig(config).multiplier(tensor, dtype);
    };
    QCOMPARE(multiplier(packed(4), name, D::I32), 8.0);
    QCOMPARE(multiplier(packed(4), name, D::U8), 2.0);
    QCOMPARE(multiplier(packed(2), name, D::I32), 16.0);
    QCOMPARE(multiplier(packed(3), name, D::I32), 32.0 / 3);
    QCOMPARE(multiplier(packed(8), name, D::I8), 1.0);
    // Not floored: 3 I32 elements of 3-bit weights are round(3 x 32/3) = 32 parameters.
    QCOMPARE(text(countsOf(countOf({{name, D::I32, {3}}}, packed(3)))), QStringLiteral("I32 32"));
    // GPTQ: 32 / bits per I32 qweight; the width comes from `bits` (4 when absent).
    const QJsonObject gptq =
        quantConfig({{QStringLiteral("quant_method"), QStringLiteral("gptq")}, {QStringLiteral("bits"), 4}});
    QCOMPARE(multiplier(gptq, QStringLiteral("model.layers.0.mlp.up_proj.qweight"), D::I32), 8.0);
    QCOMPARE(multiplier(quantConfig({{QStringLiteral("quant_method"), QStringLiteral("GPTQ")},
                                     {QStringLiteral("bits"), 8}}),
                        QStringLiteral("a.qweight"), D::I32),
             4.0);
    // bitsandbytes 4-bit: two per U8; MXFP4: `_blocks` two per U8.
    QCOMPARE(multiplier(quantConfig({{QStringLiteral("quant_method"), QStringLiteral("bitsandbytes")},
                                     {QStringLiteral("load_in_4bit"), true}}),
                        QStringLiteral("model.layers.0.mlp.up_proj.weight"), D::U8),
             2.0);
    QCOMPARE(multiplier(quantConfig({{QStringLiteral("quant_method"), QStringLiteral("mxfp4")}}),
                        QStringLiteral("model.layers.0.mlp.experts.down_proj_blocks"), D::U8),
             2.0);
    // fp8 models' routed experts packed by expert_dtype; shared experts and routing tables are not.
    QJsonObject fp8 = quantConfig({{QStringLiteral("quant_method"), QStringLiteral("fp8")}});
    fp8.insert(QStringLiteral("expert_dtype"), QStringLiteral("fp4"));
    QCOMPARE(multiplier(fp8, QStringLiteral("model.layers.0.ffn.experts.3.w1.weight"), D::I8), 2.0);
    QCOMPARE(multiplier(fp8, QStringLiteral("model.layers.0.ffn.shared_experts.w1.weight"), D::I8), 1.0);
    QCOMPARE(multiplier(fp8, QStringLiteral("model.layers.0.ffn.gate.tid2eid"), D::I32), 1.0);
    QCOMPARE(multiplier(fp8, QStringLiteral("model.layers.0.ffn.experts.3.w1.weight"), D::F8_E4M3), 1.0);
    // expert_dtype can sit in text_config, as the quantization_config can.
    const QJsonObject nested{
        {QStringLiteral("text_config"),
         QJsonObject{{QStringLiteral("quantization_config"),
                      QJsonObject{{QStringLiteral("quant_method"), QStringLiteral("fp8")}}},
                     {QStringLiteral("expert_dtype"), QStringLiteral("fp4")}}}};
    QCOMPARE(multiplier(nested, QStringLiteral("model.layers.0.ffn.experts.3.w1.weight"), D::I8), 2.0);
    // Without any quantization_config nothing is multiplied.
    QCOMPARE(multiplier({}, QStringLiteral("a.qweight"), D::I32), 1.0);
}

void TestHubParameters::bookkeepingIsLeftOut()
{
    using D = Dtype;
    const QJsonObject gptq =
        quantConfig({{QStringLiteral("quant_method"), QStringLiteral("awq")}, {QStringLiteral("bits"), 4}});
    const HubParameterCount c = countOf({{QStringLiteral("l.qweight"), D::I32, {10, 8}},
                                         {QStringLiteral("l.qzeros"), D::I32, {1, 8}},
                                         {QStringLiteral("l.scales"), D::F16, {1, 64}},
                                         {QStringLiteral("l.g_idx"), D::I32, {80}},
                                         {QStringLiteral("l.bias"), D::F16, {64}}},
                                        gptq);
    QCOMPARE(text(countsOf(c)), QStringLiteral("F16 64, I32 640"));
    const QJsonObject bnb = quantConfig({{QStringLiteral("quant_method"), QStringLiteral("bitsandbytes")},
                                         {QStringLiteral("load_in_4bit"), true}});
    const HubParameterCount b =
        countOf({{QStringLiteral("w.weight"), D::U8, {50, 1}},
                 {QStringLiteral("w.weight.absmax"), D::U8, {2}},
                 {QStringLiteral("w.weight.nested_absmax"), D::F32, {1}},
                 {QStringLiteral("w.weight.quant_map"), D::F32, {16}},
                 {QStringLiteral("w.weight.quant_state.bitsandbytes__nf4"), D::U8, {100}}},
                bnb);
    QCOMPARE(text(countsOf(b)), QStringLiteral("U8 100"));
    const QJsonObject ct =
        quantConfig({{QStringLiteral("quant_method"), QStringLiteral("compressed-tensors")}});
    const HubParameterCount s = countOf({{QStringLiteral("a.weight_scale"), D::BF16, {8, 2}},
                                         {QStringLiteral("a.weight_shape"), D::I64, {2}},
                                         {QStringLiteral("a.weight_g_idx"), D::I32, {16}},
                                         {QStringLiteral("a.input_scale"), D::F32, {1}},
                                         {QStringLiteral("norm.scale"), D::F32, {16}}},
                                        ct);
    // A bare `scale` is a learnable parameter in some architectures: counted.
    QCOMPARE(text(countsOf(s)), QStringLiteral("F32 16"));
    // gpt-oss's MXFP4 exponents, "_scales" with an underscore, in U8 only.
    const HubParameterCount m =
        countOf({{QStringLiteral("e.gate_up_proj_blocks"), D::U8, {4, 16}},
                 {QStringLiteral("e.gate_up_proj_scales"), D::U8, {4}},
                 {QStringLiteral("e.learned_scales"), D::F32, {4}}},
                quantConfig({{QStringLiteral("quant_method"), QStringLiteral("mxfp4")}}));
    QCOMPARE(text(countsOf(m)), QStringLiteral("F32 4, U8 128"));
}

void TestHubParameters::modulesNotConverted()
{
    const QJsonObject config =
        quantConfig({{QStringLiteral("quant_method"), QStringLiteral("gptq")},
                     {QStringLiteral("modules_to_not_convert"), QJsonArray{QStringLiteral("lm_head")}}});
    const HubQuantization q = HubQuantization::fromConfig(config);
    // Bare names match as substrings, as transformers matches them.
    QVERIFY(!q.isQuantized(QStringLiteral("model.lm_head.weight")));
    QVERIFY(!q.isQuantized(QStringLiteral("lm_head.weight")));
    QVERIFY(q.isQuantized(QStringLiteral("model.embed_tokens.weight")));
    const HubQuantization glob = HubQuantization::fromConfig(
        quantConfig({{QStringLiteral("quant_method"), QStringLiteral("gptq")},
                     {QStringLiteral("modules_to_not_convert"), QJsonArray{QStringLiteral("*lm_head*")}}}));
    QVERIFY(!glob.isQuantized(QStringLiteral("model.lm_head.weight")));
    QVERIFY(glob.isQuantized(QStringLiteral("model.embed_tokens.weight")));
    // compressed-tensors' `ignore`, with re: targets.
    const HubQuantization ignore = HubQuantization::fromConfig(
        quantConfig({{QStringLiteral("quant_method"), QStringLiteral("compressed-tensors")},
                     {QStringLiteral("ignore"),
                      QJsonArray{QStringLiteral("re:.*self_attn.*"), QStringLiteral("re:.*lm_head$")}}}));
    QVERIFY(!ignore.isQuantized(QStringLiteral("model.layers.0.self_attn.q_proj.weight")));
    QVERIFY(!ignore.isQuantized(QStringLiteral("model.lm_head.weight")));
    QVERIFY(ignore.isQuantized(QStringLiteral("model.layers.0.mlp.experts.0.weight")));
    // A quantised qweight outside the excluded modules is multiplied; one inside is not.
    QCOMPARE(q.multiplier(QStringLiteral("model.layers.0.mlp.qweight"), Dtype::I32), 8.0);
    QCOMPARE(q.multiplier(QStringLiteral("lm_head.qweight"), Dtype::I32), 1.0);
}

void TestHubParameters::globAndTargets()
{
    // huggingface.js's own expectations for globMatch and matchesCompressedTensorsTarget.
    QVERIFY(HubQuantization::globMatch(QStringLiteral("foo"), QStringLiteral("foo")));
    QVERIFY(!HubQuantization::globMatch(QStringLiteral("foo"), QStringLiteral("foobar")));
    QVERIFY(HubQuantization::globMatch(QStringLiteral("*.txt"), QStringLiteral(".txt")));
    QVERIFY(!HubQuantization::globMatch(QStringLiteral("*.txt"), QStringLiteral("file.txt.bak")));
    QVERIFY(HubQuantization::globMatch(QStringLiteral("model.*"), QStringLiteral("model.")));
    QVERIFY(!HubQuantization::globMatch(QStringLiteral("model.*"), QStringLiteral("my_model.bin")));
    QVERIFY(HubQuantization::globMatch(QStringLiteral("a*b*c"), QStringLiteral("abc")));
    QVERIFY(!HubQuantization::globMatch(QStringLiteral("a*b*c"), QStringLiteral("aXXbYY")));
    QVERIFY(HubQuantization::globMatch(QStringLiteral("*"), QString()));
    QVERIFY(HubQuantization::matchesTarget(QStringLiteral("re:.*lm_head$"), QStringLiteral("model.lm_head")));
    QVERIFY(!HubQuantization::matchesTarget(QStringLiteral("re:.*lm_head$"),
                                            QStringLiteral("model.lm_head.weight")));
    QVERIFY(HubQuantization::matchesTarget(QStringLiteral("re:model\\.layers.*"),
                                           QStringLiteral("model.layers.0.mlp.gate_proj")));
    QVERIFY(!HubQuantization::matchesTarget(QStringLiteral("re:model\\.layers.*"),
                                            QStringLiteral("lm.model.layers.0")));
    QVERIFY(!HubQuantization::matchesTarget(QStringLiteral("Linear"),
                                            QStringLiteral("model.layers.0.mlp.down_proj")));
    // Regular-expression syntax beyond the subset: never a match (no ReDoS from a config.json).
    QVERIFY(!HubQuantization::matchesTarget(QStringLiteral("re:(a+)+$"),
                                            QStringLiteral("aaaaaaaaaaaaaaaaaaaaab")));
}

void TestHubParameters::metadataTotalIsCappedAndParsedAsJavaScriptDoes()
{
    QCOMPARE(HubParameterCounter::parseTotal(QStringLiteral("200"), false),
             std::optional<std::uint64_t>(200));
    QCOMPARE(HubParameterCounter::parseTotal(QStringLiteral("  12abc"), false),
             std::optional<std::uint64_t>(12));
    QCOMPARE(HubParameterCounter::parseTotal(QStringLiteral("0x10"), false),
             std::optional<std::uint64_t>(16));
    QCOMPARE(HubParameterCounter::parseTotal(QStringLiteral("1e9"), false), std::optional<std::uint64_t>(1));
    QVERIFY(!HubParameterCounter::parseTotal(QStringLiteral("not-a-number"), false));
    QVERIFY(!HubParameterCounter::parseTotal(QStringLiteral("-5"), false));
    QVERIFY(!HubParameterCounter::parseTotal(QString(), false));
    QVERIFY(!HubParameterCounter::parseTotal(QStringLiteral("0"), true)); // the number 0 is falsy
    QCOMPARE(HubParameterCounter::parseTotal(QStringLiteral("0"), false), std::optional<std::uint64_t>(0));

    // A file that declares more than it holds: the Hub shows the count it computes.
    QTemporaryDir dir;
    Metadata inflated;
    inflated.set(QStringLiteral("format"), QStringLiteral("pt"));
    inflated.set(QStringLiteral("total_parameters"), QStringLiteral("999000000000"));
    const QString file = dir.filePath(QStringLiteral("model.safetensors"));
    QVERIFY(models::writeHeaderOnly(file, {{QStringLiteral("weight"), Dtype::F32, {10, 20}}}, inflated));
    HubParameterCount hub = HubParameterCounter::forLocation(dir.path(), nullptr);
    QCOMPARE(hub.declaredTotal, std::optional<std::uint64_t>(999000000000ull));
    QCOMPARE(hub.total(), 200ull);
    // One that declares less: the Hub shows the declaration (a self-reported shortcut).
    Metadata honest;
    honest.set(QStringLiteral("total_parameters"), QStringLiteral("150"));
    QVERIFY(models::writeHeaderOnly(file, {{QStringLiteral("weight"), Dtype::F32, {10, 20}}}, honest));
    hub = HubParameterCounter::forLocation(dir.path(), nullptr);
    QCOMPARE(hub.total(), 150ull);
    QCOMPARE(hub.sum, 200ull);
}

void TestHubParameters::whichFilesTheHubReads()
{
    QTemporaryDir dir;
    const QDir d(dir.path());
    // The root model.safetensors wins over an index beside it (the Hub looks for it first).
    QVERIFY(models::writeHeaderOnly(d.filePath(QStringLiteral("model.safetensors")),
                                    {{QStringLiteral("a"), Dtype::F32, {4}}}));
    QVERIFY(models::writeHeaderOnly(d.filePath(QStringLiteral("model-00001-of-00001.safetensors")),
                                    {{QStringLiteral("b"), Dtype::F32, {8}}}));
    QVERIFY(models::writeJson(
        d.filePath(QStringLiteral("model.safetensors.index.json")),
        QJsonObject{
            {QStringLiteral("weight_map"),
             QJsonObject{{QStringLiteral("b"), QStringLiteral("model-00001-of-00001.safetensors")}}}}));
    HubParameterCount hub = HubParameterCounter::forLocation(dir.path(), nullptr);
    QCOMPARE(hub.weights.relative, QStringLiteral("model.safetensors"));
    QCOMPARE(hub.total(), 4ull);

    // A diffusers pipeline: transformer/ before unet/, single file before index, never the VAE.
    QTemporaryDir pipe;
    const QDir p(pipe.path());
    QVERIFY(models::writeJson(p.filePath(QStringLiteral("model_index.json")),
                              QJsonObject{{QStringLiteral("_class_name"), QStringLiteral("SomePipeline")}}));
    for (const char* sub : {"unet", "transformer", "vae"})
        QVERIFY(p.mkpath(QLatin1String(sub)));
    QVERIFY(models::writeHeaderOnly(p.filePath(QStringLiteral("unet/diffusion_pytorch_model.safetensors")),
                                    {{QStringLiteral("u"), Dtype::F32, {2}}}));
    QVERIFY(models::writeHeaderOnly(p.filePath(QStringLiteral("vae/diffusion_pytorch_model.safetensors")),
                                    {{QStringLiteral("v"), Dtype::F32, {3}}}));
    QVERIFY(
        models::writeHeaderOnly(p.filePath(QStringLiteral("transformer/diffusion_pytorch_model.safetensors")),
                                {{QStringLiteral("t"), Dtype::F32, {5}}}));
    hub = HubParameterCounter::forLocation(pipe.path(), nullptr);
    QCOMPARE(hub.weights.relative, QStringLiteral("transformer/diffusion_pytorch_model.safetensors"));
    QCOMPARE(hub.total(), 5ull);
    QVERIFY(hub.weights.diffusers);
    QVERIFY(QFile::remove(p.filePath(QStringLiteral("transformer/diffusion_pytorch_model.safetensors"))));
    hub = HubParameterCounter::forLocation(pipe.path(), nullptr);
    QCOMPARE(hub.weights.relative, QStringLiteral("unet/diffusion_pytorch_model.safetensors"));
    QCOMPARE(hub.total(), 2ull);
    // Opening the pipeline folder opens the component the Hub counts.
    auto opened = Checkpoint::open(pipe.path());
    QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().toString()));
    QCOMPARE(opened.value()->tensors().front().info.name, QStringLiteral("u"));
    // A component opened on its own: its file, with the pipeline as the repository root.
    hub = HubParameterCounter::forLocation(
        p.filePath(QStringLiteral("vae/diffusion_pytorch_model.safetensors")), nullptr);
    QCOMPARE(hub.weights.relative, QStringLiteral("vae/diffusion_pytorch_model.safetensors"));
    QCOMPARE(hub.total(), 3ull);
    // Not a model folder the Hub reads: nothing counted, and said why.
    QTemporaryDir other;
    QVERIFY(models::writeHeaderOnly(QDir(other.path()).filePath(QStringLiteral("weights.safetensors")),
                                    {{QStringLiteral("w"), Dtype::F32, {2}}}));
    hub = HubParameterCounter::forLocation(other.path(), nullptr);
    QVERIFY(!hub.counted);
    QVERIFY(hub.weights.rule.contains(QLatin1String("no model.safetensors")));
}

void TestHubParameters::unreadableConfigIsIgnoredAsTheHubIgnoresIt()
{
    QTemporaryDir dir;
    const QDir d(dir.path());
    QVERIFY(models::writeHeaderOnly(d.filePath(QStringLiteral("model.safetensors")),
                                    {{QStringLiteral("w.qweight"), Dtype::I32, {10}}}));
    QFile config(d.filePath(QStringLiteral("config.json")));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write("{\"quantization_config\": {\"quant_method\": \"gptq\"");
    config.close();
    HubParameterCount hub = HubParameterCounter::forLocation(dir.path(), nullptr);
    QVERIFY(hub.configProblem.contains(QLatin1String("not valid JSON")));
    QCOMPARE(hub.total(), 10ull);
    // The same config, whole: the qweight holds 8 values per I32.
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write("{\"quantization_config\": {\"quant_method\": \"gptq\", \"bits\": 4}}");
    config.close();
    hub = HubParameterCounter::forLocation(dir.path(), nullptr);
    QCOMPARE(hub.total(), 80ull);
    QCOMPARE(hub.quantMethod, QStringLiteral("gptq"));
}

QTEST_GUILESS_MAIN(TestHubParameters)
#include "tst_hub_parameters.moc"
