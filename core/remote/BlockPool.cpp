#include "remote/BlockPool.h"

#include "remote/Transfer.h"

#include <vector>

namespace ts::remote {

void BlockPool::hold(const std::shared_ptr<Transfer>& t)
{
    std::vector<Entry> dropped; // freed outside the lock
    std::lock_guard lock(m_mutex);
    if (auto it = m_where.find(t.get()); it != m_where.end()) {
        m_lru.splice(m_lru.begin(), m_lru, it->second);
        return;
    }
    m_lru.push_front(t);
    m_where.emplace(t.get(), m_lru.begin());
    m_held += t->capacity();
    // The newest always stays, even alone past the budget: it is what a reader waits for.
    while (m_held > m_budget && m_lru.size() > 1) {
        Entry& oldest = m_lru.back();
        m_held -= oldest->capacity();
        m_where.erase(oldest.get());
        dropped.push_back(std::move(oldest));
        m_lru.pop_back();
    }
}

void BlockPool::touch(const Transfer* t)
{
    std::lock_guard lock(m_mutex);
    if (auto it = m_where.find(t); it != m_where.end())
        m_lru.splice(m_lru.begin(), m_lru, it->second);
}

void BlockPool::release(const Transfer* t)
{
    Entry dropped;
    std::lock_guard lock(m_mutex);
    if (auto it = m_where.find(t); it != m_where.end()) {
        m_held -= (*it->second)->capacity();
        dropped = std::move(*it->second);
        m_lru.erase(it->second);
        m_where.erase(it);
    }
}

std::uint64_t BlockPool::heldBytes() const
{
    std::lock_guard lock(m_mutex);
    return m_held;
}

} // namespace ts::remote
