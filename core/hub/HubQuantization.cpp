#include "hub/HubQuantization.h"

#include "hub/JsValues.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace ts {
namespace {

// Every list below is huggingface.js's, in parse-safetensors-metadata.ts.

// QUANTIZATION_AUXILIARY_SUFFIXES: scales and zero points of quantised weights (a bare `scale`
// is deliberately absent: some architectures learn parameters by that name).
const QStringList kAuxiliarySuffixes = {
    QStringLiteral("weight_scale"),       QStringLiteral("weight_scale_inv"),
    QStringLiteral("weight_scale_2"),     QStringLiteral("weight_global_scale"),
    QStringLiteral("weight_zero_point"),  QStringLiteral("input_scale"),
    QStringLiteral("input_global_scale"), QStringLiteral("input_zero_point"),
    QStringLiteral("zero_point"),         QStringLiteral("weight_shape"),
    QStringLiteral("weight_g_idx"),
};
// GPTQ_AWQ_AUXILIARY_SUFFIXES
const QStringList kGptqAuxiliarySuffixes = {QStringLiteral("qzeros"), QStringLiteral("g_idx"),
                                            QStringLiteral("scales")};
// BITSANDBYTES_AUXILIARY_SUFFIXES and BITSANDBYTES_QUANT_STATE_PREFIX
const QStringList kBitsandbytesSuffixes = {QStringLiteral("absmax"), QStringLiteral("quant_map"),
                                           QStringLiteral("nested_absmax"),
                                           QStringLiteral("nested_quant_map")};
const QString kBitsandbytesStatePrefix = QStringLiteral("bitsandbytes__");

// SUB_BYTE_FORMAT_BITS, in its order (the first pattern found in the string wins).
const std::pair<const char*, int> kSubByteFormats[] = {{"nvfp4", 4}, {"mxfp4", 4}, {"fp4", 4}, {"int4", 4},
                                                       {"uint4", 4}, {"nf4", 4},   {"int2", 2}};

// INTEGER_CONTAINER_BITS: the integer dtypes a sub-byte weight may be packed into.
int containerBits(Dtype dtype)
{
    switch (dtype) {
    case Dtype::U8:
    case Dtype::I8:
        return 8;
    case Dtype::U16:
    case Dtype::I16:
        return 16;
    case Dtype::U32:
    case Dtype::I32:
        return 32;
    default:
        return 0;
    }
}

// getTensorSuffix: what follows the last dot.
QString suffixOf(const QString& tensor)
{
    const qsizetype dot = tensor.lastIndexOf(QLatin1Char('.'));
    return dot < 0 ? tensor : tensor.mid(dot + 1);
}

// The module a compressed-tensors tensor belongs to: its name before the last ".weight".
QString moduleOf(const QString& tensor)
{
    const qsizetype at = tensor.lastIndexOf(QLatin1String(".weight"));
    return at < 0 ? tensor : tensor.left(at);
}

std::optional<int> bitsFromFormatString(const std::optional<QString>& format)
{
    if (!format || format->isEmpty())
        return std::nullopt;
    const QString lower = format->toLower();
    for (const auto& [pattern, bits] : kSubByteFormats) {
        if (lower.contains(QLatin1String(pattern)))
            return bits;
    }
    return std::nullopt;
}

// packingFactor: deliberately not floored (32 / 3 for 3-bit in I32).
double packingFactor(Dtype dtype, std::optional<double> numBits)
{
    const int bits = containerBits(dtype);
    // `!numBits` is true for 0 and NaN as well.
    if (bits == 0 || !numBits || std::isnan(*numBits) || *numBits <= 0 || *numBits >= bits)
        return 1;
    return bits / *numBits;
}

bool isRoutedExpert(const QString& tensor)
{
    return tensor.contains(QLatin1String(".experts.")) && !tensor.contains(QLatin1String("shared_experts"));
}

// `config?.key?.length` is truthy: a non-empty array (a string would make the Hub's code throw).
QJsonArray nonEmptyArray(const QJsonObject& object, const char* key)
{
    const QJsonValue v = object.value(QLatin1String(key));
    return v.isArray() ? v.toArray() : QJsonArray();
}

} // namespace

