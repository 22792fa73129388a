#include "architecture/AdapterDetector.h"

#include "architecture/Fields.h"

#include <QMap>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace ts {
namespace {

using namespace fields;

// The suffix of one adapted module's down (A) projection, and how the format names the rest.
struct Scheme {
    const char* down;
    const char* method;
};
const Scheme kSchemes[] = {
    {".lora_down.weight", "LoRA"}, {".lora_A.weight", "LoRA"}, {".lora.down.weight", "LoRA"},
    {".hada_w1_a", "LoHa"},        {".lokr_w1", "LoKr"},
};

// Module kinds as kohya flattens them (dots turned into underscores): the longest match wins.
const QStringList kKohyaKinds = {
    QStringLiteral("to_out_0"),       QStringLiteral("ff_net_0_proj"), QStringLiteral("ff_net_2"),
    QStringLiteral("to_q"),           QStringLiteral("to_k"),          QStringLiteral("to_v"),
    QStringLiteral("proj_in"),        QStringLiteral("proj_out"),      QStringLiteral("q_proj"),
    QStringLiteral("k_proj"),         QStringLiteral("v_proj"),        QStringLiteral("out_proj"),
    QStringLiteral("o_proj"),         QStringLiteral("gate_proj"),     QStringLiteral("up_proj"),
    QStringLiteral("down_proj"),      QStringLiteral("mlp_fc1"),       QStringLiteral("mlp_fc2"),
    QStringLiteral("img_attn_qkv"),   QStringLiteral("img_attn_proj"), QStringLiteral("txt_attn_qkv"),
    QStringLiteral("txt_attn_proj"),  QStringLiteral("img_mlp_0"),     QStringLiteral("img_mlp_2"),
    QStringLiteral("txt_mlp_0"),      QStringLiteral("txt_mlp_2"),     QStringLiteral("img_mod_lin"),
    QStringLiteral("txt_mod_lin"),    QStringLiteral("linear1"),       QStringLiteral("linear2"),
    QStringLiteral("modulation_lin"), QStringLiteral("conv1"),         QStringLiteral("conv2"),
    QStringLiteral("conv_shortcut"),  QStringLiteral("time_emb_proj"),
};

QString kohyaKind(const QString& module)
{
    QString best;
    for (const QString& kind : kKohyaKinds) {
        if (module.endsWith(QLatin1Char('_') + kind) && kind.size() > best.size())
            best = kind;
    }
    return best.isEmpty() ? module.section(QLatin1Char('_'), -1) : best;
}

QString componentOf(const QString& module, const QString& format)
{
    if (format == QLatin1String("kohya")) {
        if (module.startsWith(QLatin1String("lora_unet_")))
            return QStringLiteral("unet");
        if (module.startsWith(QLatin1String("lora_te2_")))
            return QStringLiteral("text encoder 2");
        if (module.startsWith(QLatin1String("lora_te_")) || module.startsWith(QLatin1String("lora_te1_")))
            return QStringLiteral("text encoder");
        if (module.startsWith(QLatin1String("lora_transformer_")))
            return QStringLiteral("transformer");
        return module.section(QLatin1Char('_'), 0, 1);
    }
    if (format == QLatin1String("PEFT"))
        return QStringLiteral("model");
    return module.section(QLatin1Char('.'), 0, 0).replace(QLatin1Char('_'), QLatin1Char(' '));
}

// What the base model is, from kohya's metadata or the module names.
QString baseOf(const std::optional<Metadata>& metadata, const QStringList& modules, const QString& format)
{
    auto meta = [&](const char* key) {
        return metadata ? metadata->value(QLatin1String(key)).value_or(QString()) : QString();
    };
    const QString version = meta("ss_base_model_version");
    if (!version.isEmpty())
        return QStringLiteral("%1 (ss_base_model_version)").arg(version);
    const QString arch = meta("modelspec.architecture");
    if (!arch.isEmpty())
        return QStringLiteral("%1 (modelspec.architecture)").arg(arch);
    auto any = [&](const char* part) {
        return std::any_of(modules.begin(), modules.end(),
                           [&](const QString& m) { return m.contains(QLatin1String(part)); });
    };
    if (any("double_blocks") || any("single_blocks") || any("single_transformer_blocks"))
        return QStringLiteral("Flux (double- and single-stream blocks)");
    if (format == QLatin1String("kohya") && any("lora_unet_input_blocks"))
        return QStringLiteral("SDXL (the UNet in SGM naming)");
    if (any("down_blocks") || any("mid_block"))
        return QStringLiteral("a Stable Diffusion UNet (diffusers naming)");
    if (any("layers.") && any("self_attn"))
        return QStringLiteral("a decoder language model");
    return {};
}

} // namespace

