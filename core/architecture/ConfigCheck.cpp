#include "architecture/ConfigCheck.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <map>

namespace ts {
namespace {

constexpr qint64 kMaxConfigBytes = 10 * 1024 * 1024;

// The family each config names, where Tensorscope detects that family: transformers'
// model_type or a diffusers / transformers class name.
const std::map<QString, QStringList>& familiesByType()
{
    static const std::map<QString, QStringList> table = {
        {QStringLiteral("llama"), {QStringLiteral("llama")}},
        {QStringLiteral("mistral"), {QStringLiteral("llama")}},
        {QStringLiteral("qwen2"), {QStringLiteral("llama")}},
        {QStringLiteral("qwen3"), {QStringLiteral("llama")}},
        {QStringLiteral("gemma"), {QStringLiteral("llama")}},
        {QStringLiteral("gemma2"), {QStringLiteral("llama")}},
        {QStringLiteral("gemma3_text"), {QStringLiteral("llama")}},
        {QStringLiteral("mixtral"), {QStringLiteral("mixtral")}},
        {QStringLiteral("qwen2_moe"), {QStringLiteral("qwen-moe")}},
        {QStringLiteral("qwen3_moe"), {QStringLiteral("qwen-moe")}},
        {QStringLiteral("olmoe"), {QStringLiteral("qwen-moe")}},
        {QStringLiteral("deepseek_v2"), {QStringLiteral("deepseek")}},
        {QStringLiteral("deepseek_v3"), {QStringLiteral("deepseek")}},
        {QStringLiteral("gpt_oss"), {QStringLiteral("gpt-oss")}},
        {QStringLiteral("phi3"), {QStringLiteral("phi3")}},
        {QStringLiteral("gpt2"), {QStringLiteral("gpt2")}},
        {QStringLiteral("bloom"), {QStringLiteral("bloom")}},
        {QStringLiteral("gpt_neox"), {QStringLiteral("gpt-neox")}},
        {QStringLiteral("bert"), {QStringLiteral("bert")}},
        {QStringLiteral("roberta"), {QStringLiteral("roberta")}},
        {QStringLiteral("xlm-roberta"), {QStringLiteral("roberta")}},
        {QStringLiteral("t5"), {QStringLiteral("t5")}},
        {QStringLiteral("vit"), {QStringLiteral("vit")}},
        {QStringLiteral("clip"), {QStringLiteral("clip-text"), QStringLiteral("clip-vision")}},
        {QStringLiteral("clip_text_model"), {QStringLiteral("clip-text")}},
        {QStringLiteral("clip_vision_model"), {QStringLiteral("clip-vision")}},
        {QStringLiteral("UNet2DConditionModel"), {QStringLiteral("sd-unet")}},
        {QStringLiteral("AutoencoderKL"), {QStringLiteral("sd-vae")}},
        {QStringLiteral("FluxTransformer2DModel"), {QStringLiteral("flux")}},
        {QStringLiteral("SD3Transformer2DModel"), {QStringLiteral("sd3")}},
    };
    return table;
}

QString jsonText(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: {
        const double d = v.toDouble();
        return d == std::floor(d) && std::fabs(d) < 1e15 ? QString::number(static_cast<qint64>(d))
                                                         : QString::number(d);
    }
    case QJsonValue::String:
        return v.toString();
    case QJsonValue::Array: {
        QStringList parts;
        for (const QJsonValue& item : v.toArray())
            parts << jsonText(item);
        return parts.join(QStringLiteral(", "));
    }
    case QJsonValue::Object:
        return QStringLiteral("{...}");
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("null");
}

bool agrees(const ArchitectureField& f, const QJsonValue& v)
{
    switch (f.kind) {
    case ArchitectureField::Kind::Number:
        return v.isDouble() && f.value && v.toDouble() == static_cast<double>(*f.value);
    case ArchitectureField::Kind::Flag:
        return v.isBool() && f.value && v.toBool() == (*f.value != 0);
    case ArchitectureField::Kind::List: {
        if (v.isArray())
            return jsonText(v) == f.text;
        // One number for every level (layers_per_block: 2).
        if (v.isDouble()) {
            const QString one = jsonText(v);
            const QStringList parts = f.text.split(QStringLiteral(", "));
            return std::all_of(parts.begin(), parts.end(), [&](const QString& p) { return p == one; });
        }
        return false;
    }
    }
    return false;
}

// The first of `keys` that `section` (or, for "/key", the top level) holds with a value.
std::pair<QString, QJsonValue> lookup(const QJsonObject& section, const QString& sectionName,
                                      const QJsonObject& root, const QStringList& keys)
{
    for (const QString& key : keys) {
        const bool top = key.startsWith(QLatin1Char('/'));
        const QString name = top ? key.mid(1) : key;
        const QJsonObject& where = top ? root : section;
        const QJsonValue v = where.value(name);
        if (!v.isUndefined() && !v.isNull())
            return {top || sectionName.isEmpty() ? name : sectionName + QLatin1Char('.') + name, v};
    }
    return {};
}

Diagnostic mismatch(const QString& path, const QString& message)
{
    Diagnostic d;
    d.code = QStringLiteral("ConfigMismatch");
    d.severity = Severity::Error;
    d.message = QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), message);
    return d;
}

