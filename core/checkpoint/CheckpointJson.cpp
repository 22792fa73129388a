#include "checkpoint/CheckpointJson.h"

namespace ts {

void writeTensorJson(JsonWriter& json, const TensorInfo& t)
{
    json.beginObject();
    json.key(QStringLiteral("name")).value(t.name);
    json.key(QStringLiteral("dtype")).value(dtypeName(t.dtype));
    json.key(QStringLiteral("shape")).beginArray();
    for (const std::uint64_t d : t.shape)
        json.value(d);
    json.endArray();
    json.key(QStringLiteral("data_offsets")).beginArray().value(t.begin).value(t.end).endArray();
    json.endObject();
}

void writeTensorsJson(JsonWriter& json, const std::vector<TensorInfo>& tensors)
{
    json.beginArray();
    for (const TensorInfo& t : tensors)
        writeTensorJson(json, t);
    json.endArray();
}

void writeMetadataJson(JsonWriter& json, const std::optional<Metadata>& metadata)
{
    if (!metadata) {
        json.null();
        return;
    }
    json.beginObject();
    for (const auto& [key, value] : metadata->entries())
        json.key(key).value(value);
    json.endObject();
}

void writeDiagnosticsJson(JsonWriter& json, const std::vector<Diagnostic>& diagnostics)
{
    json.beginArray();
    for (const Diagnostic& d : diagnostics) {
        json.beginObject();
        json.key(QStringLiteral("code")).value(d.code);
        json.key(QStringLiteral("severity")).value(severityName(d.severity));
        json.key(QStringLiteral("message")).value(d.message);
        json.key(QStringLiteral("tensor"));
        if (d.tensor.isEmpty())
            json.null();
        else
            json.value(d.tensor);
        json.key(QStringLiteral("offset"));
        if (d.offset)
            json.value(*d.offset);
        else
            json.null();
        json.endObject();
    }
    json.endArray();
}

} // namespace ts
