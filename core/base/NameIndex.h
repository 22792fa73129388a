#pragma once

#include <QHashFunctions>
#include <QStringView>

#include <cstdint>
#include <vector>

namespace ts {

// Names to their index in a list the caller keeps, in one open-addressing table of (hash, index)
// pairs: 8 bytes a slot where a QHash<QString, int> took about 50 bytes a name and one heap node
// each. The names are not copied; `nameOf(i)` gives the name at index i whenever two hashes meet.
class NameIndex {
public:
    // Sizes the table for `count` names so that no rehash happens while they are added.
    void reserve(std::size_t count);

    // Records `index` for `name` and returns -1, or returns the index already recorded for it.
    template <typename NameOf> int insert(QStringView name, int index, const NameOf& nameOf)
    {
        if ((m_count + 1) * 4 > m_slots.size() * 3)
            grow();
        const auto hash = static_cast<std::uint32_t>(qHash(name));
        std::size_t at = hash & (m_slots.size() - 1);
        for (; m_slots[at].index >= 0; at = (at + 1) & (m_slots.size() - 1)) {
            if (m_slots[at].hash == hash && QStringView(nameOf(m_slots[at].index)) == name)
                return m_slots[at].index;
        }
        m_slots[at] = Slot{hash, index};
        ++m_count;
        return -1;
    }

    // The index recorded for `name`, or -1.
    template <typename NameOf> int find(QStringView name, const NameOf& nameOf) const
    {
        if (m_count == 0)
            return -1;
        const auto hash = static_cast<std::uint32_t>(qHash(name));
        for (std::size_t at = hash & (m_slots.size() - 1); m_slots[at].index >= 0;
             at = (at + 1) & (m_slots.size() - 1)) {
            if (m_slots[at].hash == hash && QStringView(nameOf(m_slots[at].index)) == name)
                return m_slots[at].index;
        }
        return -1;
    }

    std::size_t size() const { return m_count; }

private:
    struct Slot {
        std::uint32_t hash = 0;
        std::int32_t index = -1; // -1: empty
    };
    void rehash(std::size_t capacity);
    void grow() { rehash(m_slots.empty() ? 16 : m_slots.size() * 2); }

    std::vector<Slot> m_slots;
    std::size_t m_count = 0;
};

} // namespace ts
