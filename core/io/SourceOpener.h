#pragma once

#include "base/Result.h"
#include "io/ByteSource.h"

#include <QByteArray>
#include <QString>

#include <memory>

namespace ts {

// How the core reads a location that is not a local path (an http:// or https:// URL) without
// linking a network library: the apps install an opener at start (tensorscope_remote's
// HttpOpener), and CheckpointLocator and the part opening ask it. Without one, a URL is refused
// with a sentence instead of being taken for a file name.
class SourceOpener {
public:
    virtual ~SourceOpener() = default;

    // The bytes at `location`, read on demand (ranges, a cache). Blocking; any thread.
    virtual Result<std::shared_ptr<const ByteSource>> open(const QString& location) const = 0;
    // A small document read whole (a shard index), refused past `maxBytes` before it is read.
    virtual Result<QByteArray> fetch(const QString& location, qint64 maxBytes) const = 0;

    // The opener for remote locations (replacing any earlier one; null removes it). Thread-safe.
    static void install(std::shared_ptr<const SourceOpener> opener);
    static std::shared_ptr<const SourceOpener> installed();
    // The installed opener, or the error that says a URL cannot be opened by this program.
    static Result<std::shared_ptr<const SourceOpener>> forLocation(const QString& location);
};

} // namespace ts
