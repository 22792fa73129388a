#pragma once

#include "base/Error.h"
#include "format/Metadata.h"
#include "format/SafetensorsFile.h"

#include <QString>

#include <memory>
#include <optional>

namespace ts::ui {

// What a metadata save did, as a plain value for the UI thread.
struct SaveOutcome {
    QString target;
    std::optional<Error> error; // the core's error when it failed: its code decides what the window shows
    bool inPlace = false;
    std::uint64_t bytesWritten = 0;
    QString whyNotInPlace;
};

// Saves new metadata for an open file through ts::MetadataSave: in place behind its journal when
// the header fits, else the atomic full rewrite. Blocking: the document runs it as a job, which
// keeps the file (and so its mapping) alive; the target is replaced by rename, so the window
// keeps reading valid bytes while the save runs.
class SaveJob {
public:
    // `force`: the user agreed to replace a read-only or hard-linked target (SaveTarget).
    static SaveOutcome run(const std::shared_ptr<const SafetensorsFile>& file,
                           const std::optional<Metadata>& metadata, const QString& target,
                           std::uint64_t headerSlack, bool force);
};

} // namespace ts::ui
