#include "analysis/ScanJson.h"

#include "analysis/StatsJson.h"
#include "base/JsonWriter.h"
#include "checkpoint/CheckpointJson.h"

namespace ts {

QByteArray scanResultJson(const Checkpoint& model, const ScanResult& result, bool nanInfOnly)
{
    JsonWriter json;
    json.beginObject();
    json.key(QStringLiteral("file")).value(model.path());
    json.key(QStringLiteral("check")).value(nanInfOnly ? "nan-inf" : "full");
    json.key(QStringLiteral("complete")).value(result.complete);
    json.key(QStringLiteral("planned_tensors")).value(static_cast<std::uint64_t>(result.planned));
    json.key(QStringLiteral("bytes")).value(result.bytes);
    json.key(QStringLiteral("seconds")).value(result.seconds);
    json.key(QStringLiteral("tensors")).beginArray();
    for (const TensorStats& t : result.tensors) {
        const int index = model.indexOf(t.name);
        static const std::vector<std::uint64_t> kUnknown;
        writeTensorStatsJson(
            json, t, index >= 0 ? model.tensors()[static_cast<std::size_t>(index)].info.shape : kUnknown);
    }
    json.endArray();
    json.key(QStringLiteral("findings"));
    writeDiagnosticsJson(json, result.findings);
    json.endObject();
    return json.data() + '\n';
}

} // namespace ts
