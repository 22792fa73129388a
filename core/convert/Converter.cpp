#include "convert/Converter.h"

#include "base/Glob.h"
#include "checkpoint/PyTorchCheckpoint.h"
#include "convert/ConvertingSource.h"

#include <QHash>
#include <QRegularExpression>

#include <algorithm>

namespace ts {
namespace {

constexpr std::uint64_t kChunk = 8u << 20;

struct Rules {
    std::vector<QRegularExpression> include;
    std::vector<QRegularExpression> exclude;
    std::vector<std::pair<QRegularExpression, Dtype>> dtypeFor;
    std::vector<std::pair<QRegularExpression, QString>> rename;
};

Result<Rules> compileRules(const ConvertOptions& options)
{
    Rules rules;
    for (const QString& g : options.include)
        rules.include.push_back(globToRegularExpression(g));
    for (const QString& g : options.exclude)
        rules.exclude.push_back(globToRegularExpression(g));
    for (const auto& [g, d] : options.dtypeFor)
        rules.dtypeFor.emplace_back(globToRegularExpression(g), d);
    for (const auto& [pattern, replacement] : options.rename) {
        QRegularExpression re(pattern);
        if (!re.isValid()) {
            return makeError(ErrorCode::InvalidArgument, pattern,
                             QStringLiteral("--rename: the regular expression is invalid at character %1: %2")
                                 .arg(re.patternErrorOffset())
                                 .arg(re.errorString()));
        }
        rules.rename.emplace_back(std::move(re), replacement);
    }
    return rules;
}

bool anyMatch(const std::vector<QRegularExpression>& res, const QString& name)
{
    return std::any_of(res.begin(), res.end(),
                       [&](const QRegularExpression& re) { return re.match(name).hasMatch(); });
}

QString placeOf(const PlannedTensor& t)
{
    return QStringLiteral("\"%1\" in %2").arg(t.sourceName, t.sourceFile);
}

} // namespace

std::uint64_t ConvertPlan::bytesBefore() const
{
    std::uint64_t sum = 0;
    for (const PlannedTensor& t : tensors)
        sum += t.bytesBefore();
    return sum;
}

std::uint64_t ConvertPlan::bytesAfter() const
{
    std::uint64_t sum = 0;
    for (const PlannedTensor& t : tensors)
        sum += t.bytesAfter();
    return sum;
}

ConversionCounts ConvertPlan::totalCounts() const
{
    ConversionCounts sum;
    for (const PlannedTensor& t : tensors)
        sum += t.counts;
    return sum;
}

Result<ConvertPlan> Converter::plan(const std::vector<std::shared_ptr<const Checkpoint>>& inputs,
                                    const ConvertOptions& options)
{
    if (options.dtype && !DtypeConverter::supports(*options.dtype)) {
        return makeError(
            ErrorCode::InvalidArgument, {},
            QStringLiteral(
                "--dtype %1 is not a conversion target; use F32, F16, BF16, F64, F8_E4M3 or F8_E5M2")
                .arg(dtypeName(*options.dtype)));
    }
    auto compiled = compileRules(options);
    if (!compiled)
        return compiled.error();
    const Rules& rules = compiled.value();

    ConvertPlan plan;
    QHash<QString, std::size_t> byName;
    bool fromPickle = false;
    for (const auto& model : inputs) {
        fromPickle = fromPickle || dynamic_cast<const PyTorchCheckpoint*>(model.get());
        if (const CheckpointCapabilities c = model->capabilities(); !c.convertFrom) {
            return makeError(
                ErrorCode::InvalidArgument, model->path(),
                c.convertRefusal.isEmpty()
                    ? QStringLiteral("a %1 checkpoint cannot be converted").arg(model->formatName())
                    : c.convertRefusal);
        }
        plan.inputFiles << model->files(); // shards and the index, also of a folder opened by its index
        if (const auto& md = model->metadata()) {
            if (!plan.metadata)
                plan.metadata = Metadata{};
            // Earlier inputs win: shards of one model carry the same map anyway.
            for (const auto& [key, value] : md->entries()) {
                if (!plan.metadata->contains(key))
                    plan.metadata->set(key, value);
            }
        }
        for (int i = 0; i < static_cast<int>(model->tensors().size()); ++i) {
            const CheckpointTensor& mt = model->tensors()[static_cast<std::size_t>(i)];
            const TensorInfo& info = mt.info;
            if ((!rules.include.empty() && !anyMatch(rules.include, info.name)) ||
                anyMatch(rules.exclude, info.name))
                continue;
            PlannedTensor t;
            t.sourceName = info.name;
            t.sourceFile = model->partOf(i).location;
            t.name = info.name;
            for (const auto& [re, replacement] : rules.rename)
                t.name.replace(re, replacement);
            t.from = info.dtype;
            t.to = info.dtype;
            t.shape = info.shape;
            t.elements = info.elementCount();
            t.input = model->location(i);
            if (t.name.isEmpty()) {
                return makeError(
                    ErrorCode::InvalidArgument, t.sourceFile,
                    QStringLiteral("--rename turns tensor %1 into an empty name").arg(placeOf(t)),
                    t.sourceName);
            }
            if (options.dtype && isFloating(t.from)) {
                if (DtypeConverter::supports(t.from))
                    t.to = *options.dtype;
                else
                    t.note = QStringLiteral("kept as %1: converting from it is not supported yet")
                                 .arg(dtypeName(t.from));
            }
            for (const auto& [re, dtype] : rules.dtypeFor) {
                if (!re.match(info.name).hasMatch())
                    continue;
                if (dtype != t.from &&
                    (!DtypeConverter::supports(t.from) || !DtypeConverter::supports(dtype))) {
                    return makeError(
                        ErrorCode::InvalidArgument, t.sourceFile,
                        QStringLiteral("--dtype-for asks to convert tensor %1 from %2 to %3; only F64, F32, "
                                       "F16, BF16, F8_E4M3 and F8_E5M2 convert into each other")
                            .arg(placeOf(t), dtypeName(t.from), dtypeName(dtype)),
                        t.sourceName);
                }
                t.to = dtype;
                t.note.clear();
            }
            if (const auto it = byName.constFind(t.name); it != byName.cend()) {
                const PlannedTensor& other = plan.tensors[it.value()];
                return makeError(ErrorCode::DuplicateTensor, t.sourceFile,
                                 QStringLiteral("tensors %1 and %2 would both be named \"%3\" in the output")
                                     .arg(placeOf(other), placeOf(t), t.name),
                                 t.sourceName);
            }
            byName.insert(t.name, plan.tensors.size());
            plan.tensors.push_back(std::move(t));
        }
    }
    if (plan.tensors.empty())
        return makeError(ErrorCode::InvalidArgument, {},
                         QStringLiteral("no tensor is left to write after --include/--exclude"));

    // A pickle checkpoint has no metadata; safetensors' own convert.py and transformers'
    // save_pretrained write {"format": "pt"}, which transformers checks when it loads the file.
    if (fromPickle && !plan.metadata) {
        plan.metadata = Metadata{};
        plan.metadata->set(QStringLiteral("format"), QStringLiteral("pt"));
    }
    if (!options.setMetadata.empty() && !plan.metadata)
        plan.metadata = Metadata{};
    if (plan.metadata) {
        for (const QString& key : options.unsetMetadata)
            plan.metadata->remove(key);
        for (const auto& [key, value] : options.setMetadata)
            plan.metadata->set(key, value);
    }
    std::sort(plan.tensors.begin(), plan.tensors.end(), [](const PlannedTensor& a, const PlannedTensor& b) {
        return a.name.toUtf8() < b.name.toUtf8();
    });
    return plan;
}

Result<void> Converter::measure(ConvertPlan& plan, const JobControl& control)
{
    std::uint64_t total = 0;
    for (const PlannedTensor& t : plan.tensors)
        total += t.converts() ? t.bytesBefore() : 0;
    control.progress.begin(total);
    std::vector<std::byte> scratch;
    for (PlannedTensor& t : plan.tensors) {
        if (!t.converts())
            continue;
        const ConvertingSource source(t.input, t.from, t.to, t.elements, t.sourceFile, true);
        const std::uint64_t outSize = static_cast<std::uint64_t>(dtypeBits(t.to) / 8);
        const std::uint64_t chunk = kChunk / 8 * outSize; // whole elements, a few MB
        scratch.resize(static_cast<std::size_t>(std::min(chunk, source.size())));
        for (std::uint64_t offset = 0; offset < source.size(); offset += chunk) {
            const auto n = static_cast<std::size_t>(std::min(chunk, source.size() - offset));
            if (auto r = source.read(offset, std::span(scratch.data(), n)); !r)
                return r;
            control.progress.add(n / outSize * static_cast<std::uint64_t>(dtypeBits(t.from) / 8));
            if (control.cancel.isCancelled())
                return makeError(ErrorCode::Cancelled, t.sourceFile,
                                 QStringLiteral("the conversion report was cancelled"));
        }
        t.counts = source.counts();
        t.measured = true;
    }
    return {};
}

} // namespace ts
