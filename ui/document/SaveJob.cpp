#include "document/SaveJob.h"

#include "write/MetadataSave.h"

#include <QFileInfo>

namespace ts::ui {

SaveOutcome SaveJob::run(const std::shared_ptr<const SafetensorsFile>& file,
                         const std::optional<Metadata>& metadata, const QString& target,
                         std::uint64_t headerSlack, bool force)
{
    SaveOutcome outcome;
    outcome.target = target;
    MetadataSaveOptions options;
    // MetadataSave asks an in-place save to leave `headerSlack` spare, so a file written with
    // slack would fall back to a full rewrite as soon as one edit used some of it. The preference
    // is meant for full rewrites only: ask for it when the new header does not fit anyway.
    const bool sameFile =
        QFileInfo(target).canonicalFilePath() == QFileInfo(file->path()).canonicalFilePath();
    const bool fits = sameFile && MetadataSave::inPlaceHeader(file->header(), metadata, 0).has_value();
    options.headerSlack = fits ? 0 : headerSlack;
    options.force = force;
    const auto saved = MetadataSave::save(*file, metadata, target, options);
    if (!saved) {
        outcome.error = saved.error();
        return outcome;
    }
    outcome.inPlace = saved->method == SaveMethod::InPlace;
    outcome.bytesWritten = saved->bytesWritten;
    outcome.whyNotInPlace = saved->whyNotInPlace;
    return outcome;
}

} // namespace ts::ui