std::optional<double> numberAt(const QJsonObject& o, const QStringList& keys)
{
    for (const QString& k : keys) {
        if (o.value(k).isDouble())
            return o.value(k).toDouble();
    }
    return std::nullopt;
}

// heads x head_dim behind q_proj's and k_proj's rows, or Flux's and SD3's width.
void compareHeads(const ArchitectureComponent& c, const QJsonObject& s, const QString& path,
                  ConfigCheckResult& r)
{
    const std::optional<double> heads =
        numberAt(s, {QStringLiteral("num_attention_heads"), QStringLiteral("n_head")});
    if (!heads || *heads <= 0)
        return;
    const ArchitectureField* q = c.field(QStringLiteral("query_width"));
    const ArchitectureField* k = c.field(QStringLiteral("kv_width"));
    const ArchitectureField* hidden = c.field(QStringLiteral("hidden_size"));
    std::optional<double> headDim =
        numberAt(s, {QStringLiteral("head_dim"), QStringLiteral("attention_head_dim")});
    const std::optional<double> width =
        numberAt(s, {QStringLiteral("hidden_size"), QStringLiteral("n_embd")});
    if (!headDim && width)
        headDim = std::floor(*width / *heads);
    if (!headDim)
        return;
    auto check = [&](const ArchitectureField* f, double expected, const QString& what) {
        if (!f || !f->value || static_cast<double>(*f->value) == expected)
            return;
        r.findings.push_back(mismatch(path, QStringLiteral("%1 gives %2 %3, but %4 has %5")
                                                .arg(what)
                                                .arg(static_cast<qint64>(expected))
                                                .arg(QStringLiteral("rows"), f->evidence)
                                                .arg(*f->value)));
    };
    check(q, *heads * *headDim,
          QStringLiteral("num_attention_heads %1 x head_dim %2").arg(*heads).arg(*headDim));
    const std::optional<double> kv =
        numberAt(s, {QStringLiteral("num_key_value_heads"), QStringLiteral("num_kv_heads")});
    check(k, kv.value_or(*heads) * *headDim,
          QStringLiteral("num_key_value_heads %1 x head_dim %2").arg(kv.value_or(*heads)).arg(*headDim));
    // Diffusion transformers: the width is heads x attention_head_dim.
    if (!q && hidden && hidden->value &&
        (c.family == QLatin1String("flux") || c.family == QLatin1String("sd3")) &&
        static_cast<double>(*hidden->value) != *heads * *headDim)
        r.findings.push_back(
            mismatch(path, QStringLiteral("num_attention_heads %1 x attention_head_dim %2 gives a width of "
                                          "%3, but the weights are %4 wide (%5)")
                               .arg(*heads)
                               .arg(*headDim)
                               .arg(*heads * *headDim)
                               .arg(*hidden->value)
                               .arg(hidden->evidence)));
}

} // namespace