std::optional<ArchitectureComponent> AdapterDetector::detect(const NameShapes& names,
                                                             const std::optional<Metadata>& metadata,
                                                             const ScalarReader& readScalar,
                                                             AdapterInfo* info)
{
    // module -> rank, for every adapted module of the first scheme that matches.
    QMap<QString, std::uint64_t> ranks;
    const Scheme* scheme = nullptr;
    for (const Scheme& s : kSchemes) {
        const QString down = QLatin1String(s.down);
        for (const TensorInfo* t : names.all()) {
            if (t->name.endsWith(down) && !t->shape.empty())
                ranks.insert(t->name.left(t->name.size() - down.size()), t->shape.front());
        }
        if (!ranks.isEmpty()) {
            scheme = &s;
            break;
        }
    }
    if (!scheme)
        return std::nullopt;

    AdapterInfo a;
    a.method = QLatin1String(scheme->method);
    const QString first = ranks.firstKey();
    if (first.startsWith(QLatin1String("lora_")) || first.startsWith(QLatin1String("lycoris_")))
        a.format = QStringLiteral("kohya");
    else if (first.startsWith(QLatin1String("base_model.model.")))
        a.format = QStringLiteral("PEFT");
    else
        a.format = QStringLiteral("diffusers");
    if (names.anyEndsWith(QStringLiteral(".lora_magnitude_vector")) ||
        names.anyEndsWith(QStringLiteral(".dora_scale")))
        a.method = QStringLiteral("DoRA");
    a.modules = static_cast<std::uint64_t>(ranks.size());

    QSet<std::uint64_t> distinct;
    QSet<QString> targets;
    QSet<QString> components;
    for (auto it = ranks.constBegin(); it != ranks.constEnd(); ++it) {
        distinct.insert(it.value());
        const QString& module = it.key();
        targets.insert(a.format == QLatin1String("kohya") ? kohyaKind(module)
                                                          : module.section(QLatin1Char('.'), -1));
        components.insert(componentOf(module, a.format));
    }
    a.ranks.assign(distinct.begin(), distinct.end());
    std::sort(a.ranks.begin(), a.ranks.end());
    a.targets = QStringList(targets.begin(), targets.end());
    a.targets.sort();
    a.components = QStringList(components.begin(), components.end());
    a.components.sort();
    a.base = baseOf(metadata, ranks.keys(), a.format);

    // Alpha: one scalar per module in kohya's files, all equal in a normal one.
    QSet<double> alphas;
    std::uint64_t alphaTensors = 0;
    if (readScalar) {
        for (auto it = ranks.constBegin(); it != ranks.constEnd(); ++it) {
            const QString alpha = it.key() + QStringLiteral(".alpha");
            if (!names.has(alpha))
                continue;
            ++alphaTensors;
            if (const std::optional<double> v = readScalar(alpha))
                alphas.insert(*v);
            if (alphas.size() > 1)
                break;
        }
    }
    if (alphas.size() == 1) {
        a.alpha = *alphas.begin();
        a.alphaSource = QStringLiteral("alpha tensors");
    } else if (alphas.isEmpty() && metadata) {
        if (const std::optional<QString> v = metadata->value(QStringLiteral("ss_network_alpha"))) {
            bool ok = false;
            const double d = v->toDouble(&ok);
            if (ok) {
                a.alpha = d;
                a.alphaSource = QStringLiteral("ss_network_alpha");
            }
        }
    }

    ArchitectureComponent c;
    c.role = QStringLiteral("adapter");
    c.family = QStringLiteral("lora");
    c.name = QStringLiteral("%1 adapter (%2 format)").arg(a.method, a.format);
    c.detail = a.base.isEmpty() ? QString() : QStringLiteral("for %1").arg(a.base);
    QStringList rankText;
    for (std::uint64_t r : a.ranks)
        rankText << QString::number(r);
    c.fields.push_back(a.ranks.size() == 1
                           ? number(QStringLiteral("r"), QStringLiteral("Rank"), a.ranks.front(),
                                    QStringLiteral("rows of each down (A) projection"),
                                    {QStringLiteral("r"), QStringLiteral("ss_network_dim")})
                           : text(QStringLiteral("r"), QStringLiteral("Ranks"),
                                  rankText.join(QStringLiteral(", ")),
                                  QStringLiteral("modules differ in rank")));
    if (a.alpha)
        c.fields.push_back(text(QStringLiteral("lora_alpha"), QStringLiteral("Alpha"),
                                QString::number(*a.alpha), QStringLiteral("from the %1").arg(a.alphaSource)));
    else
        c.fields.push_back(
            unknown(QStringLiteral("lora_alpha"), QStringLiteral("Alpha"),
                    alphas.size() > 1 ? QStringLiteral("the alpha tensors differ from module to module")
                    : alphaTensors
                        ? QStringLiteral("the alpha tensors could not be read")
                        : QStringLiteral(
                              "no alpha tensors or ss_network_alpha (PEFT keeps it in adapter_config.json)"),
                    {QStringLiteral("-")}));
    if (a.alpha && a.ranks.size() == 1 && a.ranks.front() > 0)
        c.fields.push_back(text(QStringLiteral("scale"), QStringLiteral("Scale (alpha / rank)"),
                                QString::number(*a.alpha / static_cast<double>(a.ranks.front()), 'g', 4),
                                QStringLiteral("what the update is multiplied by")));
    c.fields.push_back(number(QStringLiteral("modules"), QStringLiteral("Adapted modules"), a.modules,
                              QStringLiteral("down (A) projections"), {QStringLiteral("-")}));
    c.fields.push_back(text(QStringLiteral("target_modules"), QStringLiteral("Targets"),
                            a.targets.join(QStringLiteral(", ")),
                            QStringLiteral("the module kinds adapted")));
    c.fields.push_back(text(QStringLiteral("components"), QStringLiteral("Components"),
                            a.components.join(QStringLiteral(", ")),
                            QStringLiteral("from the module names")));
    c.tensors = names.tensorsUnder(QString());
    c.elements = names.elementsUnder(QString());
    if (info)
        *info = a;
    return c;
}

} // namespace ts
