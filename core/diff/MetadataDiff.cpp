#include "diff/MetadataDiff.h"

#include <QHash>

namespace ts::diff {

std::vector<MetadataChange> diffMetadata(const std::optional<Metadata>& a, const std::optional<Metadata>& b)
{
    static const std::vector<Metadata::Entry> none;
    const std::vector<Metadata::Entry>& ea = a ? a->entries() : none;
    const std::vector<Metadata::Entry>& eb = b ? b->entries() : none;
    // Hashes, not Metadata::value(): a header may hold a million keys and value() is linear.
    QHash<QString, const QString*> inA, inB;
    inA.reserve(static_cast<qsizetype>(ea.size()));
    inB.reserve(static_cast<qsizetype>(eb.size()));
    for (const auto& [key, value] : ea)
        inA.insert(key, &value);
    for (const auto& [key, value] : eb)
        inB.insert(key, &value);
    std::vector<MetadataChange> changes;
    for (const auto& [key, value] : ea) {
        const auto it = inB.constFind(key);
        if (it == inB.constEnd())
            changes.push_back({MetadataChange::Kind::Removed, key, value, {}});
        else if (**it != value)
            changes.push_back({MetadataChange::Kind::Changed, key, value, **it});
    }
    for (const auto& [key, value] : eb) {
        if (!inA.contains(key))
            changes.push_back({MetadataChange::Kind::Added, key, {}, value});
    }
    return changes;
}

QString metadataChangeName(MetadataChange::Kind kind)
{
    switch (kind) {
    case MetadataChange::Kind::Added:
        return QStringLiteral("added");
    case MetadataChange::Kind::Removed:
        return QStringLiteral("removed");
    case MetadataChange::Kind::Changed:
        return QStringLiteral("changed");
    }
    return {};
}

} // namespace ts::diff
