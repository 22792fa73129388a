#pragma once

#include "analysis/ModelScanner.h"
#include "checkpoint/Checkpoint.h"

#include <QByteArray>

namespace ts {

// The JSON of `tensorscope-cli scan --json`, which the window's scan export writes too: the file,
// which check ran, whether it finished (a cancelled scan in the window keeps what it finished),
// bytes and seconds, every scanned tensor's statistics and the findings.
QByteArray scanResultJson(const Checkpoint& model, const ScanResult& result, bool nanInfOnly);

} // namespace ts
