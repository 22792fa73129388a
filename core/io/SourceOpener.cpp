#include "io/SourceOpener.h"

#include "io/RemoteLocation.h"

#include <mutex>

namespace ts {
namespace {

std::mutex& openerMutex()
{
    static std::mutex m;
    return m;
}

std::shared_ptr<const SourceOpener>& openerSlot()
{
    static std::shared_ptr<const SourceOpener> opener;
    return opener;
}

} // namespace

void SourceOpener::install(std::shared_ptr<const SourceOpener> opener)
{
    std::lock_guard lock(openerMutex());
    openerSlot() = std::move(opener);
}

std::shared_ptr<const SourceOpener> SourceOpener::installed()
{
    std::lock_guard lock(openerMutex());
    return openerSlot();
}

Result<std::shared_ptr<const SourceOpener>> SourceOpener::forLocation(const QString& location)
{
    if (auto opener = installed())
        return opener;
    return makeError(ErrorCode::InvalidArgument, RemoteLocation::redacted(location),
                     QStringLiteral("this program cannot read URLs (no network support was installed)"));
}

} // namespace ts
