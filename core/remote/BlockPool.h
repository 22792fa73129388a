#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace ts::remote {

class Transfer;

// The memory every remote file's fetched ranges share, bounded as one: the pool holds each
// transfer's bytes, least recently used first out. Sources keep only weak references, so a
// scan that walks through a hundred shards leaves at most the budget resident, not a window per
// shard; an evicted range comes back from the disk cache or the server. Thread-safe.
class BlockPool {
public:
    explicit BlockPool(std::uint64_t budgetBytes) : m_budget(budgetBytes) {}

    // Holds `t` (or marks it used) and lets go of the oldest ones past the budget.
    void hold(const std::shared_ptr<Transfer>& t);
    void touch(const Transfer* t);
    void release(const Transfer* t);
    std::uint64_t heldBytes() const;
    std::uint64_t budget() const { return m_budget; }

private:
    using Entry = std::shared_ptr<Transfer>;
    mutable std::mutex m_mutex;
    std::uint64_t m_budget;
    std::uint64_t m_held = 0;
    std::list<Entry> m_lru; // most recent first
    std::unordered_map<const Transfer*, std::list<Entry>::iterator> m_where;
};

} // namespace ts::remote
