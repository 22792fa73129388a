#include "analysis/StatsJson.h"

namespace ts {
namespace {

void optionalIndex(JsonWriter& json, const QString& key, std::optional<std::uint64_t> index)
{
    json.key(key);
    if (index)
        json.value(*index);
    else
        json.null();
}

void indexArray(JsonWriter& json, const QString& key, const std::vector<std::uint64_t>& indices)
{
    json.key(key).beginArray();
    for (std::uint64_t i : indices)
        json.value(i);
    json.endArray();
}

void countArray(JsonWriter& json, const QString& key, const std::vector<std::uint64_t>& counts)
{
    indexArray(json, key, counts);
}

// The members the NaN/Inf-only check also computes: the counts, then the positions.
void nanInfCounts(JsonWriter& json, const ValueStats& s)
{
    json.key(QStringLiteral("count")).value(s.count);
    json.key(QStringLiteral("finite")).value(s.finite);
    json.key(QStringLiteral("nan")).value(s.nan);
    json.key(QStringLiteral("posinf")).value(s.posinf);
    json.key(QStringLiteral("neginf")).value(s.neginf);
}

void nanInfPositions(JsonWriter& json, const ValueStats& s)
{
    optionalIndex(json, QStringLiteral("first_nan"), s.firstNan());
    optionalIndex(json, QStringLiteral("first_inf"), s.firstInf());
    indexArray(json, QStringLiteral("nan_indices"), s.nanIndices);
    indexArray(json, QStringLiteral("inf_indices"), s.infIndices);
}

} // namespace

void writeValueStatsJson(JsonWriter& json, const ValueStats& s)
{
    nanInfCounts(json, s);
    json.key(QStringLiteral("zeros")).value(s.zeros);
    json.key(QStringLiteral("subnormals")).value(s.subnormals);
    json.key(QStringLiteral("min")).value(s.min);
    json.key(QStringLiteral("max")).value(s.max);
    json.key(QStringLiteral("absmax")).value(s.absmax);
    optionalIndex(json, QStringLiteral("absmax_index"), s.absmaxIndex);
    json.key(QStringLiteral("mean")).value(s.mean);
    json.key(QStringLiteral("std")).value(s.std);
    json.key(QStringLiteral("l2")).value(s.l2);
    json.key(QStringLiteral("min_abs_nonzero")).value(s.minAbsNonzero);
    json.key(QStringLiteral("f16_overflow")).value(s.f16Overflow);
    json.key(QStringLiteral("f16_underflow")).value(s.f16Underflow);
    json.key(QStringLiteral("bf16_underflow")).value(s.bf16Underflow);
    json.key(QStringLiteral("zero_share")).value(s.zeroShare());
    // numpy's quantile(method="inverted_cdf") of the finite values; null when not computed or none.
    json.key(QStringLiteral("quantiles"));
    if (s.quantiles) {
        json.beginObject();
        for (std::size_t l = 0; l < Quantiles::kNames.size(); ++l)
            json.key(QLatin1String(Quantiles::kNames[l])).value(s.quantiles->values[l]);
        json.endObject();
    } else {
        json.null();
    }
    nanInfPositions(json, s);
}

void writeHistogramJson(JsonWriter& json, const Histogram& h)
{
    json.beginObject();
    json.key(QStringLiteral("lo")).value(h.lo);
    json.key(QStringLiteral("hi")).value(h.hi);
    countArray(json, QStringLiteral("counts"), h.counts);
    json.key(QStringLiteral("log10_lo")).value(h.logLo);
    json.key(QStringLiteral("log10_hi")).value(h.logHi);
    countArray(json, QStringLiteral("log10_counts"), h.logCounts);
    json.key(QStringLiteral("zeros")).value(h.zeros);
    json.endObject();
}

void writeTensorStatsJson(JsonWriter& json, const TensorStats& t, const Shape& shape,
                          const Histogram* histogram)
{
    json.beginObject();
    json.key(QStringLiteral("name")).value(t.name);
    json.key(QStringLiteral("dtype")).value(dtypeName(t.dtype));
    json.key(QStringLiteral("shape")).beginArray();
    for (std::uint64_t d : shape)
        json.value(d);
    json.endArray();
    if (t.nanInfOnly) { // the NaN/Inf check computed these and nothing else
        nanInfCounts(json, t.values);
        nanInfPositions(json, t.values);
        json.endObject();
        return;
    }
    writeValueStatsJson(json, t.values);
    if (t.dtype == Dtype::BOOL) {
        json.key(QStringLiteral("non_binary_bool")).value(t.nonBinaryBool);
        optionalIndex(json, QStringLiteral("first_non_binary_bool"), t.firstNonBinaryBool);
    }
    if (t.real && t.imag) {
        json.key(QStringLiteral("values_are")).value("magnitude");
        json.key(QStringLiteral("real")).beginObject();
        writeValueStatsJson(json, *t.real);
        json.endObject();
        json.key(QStringLiteral("imag")).beginObject();
        writeValueStatsJson(json, *t.imag);
        json.endObject();
    }
    if (histogram) {
        json.key(QStringLiteral("histogram"));
        writeHistogramJson(json, *histogram);
    }
    json.endObject();
}

} // namespace ts
