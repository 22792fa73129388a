#include "report/JsonReportWriter.h"

#include "base/JsonWriter.h"
#include "checkpoint/CheckpointJson.h"
#include "metadata/MetadataKeys.h"

namespace ts {
namespace {

void field(JsonWriter& j, const ArchitectureField& f)
{
    j.beginObject();
    j.key(QStringLiteral("key")).value(f.key);
    j.key(QStringLiteral("label")).value(f.label);
    j.key(QStringLiteral("value"));
    if (f.value && f.kind == ArchitectureField::Kind::Flag)
        j.value(*f.value != 0);
    else if (f.value)
        j.value(*f.value);
    else if (!f.text.isEmpty())
        j.value(f.text);
    else
        j.null();
    j.key(QStringLiteral("evidence")).value(f.evidence);
    j.key(QStringLiteral("shown")).value(f.shown);
    j.endObject();
}

void architecture(JsonWriter& j, const ModelProfile& p)
{
    const Architecture& a = p.architecture;
    j.key(QStringLiteral("architecture")).beginObject();
    j.key(QStringLiteral("family")).value(a.family);
    j.key(QStringLiteral("name")).value(a.name);
    j.key(QStringLiteral("recognized")).value(a.recognized());
    j.key(QStringLiteral("notes")).beginArray();
    for (const QString& n : a.notes)
        j.value(n);
    j.endArray();
    j.key(QStringLiteral("components")).beginArray();
    for (const ArchitectureComponent& c : a.components) {
        j.beginObject();
        j.key(QStringLiteral("role")).value(c.role);
        j.key(QStringLiteral("family")).value(c.family);
        j.key(QStringLiteral("name")).value(c.name);
        j.key(QStringLiteral("detail")).value(c.detail);
        j.key(QStringLiteral("prefix")).value(c.prefix);
        j.key(QStringLiteral("tensors")).value(c.tensors);
        j.key(QStringLiteral("elements")).value(c.elements);
        j.key(QStringLiteral("fields")).beginArray();
        for (const ArchitectureField& f : c.fields)
            field(j, f);
        j.endArray();
        j.endObject();
    }
    j.endArray();
    if (a.adapter) {
        const AdapterInfo& ad = *a.adapter;
        j.key(QStringLiteral("adapter")).beginObject();
        j.key(QStringLiteral("format")).value(ad.format);
        j.key(QStringLiteral("method")).value(ad.method);
        j.key(QStringLiteral("ranks")).beginArray();
        for (std::uint64_t r : ad.ranks)
            j.value(r);
        j.endArray();
        j.key(QStringLiteral("alpha"));
        if (ad.alpha)
            j.value(*ad.alpha);
        else
            j.null();
        j.key(QStringLiteral("alphaSource")).value(ad.alphaSource);
        j.key(QStringLiteral("modules")).value(ad.modules);
        j.key(QStringLiteral("targets")).beginArray();
        for (const QString& t : ad.targets)
            j.value(t);
        j.endArray();
        j.key(QStringLiteral("base")).value(ad.base);
        j.endObject();
    }
    const ConfigCheckResult& c = p.config;
    j.key(QStringLiteral("config")).beginObject();
    j.key(QStringLiteral("path"));
    if (c.found())
        j.value(c.path);
    else
        j.null();
    j.key(QStringLiteral("problem")).value(c.problem);
    j.key(QStringLiteral("modelType")).value(c.modelType);
    j.key(QStringLiteral("architecture")).value(c.architecture);
    j.key(QStringLiteral("comparisons")).beginArray();
    for (const ConfigComparison& cmp : c.comparisons) {
        j.beginObject();
        j.key(QStringLiteral("component")).value(cmp.component);
        j.key(QStringLiteral("field")).value(cmp.key);
        j.key(QStringLiteral("configKey")).value(cmp.configKey);
        j.key(QStringLiteral("weights")).value(cmp.weights);
        j.key(QStringLiteral("config")).value(cmp.config);
        j.key(QStringLiteral("compared")).value(cmp.compared);
        j.key(QStringLiteral("agrees")).value(cmp.agrees);
        j.endObject();
    }
    j.endArray();
    j.endObject();
    j.key(QStringLiteral("pipeline")).beginArray();
    for (const PipelinePart& part : p.pipeline) {
        j.beginObject();
        j.key(QStringLiteral("component")).value(part.name);
        j.key(QStringLiteral("class")).value(part.type);
        j.key(QStringLiteral("weights")).value(part.weights);
        j.key(QStringLiteral("family")).value(part.family);
        j.key(QStringLiteral("architecture")).value(part.architecture);
        j.key(QStringLiteral("elements")).value(part.parameters);
        j.key(QStringLiteral("reported")).value(part.opened);
        j.key(QStringLiteral("problem")).value(part.problem);
        j.endObject();
    }
    j.endArray();
    j.endObject();
}

void hub(JsonWriter& j, const HubParameterCount& h)
{
    j.key(QStringLiteral("parameters")).beginObject();
    j.key(QStringLiteral("hubWeights")).value(h.weights.relative);
    j.key(QStringLiteral("rule")).value(h.weights.rule);
    j.key(QStringLiteral("counted")).value(h.counted);
    j.key(QStringLiteral("error"));
    if (h.error)
        j.value(h.error->toString());
    else
        j.null();
    j.key(QStringLiteral("total")).value(h.total());
    j.key(QStringLiteral("sum")).value(h.sum);
    j.key(QStringLiteral("byDtype")).beginObject();
    for (const HubDtypeCount& d : h.dtypes)
        j.key(dtypeName(d.dtype)).value(d.parameters);
    j.endObject();
    j.key(QStringLiteral("metadataTotal"));
    if (h.declaredTotal)
        j.value(*h.declaredTotal);
    else
        j.null();
    j.key(QStringLiteral("elements")).value(h.elements);
    j.key(QStringLiteral("skippedTensors")).value(h.skippedTensors);
    j.key(QStringLiteral("skippedElements")).value(h.skippedElements);
    j.key(QStringLiteral("quantMethod")).value(h.quantMethod);
    j.key(QStringLiteral("configProblem")).value(h.configProblem);
    j.endObject();
}

void series(JsonWriter& j, const char* name, const std::vector<double>& values)
{
    j.key(QLatin1String(name)).beginArray();
    for (double v : values)
        j.value(v);
    j.endArray();
}

} // namespace

QByteArray JsonReportWriter::write(const AuditReport& r)
{
    JsonWriter j;
    j.beginObject();
    j.key(QStringLiteral("reportVersion")).value(kVersion);
    j.key(QStringLiteral("tool")).value(r.tool);
    j.key(QStringLiteral("generatedAt")).value(r.generatedAt);
    j.key(QStringLiteral("title")).value(r.title);
    j.key(QStringLiteral("opened")).value(r.opened);
    j.key(QStringLiteral("format")).value(r.formatName);
    j.key(QStringLiteral("kind")).value(r.kind);
    j.key(QStringLiteral("files")).beginArray();
    for (const FileDigest& f : r.files) {
        j.beginObject();
        j.key(QStringLiteral("name")).value(f.name);
        j.key(QStringLiteral("path")).value(f.path);
        j.key(QStringLiteral("role")).value(f.role);
        j.key(QStringLiteral("size")).value(f.size);
        j.key(QStringLiteral("sha256"));
        if (f.sha256.isEmpty())
            j.null();
        else
            j.value(f.sha256);
        j.endObject();
    }
    j.endArray();
    j.key(QStringLiteral("hashNote")).value(r.hashNote);
    j.key(QStringLiteral("summary")).beginObject();
    j.key(QStringLiteral("tensors")).value(r.tensorCount);
    j.key(QStringLiteral("elements")).value(r.elements);
    j.key(QStringLiteral("tensorBytes")).value(r.tensorBytes);
    j.key(QStringLiteral("fileBytes")).value(r.fileBytes);
    j.key(QStringLiteral("headerBytes")).value(r.headerBytes);
    j.key(QStringLiteral("dtypes")).beginArray();
    for (const DtypeLine& d : r.dtypes) {
        j.beginObject();
        j.key(QStringLiteral("dtype")).value(dtypeName(d.dtype));
        j.key(QStringLiteral("tensors")).value(d.tensors);
        j.key(QStringLiteral("elements")).value(d.elements);
        j.key(QStringLiteral("bytes")).value(d.bytes);
        j.endObject();
    }
    j.endArray();
    j.endObject();
    architecture(j, r.profile);
    hub(j, r.profile.hub);
    j.key(QStringLiteral("validation"));
    writeDiagnosticsJson(j, r.validation);
    j.key(QStringLiteral("architectureFindings"));
    writeDiagnosticsJson(j, r.profile.findings());
    j.key(QStringLiteral("scan")).beginObject();
    j.key(QStringLiteral("ran")).value(r.scanned);
    j.key(QStringLiteral("nanInfOnly")).value(r.scanNanInfOnly);
    j.key(QStringLiteral("note")).value(r.scanNote);
    j.key(QStringLiteral("findings"));
    writeDiagnosticsJson(j, r.scanFindings);
    j.key(QStringLiteral("layers")).beginArray();
    for (const LayerSeries& s : r.layers) {
        j.beginObject();
        j.key(QStringLiteral("pattern")).value(s.pattern);
        j.key(QStringLiteral("blocks")).beginArray();
        for (int b : s.blocks)
            j.value(b);
        j.endArray();
        series(j, "std", s.std);
        series(j, "absmax", s.absmax);
        j.key(QStringLiteral("flagged")).beginArray();
        for (int b : s.flagged)
            j.value(b);
        j.endArray();
        j.endObject();
    }
    j.endArray();
    j.endObject();
    j.key(QStringLiteral("metadata"));
    if (!r.metadata) {
        j.null();
    } else {
        j.beginArray();
        for (const auto& [key, value] : r.metadata->entries()) {
            j.beginObject();
            j.key(QStringLiteral("key")).value(key);
            // Never between the two halves of a surrogate pair.
            qsizetype keep = std::min(value.size(), kMaxValueChars);
            if (keep < value.size() && keep > 0 && value.at(keep - 1).isHighSurrogate())
                --keep;
            j.key(QStringLiteral("value")).value(value.left(keep));
            if (keep < value.size())
                j.key(QStringLiteral("cutCharacters")).value(static_cast<std::uint64_t>(value.size() - keep));
            if (const auto e = MetadataKeys::explain(key, value)) {
                j.key(QStringLiteral("origin")).value(e->origin);
                j.key(QStringLiteral("meaning")).value(e->meaning);
                if (!e->decoded.isEmpty())
                    j.key(QStringLiteral("decoded")).value(e->decoded);
            }
            j.endObject();
        }
        j.endArray();
    }
    j.key(QStringLiteral("errors")).value(r.errorCount());
    j.endObject();
    return j.data() + '\n';
}

} // namespace ts