HubQuantization HubQuantization::fromConfig(const QJsonObject& config)
{
    HubQuantization q;
    // `a ?? b` falls through on null and undefined only.
    auto coalesce = [&config](const char* key) {
        QJsonValue v = config.value(QLatin1String(key));
        if (v.isNull() || v.isUndefined())
            v = config.value(QLatin1String("text_config")).toObject().value(QLatin1String(key));
        return v;
    };
    const QJsonValue quant = coalesce("quantization_config");
    q.m_present = js::truthy(quant);
    q.m_config = quant.toObject();
    q.m_method = js::lowerString(q.m_config.value(QLatin1String("quant_method"))).value_or(QString());
    const QJsonValue expert = coalesce("expert_dtype");
    q.m_expertDtype = expert.isString() ? expert.toString() : QString();
    return q;
}

bool HubQuantization::globMatch(const QString& pattern, const QString& text)
{
    const QStringList parts = pattern.split(QLatin1Char('*'));
    if (parts.size() == 1)
        return pattern == text;
    // An empty part matches anywhere, also in an empty (even null) text.
    if (!parts.front().isEmpty() && !text.startsWith(parts.front()))
        return false;
    qsizetype pos = parts.front().size();
    const QString& last = parts.back();
    if (!last.isEmpty() && !text.endsWith(last))
        return false;
    const qsizetype end = text.size() - last.size();
    for (qsizetype i = 1; i + 1 < parts.size(); ++i) {
        const qsizetype at = text.indexOf(parts[i], pos);
        if (at < 0 || at + parts[i].size() > end)
            return false;
        pos = at + parts[i].size();
    }
    return pos <= end;
}

bool HubQuantization::matchesTarget(const QString& target, const QString& module)
{
    if (!target.startsWith(QLatin1String("re:")))
        return target == module;
    QString pattern = target.mid(3);
    // Python's re.match anchors at the start; only `$` anchors the end.
    if (pattern.startsWith(QLatin1Char('^')))
        pattern.remove(0, 1);
    if (pattern.endsWith(QLatin1Char('$')))
        pattern.chop(1);
    else
        pattern += QLatin1String(".*");
    QString glob = pattern;
    glob.replace(QLatin1String(".*"), QLatin1String("*"));
    glob.replace(QLatin1String("\\."), QLatin1String("."));
    // Any other regular-expression syntax: the Hub skips the target rather than guess.
    static const QRegularExpression unsupported(QStringLiteral("[\\\\+?()\\[\\]{}|^$]"));
    if (glob.contains(unsupported))
        return false;
    return globMatch(glob, module);
}

bool HubQuantization::isQuantized(const QString& tensor) const
{
    if (!m_present)
        return false;
    const QJsonArray ignore = nonEmptyArray(m_config, "ignore");
    if (!ignore.isEmpty()) {
        const QString module = moduleOf(tensor);
        for (const QJsonValue& target : ignore) {
            if (target.isString() && matchesTarget(target.toString(), module))
                return false;
        }
    }
    const QJsonArray patterns = nonEmptyArray(m_config, "modules_to_not_convert");
    if (patterns.isEmpty())
        return true;
    // transformers matches bare names as substrings ("lm_head" in "model.lm_head.weight").
    for (const QJsonValue& p : patterns) {
        if (!p.isString())
            continue;
        const QString pattern = p.toString();
        if (pattern.contains(QLatin1Char('*')) ? globMatch(pattern, tensor) : tensor.contains(pattern))
            return false;
    }
    return true;
}

bool HubQuantization::skips(const QString& tensor, Dtype dtype) const
{
    // SCALE_ONLY_DTYPES: exponent-only floats hold block scales, never weights, config or not.
    if (dtype == Dtype::F8_E8M0)
        return true;
    if (!m_present)
        return false;
    const QString suffix = suffixOf(tensor);
    if (kAuxiliarySuffixes.contains(suffix))
        return true;
    // gpt-oss keeps MXFP4 block exponents in U8 `..._scales` beside `..._blocks`.
    if (m_method == QLatin1String("mxfp4"))
        return dtype == Dtype::U8 && suffix.endsWith(QLatin1String("_scales"));
    if (m_method == QLatin1String("bitsandbytes"))
        return kBitsandbytesSuffixes.contains(suffix) || suffix.startsWith(kBitsandbytesStatePrefix);
    if (m_method != QLatin1String("gptq") && m_method != QLatin1String("awq"))
        return false;
    if (!isQuantized(tensor))
        return false;
    return suffix != QLatin1String("qweight") && kGptqAuxiliarySuffixes.contains(suffix);
}

