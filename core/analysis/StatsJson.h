#pragma once

#include "analysis/Histogram.h"
#include "analysis/TensorStats.h"
#include "base/JsonWriter.h"
#include "format/Shape.h"

#include <vector>

namespace ts {

// The JSON shapes of `tensorscope-cli stats/scan --json`, shared with the window's "copy as JSON".
// Non-finite numbers (min of a tensor without finite values) are written as null.
void writeValueStatsJson(JsonWriter& json, const ValueStats& stats); // the members only, no braces
void writeTensorStatsJson(JsonWriter& json, const TensorStats& stats, const Shape& shape,
                          const Histogram* histogram = nullptr);
void writeHistogramJson(JsonWriter& json, const Histogram& histogram);

} // namespace ts
