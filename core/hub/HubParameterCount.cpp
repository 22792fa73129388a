#include "hub/HubParameterCount.h"

#include "checkpoint/Checkpoint.h"
#include "checkpoint/CheckpointLocator.h"
#include "format/ShardIndex.h"
#include "hub/JsValues.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <map>

namespace ts {
namespace {

// fetchModelConfig reads at most MAX_CONFIG_LENGTH (10 MB) of config.json.
constexpr qint64 kMaxConfigBytes = 10'000'000;

QString canonical(const QString& path)
{
    const QFileInfo info(path);
    const QString c = info.canonicalFilePath();
    return c.isEmpty() ? info.absoluteFilePath() : c;
}

// The shards (or the file) a location resolves to, canonical; empty when it does not resolve.
QStringList partsOf(const QString& location)
{
    QStringList parts;
    if (auto layout = CheckpointLocator::locate(location)) {
        for (const QString& part : layout->parts)
            parts << canonical(part);
    }
    return parts;
}

QStringList partsOf(const Checkpoint& checkpoint)
{
    QStringList parts;
    for (const CheckpointPart& part : checkpoint.parts())
        parts << canonical(part.localPath);
    return parts;
}

// The metadata's total_parameters: a single file's __metadata__ value (always a string), or an
// index's metadata entry (a JSON number or string).
std::optional<std::uint64_t> declaredTotal(const Checkpoint& checkpoint)
{
    if (const ShardIndex* index = checkpoint.shardIndex()) {
        for (const auto& [key, json] : index->otherMetadata) {
            if (key != QLatin1String("total_parameters"))
                continue;
            const QJsonValue v = QJsonDocument::fromJson("[" + json.toUtf8() + "]").array().at(0);
            if (v.isDouble())
                return HubParameterCounter::parseTotal(QString::number(v.toDouble(), 'f', 0), true);
            if (v.isString())
                return HubParameterCounter::parseTotal(v.toString(), false);
        }
        return std::nullopt;
    }
    if (checkpoint.isSharded() || !checkpoint.metadata())
        return std::nullopt;
    const std::optional<QString> value = checkpoint.metadata()->value(QStringLiteral("total_parameters"));
    return value ? HubParameterCounter::parseTotal(*value, false) : std::nullopt;
}

} // namespace

std::optional<std::uint64_t> HubParameterCounter::parseTotal(const QString& text, bool isJsonNumber)
{
    // `if (!value) return undefined`: the empty string and the number 0 are absent.
    if (text.isEmpty() || (isJsonNumber && text == QLatin1String("0")))
        return std::nullopt;
    const std::optional<double> parsed = js::parseInt(text);
    if (!parsed || *parsed < 0 || !std::isfinite(*parsed))
        return std::nullopt;
    return *parsed >= 1.8e19 ? std::numeric_limits<std::uint64_t>::max()
                             : static_cast<std::uint64_t>(*parsed);
}

namespace {

// One tensor of computeNumOfParamsByDtypeSingleFile.
void countTensor(const TensorInfo& t, const HubQuantization& quantization,
                 std::map<Dtype, HubDtypeCount>& byDtype, HubParameterCount& into)
{
    const std::uint64_t elements = t.elementCount();
    into.elements += elements;
    ++into.tensors;
    // Scalars are never parameters; nor is the quantisation's bookkeeping.
    const double multiplier = quantization.isPresent() ? quantization.multiplier(t.name, t.dtype) : 1.0;
    if (quantization.skips(t.name, t.dtype) || t.shape.empty() || multiplier == 0) {
        ++into.skippedTensors;
        into.skippedElements += elements;
        return;
    }
    // Math.round(elements * multiplier): exact for whole multipliers below 2^53 elements.
    const std::uint64_t parameters =
        multiplier == 1.0
            ? elements
            : static_cast<std::uint64_t>(std::round(static_cast<double>(elements) * multiplier));
    HubDtypeCount& line = byDtype[t.dtype];
    line.dtype = t.dtype;
    line.parameters += parameters;
    line.elements += elements;
    ++line.tensors;
}

void finish(const std::map<Dtype, HubDtypeCount>& byDtype, HubParameterCount& into)
{
    for (const auto& [dtype, line] : byDtype) {
        into.dtypes.push_back(line);
        into.sum += line.parameters;
    }
}

} // namespace

void HubParameterCounter::count(const std::vector<TensorInfo>& tensors, const HubQuantization& quantization,
                                HubParameterCount& into)
{
    std::map<Dtype, HubDtypeCount> byDtype;
    for (const TensorInfo& t : tensors)
        countTensor(t, quantization, byDtype, into);
    finish(byDtype, into);
}

HubParameterCount HubParameterCounter::forLocation(const QString& opened, const Checkpoint* checkpoint)
{
    HubParameterCount result;
    result.weights = HubWeightsLocator::locate(opened);

    // The Hub reads config.json and carries on without it when it cannot.
    QJsonObject config;
    QFile configFile(result.weights.config);
    if (configFile.exists()) {
        if (configFile.size() > kMaxConfigBytes) {
            result.configProblem = QStringLiteral("config.json is larger than the 10 MB the Hub reads");
        } else if (!configFile.open(QIODevice::ReadOnly)) {
            result.configProblem =
                QStringLiteral("config.json cannot be read: %1").arg(configFile.errorString());
        } else {
            QJsonParseError parseError;
            const QJsonDocument doc = QJsonDocument::fromJson(configFile.readAll(), &parseError);
            if (parseError.error != QJsonParseError::NoError)
                result.configProblem = QStringLiteral("config.json is not valid JSON (%1 at byte %2)")
                                           .arg(parseError.errorString())
                                           .arg(parseError.offset);
            else
                config = doc.object();
        }
    }
    const HubQuantization quantization = HubQuantization::fromConfig(config);
    result.quantMethod = quantization.method();
    result.expertDtype = quantization.expertDtype();
    if (!result.weights.found())
        return result;

    std::shared_ptr<const Checkpoint> reopened;
    const Checkpoint* counted = checkpoint;
    if (!counted || partsOf(*counted) != partsOf(result.weights.weights)) {
        auto open = Checkpoint::open(result.weights.weights);
        if (!open) {
            result.error = open.error();
            return result;
        }
        reopened = open.value();
        counted = reopened.get();
    }
    // The Hub sums every shard's header without removing duplicates; a checkpoint that opened has
    // neither duplicates across shards nor tensors its index does not list (ShardedCheckpoint::
    // checkIndex refuses both), so summing its tensors is the same sum.
    std::map<Dtype, HubDtypeCount> byDtype;
    for (const CheckpointTensor& t : counted->tensors())
        countTensor(t.info, quantization, byDtype, result);
    finish(byDtype, result);
    result.counted = true;
    result.declaredTotal = declaredTotal(*counted);
    if (result.declaredTotal)
        result.metadataTotal = std::min(*result.declaredTotal, result.sum);
    return result;
}

} // namespace ts
