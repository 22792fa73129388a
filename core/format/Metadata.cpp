#include "format/Metadata.h"

namespace ts {

int Metadata::indexOf(const QString& key) const
{
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        if (m_entries[i].first == key)
            return static_cast<int>(i);
    }
    return -1;
}

void Metadata::set(const QString& key, const QString& value)
{
    const int i = indexOf(key);
    if (i >= 0)
        m_entries[static_cast<std::size_t>(i)].second = value;
    else
        m_entries.emplace_back(key, value);
}

Metadata Metadata::fromUniqueEntries(std::vector<Entry> entries)
{
    Metadata m;
    m.m_entries = std::move(entries);
    return m;
}

bool Metadata::remove(const QString& key)
{
    const int i = indexOf(key);
    if (i < 0)
        return false;
    m_entries.erase(m_entries.begin() + i);
    return true;
}

bool Metadata::rename(const QString& from, const QString& to)
{
    const int i = indexOf(from);
    if (i < 0 || (from != to && contains(to)))
        return false;
    m_entries[static_cast<std::size_t>(i)].first = to;
    return true;
}

std::optional<QString> Metadata::value(const QString& key) const
{
    const int i = indexOf(key);
    if (i < 0)
        return std::nullopt;
    return m_entries[static_cast<std::size_t>(i)].second;
}

} // namespace ts
