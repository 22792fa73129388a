#pragma once

#include "base/Error.h"
#include "checkpoint/Checkpoint.h"

#include <QString>

#include <memory>

namespace ts::cli {

// Opens what a read command reads. Reading never writes, so what interrupted saves left beside the
// files is only reported: on failure, after the core's error, the journal that explains a header
// torn by an interrupted save (and what `recover` would do); on success, with `reportLeftovers`
// (commands whose output lists no warnings: ls, stats, scan, export, convert), the InterruptedSave
// and LeftoverTemporary warnings on stderr. Returns null after printing the error.
std::shared_ptr<const Checkpoint> openForReading(const QString& path, bool reportLeftovers, int* exitStatus,
                                                 const CheckpointOpenOptions& options = {});

// The sentence about a journal beside the file an open failed on, or an empty string.
QString journalNote(const QString& path, const Error& error);

} // namespace ts::cli
