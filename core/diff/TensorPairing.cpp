#include "diff/TensorPairing.h"

#include <QSet>

#include <algorithm>
#include <map>

namespace ts::diff {
namespace {

const TensorInfo& infoOf(const Checkpoint& c, int i)
{
    return c.tensors()[static_cast<std::size_t>(i)].info;
}

// Shapes are compared where they are: a hostile header's shape may hold millions of dimensions.
TensorPair makePair(int a, int b, PairedBy by)
{
    TensorPair p;
    p.a = a;
    p.b = b;
    p.by = by;
    return p;
}

struct ShapeLess {
    bool operator()(const Shape* x, const Shape* y) const { return *x < *y; }
};

struct ContentKey {
    int dtype;
    const Shape* shape;
    std::uint64_t hash;
    bool operator<(const ContentKey& o) const
    {
        if (dtype != o.dtype)
            return dtype < o.dtype;
        if (hash != o.hash)
            return hash < o.hash;
        return *shape < *o.shape;
    }
};

} // namespace

TensorPairing::TensorPairing(const Checkpoint& a, const Checkpoint& b, const RenameRules& rules)
    : m_a(a), m_b(b)
{
    std::vector<bool> takenB(b.tensors().size(), false);
    std::vector<int> unmatched;
    for (int i = 0; i < static_cast<int>(a.tensors().size()); ++i) {
        const int j = b.indexOf(infoOf(a, i).name);
        if (j >= 0) {
            m_pairs.push_back(makePair(i, j, PairedBy::Name));
            takenB[static_cast<std::size_t>(j)] = true;
        } else {
            unmatched.push_back(i);
        }
    }
    // Rules only for what the names did not pair, and only onto a tensor of B still free.
    for (int i : unmatched) {
        const std::optional<QString> renamed =
            rules.isEmpty() ? std::nullopt : rules.apply(infoOf(a, i).name);
        const int j = renamed ? b.indexOf(*renamed) : -1;
        if (j >= 0 && !takenB[static_cast<std::size_t>(j)]) {
            m_pairs.push_back(makePair(i, j, PairedBy::Rule));
            takenB[static_cast<std::size_t>(j)] = true;
        } else {
            m_onlyA.push_back(i);
        }
    }
    std::stable_sort(m_pairs.begin(), m_pairs.end(),
                     [](const TensorPair& x, const TensorPair& y) { return x.a < y.a; });
    for (int j = 0; j < static_cast<int>(b.tensors().size()); ++j) {
        if (!takenB[static_cast<std::size_t>(j)])
            m_onlyB.push_back(j);
    }
}

std::vector<int> TensorPairing::hashCandidatesA() const
{
    QSet<std::pair<int, std::uint64_t>> other;
    for (int j : m_onlyB)
        other.insert({static_cast<int>(infoOf(m_b, j).dtype), infoOf(m_b, j).byteSize()});
    std::vector<int> out;
    for (int i : m_onlyA) {
        const TensorInfo& t = infoOf(m_a, i);
        if (t.byteSize() > 0 && other.contains({static_cast<int>(t.dtype), t.byteSize()}))
            out.push_back(i);
    }
    return out;
}

std::vector<int> TensorPairing::hashCandidatesB() const
{
    QSet<std::pair<int, std::uint64_t>> other;
    for (int i : m_onlyA)
        other.insert({static_cast<int>(infoOf(m_a, i).dtype), infoOf(m_a, i).byteSize()});
    std::vector<int> out;
    for (int j : m_onlyB) {
        const TensorInfo& t = infoOf(m_b, j);
        if (t.byteSize() > 0 && other.contains({static_cast<int>(t.dtype), t.byteSize()}))
            out.push_back(j);
    }
    return out;
}

void TensorPairing::take(std::vector<std::pair<int, int>> matched, PairedBy by)
{
    QSet<int> usedA, usedB;
    for (const auto& [i, j] : matched) {
        m_pairs.push_back(makePair(i, j, by));
        usedA.insert(i);
        usedB.insert(j);
    }
    std::erase_if(m_onlyA, [&](int i) { return usedA.contains(i); });
    std::erase_if(m_onlyB, [&](int j) { return usedB.contains(j); });
}

void TensorPairing::suggestByContent(const QHash<int, std::uint64_t>& hashA,
                                     const QHash<int, std::uint64_t>& hashB)
{
    // Same dtype, shape and hash: a queue of B's tensors per key, taken in B's order.
    std::map<ContentKey, std::vector<int>> waiting;
    for (auto it = m_onlyB.rbegin(); it != m_onlyB.rend(); ++it) {
        if (const auto h = hashB.constFind(*it); h != hashB.constEnd())
            waiting[{static_cast<int>(infoOf(m_b, *it).dtype), &infoOf(m_b, *it).shape, *h}].push_back(*it);
    }
    std::vector<std::pair<int, int>> matched;
    for (int i : m_onlyA) {
        const auto h = hashA.constFind(i);
        if (h == hashA.constEnd())
            continue;
        const auto it = waiting.find({static_cast<int>(infoOf(m_a, i).dtype), &infoOf(m_a, i).shape, *h});
        if (it == waiting.end() || it->second.empty())
            continue;
        matched.emplace_back(i, it->second.back());
        it->second.pop_back();
    }
    take(std::move(matched), PairedBy::Content);
}

void TensorPairing::suggestByShape()
{
    std::map<const Shape*, std::pair<std::vector<int>, std::vector<int>>, ShapeLess> byShape;
    for (int i : m_onlyA) {
        if (infoOf(m_a, i).elementCount() > 0)
            byShape[&infoOf(m_a, i).shape].first.push_back(i);
    }
    for (int j : m_onlyB) {
        if (infoOf(m_b, j).elementCount() > 0)
            byShape[&infoOf(m_b, j).shape].second.push_back(j);
    }
    std::vector<std::pair<int, int>> matched;
    for (const auto& [shape, sides] : byShape) {
        if (sides.first.size() == 1 && sides.second.size() == 1)
            matched.emplace_back(sides.first.front(), sides.second.front());
    }
    std::sort(matched.begin(), matched.end());
    take(std::move(matched), PairedBy::Shape);
}

} // namespace ts::diff
