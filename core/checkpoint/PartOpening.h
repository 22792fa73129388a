#pragma once

#include "base/Result.h"
#include "format/SafetensorsFile.h"

#include <QString>

#include <memory>

namespace ts {

// One safetensors part opened from its location, with the local path the checkpoint may watch,
// look beside for journals and save to: the path itself, or empty for a URL (read through the
// installed SourceOpener: nothing on this machine to watch or write).
struct OpenedPart {
    std::shared_ptr<const SafetensorsFile> file;
    QString localPath;
};

Result<OpenedPart> openSafetensorsPart(const QString& location);

} // namespace ts