ConfigCheckResult ConfigCheck::compare(const Architecture& architecture, const QJsonObject& config,
                                       const QString& path)
{
    ConfigCheckResult r;
    r.path = path;
    const QJsonArray archs = config.value(QLatin1String("architectures")).toArray();
    r.architecture = archs.isEmpty() ? QString() : archs.first().toString();
    r.modelType = config.value(QLatin1String("model_type")).toString();
    if (r.modelType.isEmpty())
        r.modelType = config.value(QLatin1String("_class_name")).toString();

    // The family: a config for another kind of model is the first thing to say.
    if (architecture.recognized() && !r.modelType.isEmpty()) {
        const auto it = familiesByType().find(r.modelType);
        const bool known = it != familiesByType().end();
        const bool any = known && std::any_of(architecture.components.begin(), architecture.components.end(),
                                              [&](const ArchitectureComponent& c) {
                                                  return it->second.contains(c.family);
                                              });
        if (known && !any)
            r.findings.push_back(
                mismatch(path, QStringLiteral("it describes a \"%1\" model, but the weights are a %2")
                                   .arg(r.modelType, architecture.name)));
    }

    for (const ArchitectureComponent& c : architecture.components) {
        // A nested section (text_config) where the config has one; a flat config otherwise.
        const bool nested = !c.configSection.isEmpty() && config.value(c.configSection).isObject();
        const QJsonObject section = nested ? config.value(c.configSection).toObject() : config;
        const QString sectionName = nested ? c.configSection : QString();
        for (const ArchitectureField& f : c.fields) {
            if (f.configKeys == QStringList{QStringLiteral("-")} || f.configKeys.isEmpty())
                continue;
            const auto [key, value] = lookup(section, sectionName, config, f.configKeys);
            if (key.isEmpty())
                continue;
            ConfigComparison cmp;
            cmp.component = c.role;
            cmp.key = f.key;
            cmp.label = f.label;
            cmp.configKey = key;
            cmp.weights = f.display();
            cmp.config = jsonText(value);
            cmp.compared = f.known();
            cmp.agrees = cmp.compared && agrees(f, value);
            if (cmp.compared && !cmp.agrees) {
                if (f.key == QLatin1String("tie_word_embeddings")) {
                    const bool stored = f.value == 0u;
                    Diagnostic d;
                    d.code = stored ? QStringLiteral("TiedHeadIgnored") : QStringLiteral("ConfigMismatch");
                    d.severity = stored ? Severity::Warning : Severity::Error;
                    d.message =
                        stored
                            ? QStringLiteral(
                                  "%1: tie_word_embeddings is true, so transformers ties the head to "
                                  "the embeddings and ignores the stored %2")
                                  .arg(QFileInfo(path).fileName(), f.evidence.section(QLatin1Char(' '), 0, 0))
                            : QStringLiteral("%1: tie_word_embeddings is false, but the file has no lm_head: "
                                             "transformers would initialise the head at random")
                                  .arg(QFileInfo(path).fileName());
                    d.tensor = stored ? f.evidence.section(QLatin1Char(' '), 0, 0) : QString();
                    r.findings.push_back(std::move(d));
                } else {
                    r.findings.push_back(
                        mismatch(path, QStringLiteral("%1 is %2, but the weights have %3 (%4)")
                                           .arg(key, cmp.config, cmp.weights, f.evidence)));
                }
            }
            r.comparisons.push_back(std::move(cmp));
        }
        compareHeads(c, section, path, r);
    }
    return r;
}

