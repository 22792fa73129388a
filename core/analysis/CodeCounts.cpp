#include "analysis/CodeCounts.h"

#include <algorithm>

namespace ts {

CodeCounts::CodeCounts(std::vector<CodeCount> entries) : m_entries(std::move(entries)) {}

std::uint64_t CodeCounts::total() const
{
    std::uint64_t n = 0;
    for (const CodeCount& e : m_entries)
        n += e.count;
    return n;
}

std::uint64_t CodeCounts::countOf(std::uint32_t code) const
{
    const auto it = std::lower_bound(m_entries.begin(), m_entries.end(), code,
                                     [](const CodeCount& e, std::uint32_t c) { return e.code < c; });
    return it != m_entries.end() && it->code == code ? it->count : 0;
}

void CodeCounts::merge(const CodeCounts& other)
{
    if (other.m_entries.empty())
        return;
    if (m_entries.empty()) {
        m_entries = other.m_entries;
        return;
    }
    std::vector<CodeCount> out;
    out.reserve(m_entries.size() + other.m_entries.size());
    auto a = m_entries.cbegin();
    auto b = other.m_entries.cbegin();
    while (a != m_entries.cend() || b != other.m_entries.cend()) {
        if (b == other.m_entries.cend() || (a != m_entries.cend() && a->code < b->code)) {
            out.push_back(*a++);
        } else if (a == m_entries.cend() || b->code < a->code) {
            out.push_back(*b++);
        } else {
            out.push_back({a->code, a->count + b->count});
            ++a;
            ++b;
        }
    }
    m_entries = std::move(out);
}

} // namespace ts
