#pragma once

#include "base/JsonWriter.h"
#include "diff/DiffReport.h"

#include <QByteArray>

namespace ts::diff {

// The report as `tensorscope-cli diff --json` prints it (README.md, "Comparing two checkpoints",
// describes every member): the two checkpoints, a summary of counts, every pair with its metrics,
// rank estimate and verdict, the tensors only one side has, the metadata changes and the notes.
QByteArray diffReportJson(const DiffReport& report);
void writePairJson(JsonWriter& json, const DiffReport& report, const TensorPair& pair);

} // namespace ts::diff