ConfigCheckResult ConfigCheck::compareFile(const Architecture& architecture, const QString& path)
{
    QFile f(path);
    if (!f.exists())
        return {};
    ConfigCheckResult r;
    auto unreadable = [&](const QString& why) {
        r.path = path;
        r.problem = why;
        Diagnostic d;
        d.code = QStringLiteral("ConfigUnreadable");
        d.severity = Severity::Warning;
        d.message = QStringLiteral("%1 beside the weights %2; nothing was compared with it")
                        .arg(QFileInfo(path).fileName(), why);
        r.findings.push_back(std::move(d));
        return r;
    };
    if (f.size() > kMaxConfigBytes)
        return unreadable(QStringLiteral("is larger than 10 MB"));
    if (!f.open(QIODevice::ReadOnly))
        return unreadable(QStringLiteral("cannot be read (%1)").arg(f.errorString()));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &error);
    if (error.error != QJsonParseError::NoError)
        return unreadable(
            QStringLiteral("is not valid JSON (%1 at byte %2)").arg(error.errorString()).arg(error.offset));
    if (!doc.isObject())
        return unreadable(QStringLiteral("is not a JSON object"));
    if (architecture.adapter) {
        r.path = path;
        compareAdapter(architecture, doc.object(), path, r);
        return r;
    }
    return compare(architecture, doc.object(), path);
}

void ConfigCheck::compareAdapter(const Architecture& architecture, const QJsonObject& adapterConfig,
                                 const QString& path, ConfigCheckResult& into)
{
    if (!architecture.adapter || architecture.components.empty())
        return;
    const AdapterInfo& a = *architecture.adapter;
    into.modelType = adapterConfig.value(QLatin1String("peft_type")).toString();
    into.architecture = adapterConfig.value(QLatin1String("base_model_name_or_path")).toString();
    auto add = [&](const QString& key, const QString& label, const QString& weights, const QJsonValue& v,
                   bool same) {
        ConfigComparison cmp;
        cmp.component = QStringLiteral("adapter");
        cmp.key = key;
        cmp.label = label;
        cmp.configKey = key;
        cmp.weights = weights;
        cmp.config = jsonText(v);
        cmp.compared = true;
        cmp.agrees = same;
        if (!same) {
            Diagnostic d;
            d.code = QStringLiteral("ConfigMismatch");
            d.severity = Severity::Error;
            d.message = QStringLiteral("%1: %2 is %3, but the adapter's tensors say %4")
                            .arg(QFileInfo(path).fileName(), key, cmp.config, weights);
            into.findings.push_back(std::move(d));
        }
        into.comparisons.push_back(std::move(cmp));
    };
    const QJsonValue r = adapterConfig.value(QLatin1String("r"));
    if (r.isDouble() && a.ranks.size() == 1)
        add(QStringLiteral("r"), QStringLiteral("Rank"), QString::number(a.ranks.front()), r,
            r.toDouble() == static_cast<double>(a.ranks.front()));
    const QJsonValue targets = adapterConfig.value(QLatin1String("target_modules"));
    if (targets.isArray()) {
        QStringList listed;
        for (const QJsonValue& t : targets.toArray())
            listed << t.toString();
        listed.sort();
        add(QStringLiteral("target_modules"), QStringLiteral("Targets"), a.targets.join(QStringLiteral(", ")),
            targets, listed == a.targets);
    }
    const QJsonValue alpha = adapterConfig.value(QLatin1String("lora_alpha"));
    if (alpha.isDouble()) {
        ConfigComparison cmp;
        cmp.component = QStringLiteral("adapter");
        cmp.key = QStringLiteral("lora_alpha");
        cmp.label = QStringLiteral("Alpha");
        cmp.configKey = QStringLiteral("lora_alpha");
        cmp.weights = a.alpha ? QString::number(*a.alpha) : QStringLiteral("cannot tell");
        cmp.config = jsonText(alpha);
        cmp.compared = a.alpha.has_value();
        cmp.agrees = !a.alpha || *a.alpha == alpha.toDouble();
        into.comparisons.push_back(std::move(cmp));
    }
}

} // namespace ts
