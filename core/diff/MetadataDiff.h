#pragma once

#include "format/Metadata.h"

#include <QString>

#include <optional>
#include <vector>

namespace ts::diff {

struct MetadataChange {
    enum class Kind { Added, Removed, Changed };
    Kind kind = Kind::Changed;
    QString key;
    QString before; // A's value (empty when added)
    QString after;  // B's value (empty when removed)
};

// Keys of A's metadata that B lacks (removed), has with another value (changed), and B's keys A
// lacks (added): removed and changed in A's key order, then added in B's. No metadata at all
// counts as an empty map.
std::vector<MetadataChange> diffMetadata(const std::optional<Metadata>& a, const std::optional<Metadata>& b);

QString metadataChangeName(MetadataChange::Kind kind); // "added", "removed", "changed"

} // namespace ts::diff
