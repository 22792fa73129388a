#include "checkpoint/PartOpening.h"

#include "io/RemoteLocation.h"
#include "io/SourceOpener.h"

namespace ts {

Result<OpenedPart> openSafetensorsPart(const QString& location)
{
    if (!RemoteLocation::isRemote(location)) {
        auto file = SafetensorsFile::open(location);
        if (!file)
            return file.error();
        return OpenedPart{std::move(file.value()), location};
    }
    auto opener = SourceOpener::forLocation(location);
    if (!opener)
        return opener.error();
    auto source = opener.value()->open(location);
    if (!source)
        return source.error();
    auto file = SafetensorsFile::fromSource(std::move(source.value()));
    if (!file)
        return file.error();
    return OpenedPart{std::move(file.value()), QString()};
}

} // namespace ts
