#pragma once

#include "base/Diagnostic.h"
#include "base/JsonWriter.h"
#include "format/Metadata.h"
#include "format/TensorInfo.h"

#include <optional>
#include <vector>

namespace ts {

// The JSON shapes shared by `tensorscope-cli --json` and the window's "copy as JSON".
void writeTensorJson(JsonWriter& json, const TensorInfo& tensor);
void writeTensorsJson(JsonWriter& json, const std::vector<TensorInfo>& tensors);
void writeMetadataJson(JsonWriter& json, const std::optional<Metadata>& metadata); // null when absent
void writeDiagnosticsJson(JsonWriter& json, const std::vector<Diagnostic>& diagnostics);

} // namespace ts