double HubQuantization::multiplier(const QString& tensor, Dtype dtype) const
{
    if (!m_present || !isQuantized(tensor))
        return 1;
    const std::optional<double> bits = js::number(m_config.value(QLatin1String("bits")));
    const bool loadIn4bit = js::truthy(m_config.value(QLatin1String("load_in_4bit")));
    if (m_method == QLatin1String("mxfp4"))
        return dtype == Dtype::U8 && tensor.contains(QLatin1String("_blocks")) ? 2 : 1;
    if (m_method == QLatin1String("gptq") || m_method == QLatin1String("awq")) {
        if (suffixOf(tensor) == QLatin1String("qweight")) {
            const double b = bits && *bits > 0 ? *bits : 4;
            return std::max(1.0, std::floor(32 / b));
        }
        if (bits == 4.0 && dtype == Dtype::U8)
            return 2;
        if (bits == 2.0 && dtype == Dtype::U8)
            return 4;
        return 1;
    }
    if (m_method == QLatin1String("compressed-tensors"))
        return compressedTensorsMultiplier(tensor, dtype);
    if (m_method == QLatin1String("fp8")) {
        // expert_dtype describes the routed experts only: a routing table in I32 must not grow 8x.
        if (!isRoutedExpert(tensor))
            return 1;
        return packingFactor(dtype, bitsFromFormatString(m_expertDtype));
    }
    if (m_method == QLatin1String("bitsandbytes"))
        return loadIn4bit && dtype == Dtype::U8 ? 2 : 1;
    return dtype == Dtype::U8 && (loadIn4bit || bits == 4.0) ? 2 : 1;
}

double HubQuantization::compressedTensorsMultiplier(const QString& tensor, Dtype dtype) const
{
    if (containerBits(dtype) == 0)
        return 1;
    std::vector<QJsonObject> groups;
    const QJsonObject configGroups = m_config.value(QLatin1String("config_groups")).toObject();
    for (auto it = configGroups.constBegin(); it != configGroups.constEnd(); ++it)
        groups.push_back(it.value().toObject());
    // Mixed precision: the group whose targets match this tensor's module decides.
    const QString module = moduleOf(tensor);
    const QJsonObject* group = nullptr;
    for (const QJsonObject& g : groups) {
        const QJsonArray targets = g.value(QLatin1String("targets")).toArray();
        if (std::any_of(targets.begin(), targets.end(), [&](const QJsonValue& t) {
                return t.isString() && matchesTarget(t.toString(), module);
            })) {
            group = &g;
            break;
        }
    }
    QJsonValue formatValue =
        group ? group->value(QLatin1String("format")) : QJsonValue(QJsonValue::Undefined);
    if (formatValue.isNull() || formatValue.isUndefined())
        formatValue = m_config.value(QLatin1String("format"));
    const std::optional<QString> format = js::lowerString(formatValue);
    // "pack-quantized", "mxfp4-pack-quantized", "nvfp4-pack-quantized"...
    if (!format || !format->endsWith(QLatin1String("pack-quantized")))
        return 1;
    auto numBitsOf = [](const QJsonObject& g) {
        return g.value(QLatin1String("weights")).toObject().value(QLatin1String("num_bits"));
    };
    std::optional<double> numBits;
    if (group) {
        const QJsonValue v = numBitsOf(*group);
        if (!v.isNull() && !v.isUndefined())
            numBits = js::number(v);
        if (!v.isNull() && !v.isUndefined() && !numBits)
            numBits = std::nan(""); // present but not a number: packingFactor gives 1
    }
    if (!numBits) {
        for (const QJsonObject& g : groups) {
            if (js::truthy(numBitsOf(g))) {
                numBits = js::number(numBitsOf(g));
                if (!numBits)
                    numBits = std::nan("");
                break;
            }
        }
    }
    if (!numBits) {
        if (const std::optional<int> b = bitsFromFormatString(format))
            numBits = *b;
    }
    return packingFactor(dtype, numBits.value_or(4));
}

} // namespace ts
