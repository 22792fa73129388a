#include "base/NameIndex.h"

#include <utility>

namespace ts {

void NameIndex::reserve(std::size_t count)
{
    std::size_t capacity = 16;
    while (capacity * 3 < count * 4 + 4)
        capacity *= 2;
    if (capacity > m_slots.size())
        rehash(capacity);
}

void NameIndex::rehash(std::size_t capacity)
{
    std::vector<Slot> old = std::exchange(m_slots, std::vector<Slot>(capacity));
    for (const Slot& s : old) {
        if (s.index < 0)
            continue;
        std::size_t at = s.hash & (capacity - 1);
        while (m_slots[at].index >= 0)
            at = (at + 1) & (capacity - 1);
        m_slots[at] = s;
    }
}

} // namespace ts
