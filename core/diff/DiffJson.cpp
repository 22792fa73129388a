#include "diff/DiffJson.h"

#include "checkpoint/CheckpointJson.h"
#include "diff/FlatIndex.h"

#include <algorithm>

namespace ts::diff {
namespace {

// How many singular values of a rank estimate the report carries.
constexpr std::size_t kSingularValuesShown = 32;

void shapeJson(JsonWriter& json, const Shape& shape)
{
    json.beginArray();
    for (std::uint64_t d : shape)
        json.value(d);
    json.endArray();
}

void optionalIndex(JsonWriter& json, const QString& key, const std::optional<std::uint64_t>& index,
                   const Shape& shape)
{
    json.key(key);
    if (index)
        json.value(*index);
    else
        json.null();
    json.key(key + QStringLiteral("_at"));
    if (index && shape.size() <= 32) {
        json.beginArray();
        for (std::uint64_t i : unflattenIndex(shape, *index))
            json.value(i);
        json.endArray();
    } else {
        json.null();
    }
}

void metricsJson(JsonWriter& json, const ChangeMetrics& m, const Shape& shape)
{
    json.beginObject();
    json.key(QStringLiteral("elements")).value(m.elements);
    json.key(QStringLiteral("compared")).value(m.compared);
    json.key(QStringLiteral("changed")).value(m.changed);
    json.key(QStringLiteral("fraction_changed")).value(m.fractionChanged());
    json.key(QStringLiteral("max_abs_diff")).value(m.maxAbsDiff);
    optionalIndex(json, QStringLiteral("max_abs_index"), m.maxAbsIndex, shape);
    json.key(QStringLiteral("a_at_max")).value(m.aAtMax);
    json.key(QStringLiteral("b_at_max")).value(m.bAtMax);
    json.key(QStringLiteral("mean_abs_diff")).value(m.meanAbsDiff());
    json.key(QStringLiteral("relative_l2")).value(m.relativeL2());
    json.key(QStringLiteral("cosine")).value(m.cosine());
    json.key(QStringLiteral("norm_a")).value(m.normA());
    json.key(QStringLiteral("norm_b")).value(m.normB());
    json.key(QStringLiteral("min_diff")).value(m.compared ? m.minDiff : 0.0);
    json.key(QStringLiteral("max_diff")).value(m.compared ? m.maxDiff : 0.0);
    json.key(QStringLiteral("max_relative_error")).value(m.maxRelative);
    json.key(QStringLiteral("significand_bits_a")).value(m.significandBitsA());
    json.key(QStringLiteral("significand_bits_b")).value(m.significandBitsB());
    json.key(QStringLiteral("nan_a")).value(m.nanA);
    json.key(QStringLiteral("inf_a")).value(m.infA);
    json.key(QStringLiteral("nan_b")).value(m.nanB);
    json.key(QStringLiteral("inf_b")).value(m.infB);
    json.key(QStringLiteral("nonfinite_introduced")).value(m.nonFiniteIntroduced);
    optionalIndex(json, QStringLiteral("first_introduced"), m.firstIntroduced, shape);
    json.key(QStringLiteral("nonfinite_removed")).value(m.nonFiniteRemoved);
    optionalIndex(json, QStringLiteral("first_removed"), m.firstRemoved, shape);
    json.endObject();
}

void rankJson(JsonWriter& json, const RankEstimate& r)
{
    json.beginObject();
    json.key(QStringLiteral("rows")).value(r.rows);
    json.key(QStringLiteral("cols")).value(r.cols);
    json.key(QStringLiteral("rank")).value(r.rank);
    json.key(QStringLiteral("above_noise")).value(r.aboveNoise);
    json.key(QStringLiteral("gap")).value(r.gap);
    json.key(QStringLiteral("lower_bound")).value(r.lowerBound);
    json.key(QStringLiteral("sketch")).value(r.sketch);
    json.key(QStringLiteral("energy")).value(r.energy);
    json.key(QStringLiteral("captured")).value(r.captured);
    json.key(QStringLiteral("captured_top1")).value(r.capturedTop1);
    json.key(QStringLiteral("captured_sketch")).value(r.capturedSketch);
    json.key(QStringLiteral("noise_floor")).value(r.noiseFloor);
    json.key(QStringLiteral("singular_values")).beginArray();
    const std::size_t shown = std::min(r.singularValues.size(), kSingularValuesShown);
    for (std::size_t i = 0; i < shown; ++i)
        json.value(r.singularValues[i]);
    json.endArray();
    json.endObject();
}

void tensorList(JsonWriter& json, const Checkpoint& c, const std::vector<int>& tensors)
{
    json.beginArray();
    for (int i : tensors)
        writeTensorJson(json, c.tensors()[static_cast<std::size_t>(i)].info);
    json.endArray();
}

} // namespace

void writePairJson(JsonWriter& json, const DiffReport& report, const TensorPair& p)
{
    const TensorInfo& a = report.infoA(p);
    const TensorInfo& b = report.infoB(p);
    json.beginObject();
    json.key(QStringLiteral("a")).value(a.name);
    json.key(QStringLiteral("b")).value(b.name);
    json.key(QStringLiteral("paired_by")).value(pairedByName(p.by));
    json.key(QStringLiteral("status")).value(pairStatusName(p.status));
    json.key(QStringLiteral("kind")).value(changeKindName(p.verdict.kind));
    json.key(QStringLiteral("description")).value(p.verdict.text);
    json.key(QStringLiteral("dtype_a")).value(dtypeName(a.dtype));
    json.key(QStringLiteral("dtype_b")).value(dtypeName(b.dtype));
    json.key(QStringLiteral("shape_a"));
    shapeJson(json, a.shape);
    json.key(QStringLiteral("shape_b"));
    shapeJson(json, b.shape);
    if (!p.note.isEmpty())
        json.key(QStringLiteral("note")).value(p.note);
    if (p.verdict.kind == ChangeKind::Rounding)
        json.key(QStringLiteral("rounding_bits")).value(p.verdict.roundingBits);
    if (p.verdict.kind == ChangeKind::Scaled)
        json.key(QStringLiteral("scale")).value(p.verdict.scale);
    json.key(QStringLiteral("metrics"));
    if (p.metrics)
        metricsJson(json, *p.metrics, a.shape);
    else
        json.null();
    json.key(QStringLiteral("rank"));
    if (p.rank)
        rankJson(json, *p.rank);
    else
        json.null();
    if (!p.rankNote.isEmpty())
        json.key(QStringLiteral("rank_note")).value(p.rankNote);
    json.endObject();
}

QByteArray diffReportJson(const DiffReport& report)
{
    const DiffReport::Counts c = report.counts();
    JsonWriter json;
    json.beginObject();
    json.key(QStringLiteral("a")).value(report.a->path());
    json.key(QStringLiteral("b")).value(report.b->path());
    json.key(QStringLiteral("identical")).value(report.identical());
    json.key(QStringLiteral("rename_rules")).beginArray();
    for (const QString& r : report.renameRules)
        json.value(r);
    json.endArray();
    json.key(QStringLiteral("summary")).beginObject();
    json.key(QStringLiteral("tensors_a")).value(static_cast<std::uint64_t>(report.a->tensors().size()));
    json.key(QStringLiteral("tensors_b")).value(static_cast<std::uint64_t>(report.b->tensors().size()));
    json.key(QStringLiteral("pairs")).value(static_cast<std::uint64_t>(report.pairs.size()));
    json.key(QStringLiteral("identical")).value(c.identical);
    json.key(QStringLiteral("changed")).value(c.changed);
    json.key(QStringLiteral("not_compared")).value(c.notCompared);
    json.key(QStringLiteral("renamed")).value(c.renamed);
    json.key(QStringLiteral("suggested")).value(c.suggested);
    json.key(QStringLiteral("reshaped")).value(c.reshaped);
    json.key(QStringLiteral("dtype_changed")).value(c.dtypeChanged);
    json.key(QStringLiteral("added")).value(c.added);
    json.key(QStringLiteral("removed")).value(c.removed);
    json.key(QStringLiteral("metadata_changes")).value(c.metadata);
    json.key(QStringLiteral("kinds")).beginObject();
    for (int k = 0; k < static_cast<int>(std::size(c.byKind)); ++k) {
        if (c.byKind[k] > 0)
            json.key(changeKindName(static_cast<ChangeKind>(k))).value(c.byKind[k]);
    }
    json.endObject();
    json.endObject();
    json.key(QStringLiteral("pairs")).beginArray();
    for (const TensorPair& p : report.pairs)
        writePairJson(json, report, p);
    json.endArray();
    json.key(QStringLiteral("removed"));
    tensorList(json, *report.a, report.removed);
    json.key(QStringLiteral("added"));
    tensorList(json, *report.b, report.added);
    json.key(QStringLiteral("metadata")).beginArray();
    for (const MetadataChange& m : report.metadata) {
        json.beginObject();
        json.key(QStringLiteral("key")).value(m.key);
        json.key(QStringLiteral("change")).value(metadataChangeName(m.kind));
        json.key(QStringLiteral("a"));
        if (m.kind == MetadataChange::Kind::Added)
            json.null();
        else
            json.value(m.before);
        json.key(QStringLiteral("b"));
        if (m.kind == MetadataChange::Kind::Removed)
            json.null();
        else
            json.value(m.after);
        json.endObject();
    }
    json.endArray();
    json.key(QStringLiteral("notes")).beginArray();
    for (const QString& n : report.notes)
        json.value(n);
    json.endArray();
    json.key(QStringLiteral("bytes_read")).value(report.bytesRead);
    json.key(QStringLiteral("seconds")).value(report.seconds);
    json.endObject();
    QByteArray out = json.data();
    out += '\n';
    return out;
}

} // namespace ts::diff
