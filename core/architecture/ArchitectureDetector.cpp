#include "architecture/ArchitectureDetector.h"

#include "architecture/BlockChecks.h"
#include "architecture/DecoderDetector.h"
#include "architecture/DiffusionDetector.h"
#include "architecture/DiffusionTransformerDetector.h"
#include "architecture/EncoderDetector.h"
#include "architecture/FusedDecoderDetector.h"
#include "architecture/NameShapes.h"
#include "architecture/VisionDetector.h"
#include "base/Format.h"
#include "checkpoint/Checkpoint.h"
#include "view/ElementReader.h"

#include <QMap>
#include <QSet>

#include <algorithm>

namespace ts {
namespace {

// The tails every block of a family carries, for BlockChecks.
struct BlockRule {
    const char* family;
    const char* anchor;
    QStringList tails;
};

std::vector<BlockRule> blockRules()
{
    const QStringList decoder = DecoderDetector::coreTails();
    return {
        {"llama", "self_attn.o_proj.weight", decoder},
        {"mixtral", "self_attn.o_proj.weight", decoder},
        {"qwen-moe", "self_attn.o_proj.weight", decoder},
        {"deepseek",
         "self_attn.o_proj.weight",
         {QStringLiteral("self_attn.o_proj.weight"), QStringLiteral("input_layernorm.weight")}},
        {"gpt-oss", "self_attn.o_proj.weight", decoder},
        {"phi3",
         "self_attn.o_proj.weight",
         {QStringLiteral("self_attn.qkv_proj.weight"), QStringLiteral("mlp.gate_up_proj.weight")}},
        {"gpt2",
         "attn.c_attn.weight",
         {QStringLiteral("ln_1.weight"), QStringLiteral("attn.c_proj.weight"),
          QStringLiteral("mlp.c_fc.weight"), QStringLiteral("mlp.c_proj.weight"),
          QStringLiteral("ln_2.weight")}},
        {"bert",
         "attention.self.query.weight",
         {QStringLiteral("attention.self.key.weight"), QStringLiteral("attention.self.value.weight"),
          QStringLiteral("intermediate.dense.weight"), QStringLiteral("output.dense.weight")}},
        {"roberta",
         "attention.self.query.weight",
         {QStringLiteral("attention.self.key.weight"), QStringLiteral("attention.self.value.weight"),
          QStringLiteral("intermediate.dense.weight"), QStringLiteral("output.dense.weight")}},
    };
}

// For a model no detector knows: its largest run of numbered blocks, so the summary says something.
QString largestRun(const NameShapes& names)
{
    QMap<QString, QSet<int>> runs;
    for (const TensorInfo* t : names.all()) {
        // A hostile header's 10 MB name of dots would split into millions of pieces.
        if (t->name.size() > 1024)
            continue;
        const QStringList parts = t->name.split(QLatin1Char('.'));
        QString container;
        for (const QString& part : parts) {
            bool ok = false;
            const int n = part.toInt(&ok);
            if (ok && !container.isEmpty()) {
                runs[container].insert(n);
                break;
            }
            container += part + QLatin1Char('.');
        }
    }
    QString best;
    qsizetype size = 0;
    for (auto it = runs.constBegin(); it != runs.constEnd(); ++it) {
        if (it.value().size() > size) {
            best = it.key();
            size = it.value().size();
        }
    }
    if (size < 2)
        return {};
    return QStringLiteral("its largest run of numbered blocks is %1# (%2)")
        .arg(best, formatNoun(size, "block", "blocks"));
}

QString pipelineName(const std::vector<ArchitectureComponent>& parts)
{
    auto has = [&](const char* family) {
        return std::any_of(parts.begin(), parts.end(),
                           [&](const ArchitectureComponent& c) { return c.family == QLatin1String(family); });
    };
    QStringList roles;
    for (const ArchitectureComponent& c : parts)
        roles << c.role;
    roles.removeDuplicates();
    const QString list = roles.join(QStringLiteral(", "));
    if (has("sd-unet")) {
        const auto unet = std::find_if(parts.begin(), parts.end(), [](const ArchitectureComponent& c) {
            return c.family == QLatin1String("sd-unet");
        });
        const QString generation = unet->detail.section(QLatin1Char(','), 0, 0);
        return QStringLiteral("%1 checkpoint (%2)")
            .arg(generation.isEmpty() ? QStringLiteral("Stable Diffusion") : generation, list);
    }
    QStringList names;
    for (const ArchitectureComponent& c : parts)
        names << c.name;
    return names.join(QStringLiteral(" with ")) +
           (parts.size() > 1 ? QStringLiteral(" (%1)").arg(list) : QString());
}

} // namespace

Architecture ArchitectureDetector::detect(const Checkpoint& checkpoint)
{
    std::vector<const TensorInfo*> tensors;
    tensors.reserve(checkpoint.tensors().size());
    for (const CheckpointTensor& t : checkpoint.tensors())
        tensors.push_back(&t.info);
    const AdapterDetector::ScalarReader read = [&checkpoint](const QString& name) -> std::optional<double> {
        const int i = checkpoint.indexOf(name);
        if (i < 0)
            return std::nullopt;
        const TensorInfo& info = checkpoint.tensors()[static_cast<std::size_t>(i)].info;
        if (info.elementCount() != 1)
            return std::nullopt;
        auto value = ElementReader(checkpoint.location(i), info.flattened()).at(0);
        return value ? std::optional<double>(*value) : std::nullopt;
    };
    // The checkpoint's own name index answers the lookups.
    const NameShapes names(tensors, [&checkpoint](const QString& name) -> const TensorInfo* {
        const int i = checkpoint.indexOf(name);
        return i < 0 ? nullptr : &checkpoint.tensors()[static_cast<std::size_t>(i)].info;
    });
    return detect(names, checkpoint.metadata(), read);
}

Architecture ArchitectureDetector::detect(const std::vector<const TensorInfo*>& tensors,
                                          const std::optional<Metadata>& metadata,
                                          const AdapterDetector::ScalarReader& readScalar)
{
    return detect(NameShapes(tensors), metadata, readScalar);
}

Architecture ArchitectureDetector::detect(const NameShapes& names, const std::optional<Metadata>& metadata,
                                          const AdapterDetector::ScalarReader& readScalar)
{
    const std::vector<const TensorInfo*>& tensors = names.all();
    Architecture result;
    AdapterInfo adapter;
    if (auto a = AdapterDetector::detect(names, metadata, readScalar, &adapter)) {
        result.family = a->family;
        result.name = a->name;
        result.components.push_back(std::move(*a));
        result.adapter = adapter;
        return result;
    }

    std::vector<ArchitectureComponent> parts;
    if (auto d = DecoderDetector::detect(names))
        parts.push_back(std::move(*d));
    else if (auto f = FusedDecoderDetector::detect(names))
        parts.push_back(std::move(*f));
    for (ArchitectureComponent& c : EncoderDetector::detect(names))
        parts.push_back(std::move(c));
    for (ArchitectureComponent& c : VisionDetector::detect(names))
        parts.push_back(std::move(c));
    if (auto t = DiffusionTransformerDetector::detect(names))
        parts.push_back(std::move(*t));
    for (ArchitectureComponent& c : DiffusionDetector::detect(names))
        parts.push_back(std::move(c));

    if (parts.empty()) {
        result.name = QStringLiteral("not a layout Tensorscope recognises");
        const QString run = largestRun(names);
        result.notes << (run.isEmpty()
                             ? QStringLiteral(
                                   "No numbered blocks: the names do not follow a layered model's layout.")
                             : QStringLiteral("The names follow no layout Tensorscope knows; %1.").arg(run));
        return result;
    }
    // The main part is the largest; the others are listed after it.
    std::stable_sort(parts.begin(), parts.end(),
                     [](const ArchitectureComponent& a, const ArchitectureComponent& b) {
                         return a.elements > b.elements;
                     });
    result.family = parts.front().family;
    result.name = parts.size() == 1 ? parts.front().name : pipelineName(parts);

    for (const BlockRule& rule : blockRules()) {
        const bool present = std::any_of(parts.begin(), parts.end(), [&](const ArchitectureComponent& c) {
            return c.family == QLatin1String(rule.family);
        });
        if (!present)
            continue;
        const BlockRun run = names.findBlocks(QLatin1String(rule.anchor));
        for (Diagnostic& d : BlockChecks::check(names, run, rule.tails))
            result.findings.push_back(std::move(d));
    }
    // Tensors no component claims (a projector between a vision tower and a decoder).
    if (parts.size() > 1) {
        std::uint64_t claimed = 0;
        for (const ArchitectureComponent& c : parts)
            claimed += c.tensors;
        if (claimed < tensors.size())
            result.notes << QStringLiteral("%1 outside the recognised parts.")
                                .arg(formatNoun(tensors.size() - claimed, "tensor lies", "tensors lie"));
    }
    result.components = std::move(parts);
    return result;
}

} // namespace ts
