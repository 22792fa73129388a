#pragma once

#include <QString>

#include <optional>
#include <utility>
#include <vector>

namespace ts {

// The `__metadata__` string map. Keys keep the order of the file (and new keys go last) so that
// what we write is reproducible; the reference writer uses hash order, which is random.
class Metadata {
public:
    using Entry = std::pair<QString, QString>;

    // Sets or replaces; a replaced key keeps its position.
    void set(const QString& key, const QString& value);
    // Builds from entries whose keys are already unique (the header parser dedups with a hash:
    // set() is linear, so a million keys through it would take hours).
    static Metadata fromUniqueEntries(std::vector<Entry> entries);
    bool remove(const QString& key);
    bool rename(const QString& from, const QString& to);
    std::optional<QString> value(const QString& key) const;
    bool contains(const QString& key) const { return indexOf(key) >= 0; }
    int size() const { return static_cast<int>(m_entries.size()); }
    bool isEmpty() const { return m_entries.empty(); }
    const std::vector<Entry>& entries() const { return m_entries; }

    bool operator==(const Metadata& other) const = default;

private:
    int indexOf(const QString& key) const;
    std::vector<Entry> m_entries;
};

} // namespace ts
