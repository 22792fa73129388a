#pragma once

#include "base/Error.h"
#include "format/Metadata.h"
#include "format/SafetensorsFile.h"

#include <QFuture>
#include <QString>

#include <memory>
#include <optional>

namespace ts::ui {

// What a metadata save did, as a plain value for the UI thread (a Result has no empty state for
// QFuture to hold).
struct SaveOutcome {
    QString target;
    bool ok = false;
    std::optional<Error> error; // the core's error when !ok: its code decides what the window shows
    bool inPlace = false;
    std::uint64_t bytesWritten = 0;
    QString whyNotInPlace;
};

// Saves new metadata for an open file off the UI thread through ts::MetadataSave: in place behind
// its journal when the header fits, else the atomic full rewrite. The file (and so its mapping)
// is kept alive by the job, and the target is replaced by rename, so the window keeps reading
// valid bytes while the save runs.
class SaveJob {
public:
    static SaveOutcome run(const std::shared_ptr<const SafetensorsFile>& file,
                           const std::optional<Metadata>& metadata, const QString& target,
                           std::uint64_t headerSlack, bool force);
    // `force`: the user agreed to replace a read-only or hard-linked target (SaveTarget).
    static QFuture<SaveOutcome> start(std::shared_ptr<const SafetensorsFile> file,
                                      std::optional<Metadata> metadata, QString target,
                                      std::uint64_t headerSlack, bool force);
};

} // namespace ts::ui
