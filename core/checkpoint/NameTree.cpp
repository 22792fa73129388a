#include "checkpoint/NameTree.h"

#include "base/NaturalOrder.h"

#include <QHash>

#include <algorithm>
#include <bit>
#include <numeric>

namespace ts {
namespace {

// Walks the segments of a dotted name without building a list of them (QString::split of a name
// of 5 M dots is 280 MB): at most kMaxNameTreeDepth levels, the last one takes the rest.
class Segments {
public:
    explicit Segments(QStringView name) : m_name(name) {}

    // The next segment and where it starts in the name; false after the last one.
    bool next(QStringView& segment, qsizetype& start)
    {
        if (m_start < 0)
            return false;
        ++m_depth;
        const qsizetype dot = m_depth < kMaxNameTreeDepth ? m_name.indexOf(QLatin1Char('.'), m_start) : -1;
        start = m_start;
        segment = m_name.mid(m_start, dot < 0 ? m_name.size() - m_start : dot - m_start);
        m_start = dot < 0 ? -1 : dot + 1;
        return true;
    }

private:
    QStringView m_name;
    qsizetype m_start = 0;
    int m_depth = 0;
};

// Sorts tensor indices by their names segment by segment in natural order (a name whose segments
// all start another's comes first; equal names by index). A multikey sort: the indices are sorted
// by their first segment, then each run of equal first segments by the second, and so on, so each
// name is split once and a comparison looks at one segment, not at the shared prefix again (the
// whole-name comparator spent half of `info`'s time on a 100k-tensor header finding dots).
class SegmentSort {
public:
    SegmentSort(const CheckpointTensors& tensors, std::vector<int>& order)
        : m_tensors(tensors), m_order(order), m_start(tensors.size(), 0), m_length(tensors.size(), 0)
    {
    }

    void run()
    {
        std::vector<Range> pending{{0, m_order.size(), 1}};
        while (!pending.empty()) {
            const Range r = pending.back();
            pending.pop_back();
            for (std::size_t k = r.begin; k < r.end; ++k)
                advance(m_order[k], r.depth);
            sortRange(r.begin, r.end);
            // Runs of equal segments are sorted by their next segment; names that ended here
            // are equal and already in index order.
            for (std::size_t k = r.begin; k < r.end;) {
                std::size_t j = k + 1;
                while (j < r.end && compare(m_order[k], m_order[j]) == 0)
                    ++j;
                if (j - k > 1 && m_length[static_cast<std::size_t>(m_order[k])] >= 0)
                    pending.push_back({k, j, r.depth + 1});
                k = j;
            }
        }
    }

private:
    // Small ranges by comparison; large ones by their distinct segments (a layer's 100k tensors
    // hold a few hundred), which are sorted once and then dealt out by a stable counting sort, so
    // each index keeps the index order the range had (the tie-break).
    void sortRange(std::size_t begin, std::size_t end)
    {
        const auto first = m_order.begin() + static_cast<std::ptrdiff_t>(begin);
        const auto last = m_order.begin() + static_cast<std::ptrdiff_t>(end);
        if (end - begin <= kSmallRange) {
            sortByComparison(first, last);
            return;
        }
        QHash<QStringView, int> ids;
        std::vector<int> representative; // a tensor holding each distinct segment
        std::vector<int> idOf(end - begin);
        bool ended = false; // some names have no segment at this depth: they come first
        for (std::size_t k = begin; k < end; ++k) {
            const int t = m_order[k];
            if (m_length[static_cast<std::size_t>(t)] < 0) {
                idOf[k - begin] = -1;
                ended = true;
                continue;
            }
            // Mostly distinct segments (a flat header of 4 M names): hashing them only adds to
            // the comparisons they need anyway, so the range is sorted by comparison after all.
            if (k - begin == kDistinctProbe && representative.size() * 2 > kDistinctProbe) {
                sortByComparison(first, last);
                return;
            }
            const QStringView segment = segmentOf(t);
            auto it = ids.constFind(segment);
            if (it == ids.constEnd()) {
                it = ids.insert(segment, static_cast<int>(representative.size()));
                representative.push_back(t);
            }
            idOf[k - begin] = it.value();
        }
        if (representative.size() == 1 && !ended)
            return; // one segment throughout: the order stands
        std::vector<int> byValue(representative.size());
        std::iota(byValue.begin(), byValue.end(), 0);
        std::sort(byValue.begin(), byValue.end(), [&](int a, int b) {
            return naturalCompare(segmentOf(representative[static_cast<std::size_t>(a)]),
                                  segmentOf(representative[static_cast<std::size_t>(b)])) < 0;
        });
        // Rank 0 is for ended names; segments natural order calls equal share a rank.
        std::vector<int> rank(representative.size());
        int next = 0;
        for (std::size_t i = 0; i < byValue.size(); ++i) {
            const bool same =
                i > 0 && naturalCompare(segmentOf(representative[static_cast<std::size_t>(byValue[i - 1])]),
                                        segmentOf(representative[static_cast<std::size_t>(byValue[i])])) == 0;
            if (!same)
                ++next;
            rank[static_cast<std::size_t>(byValue[i])] = next;
        }
        std::vector<std::size_t> slot(static_cast<std::size_t>(next) + 2, 0);
        for (const int id : idOf)
            ++slot[static_cast<std::size_t>(id < 0 ? 0 : rank[static_cast<std::size_t>(id)]) + 1];
        for (std::size_t i = 1; i < slot.size(); ++i)
            slot[i] += slot[i - 1];
        std::vector<int> sorted(end - begin);
        for (std::size_t k = begin; k < end; ++k) {
            const int id = idOf[k - begin];
            sorted[slot[static_cast<std::size_t>(id < 0 ? 0 : rank[static_cast<std::size_t>(id)])]++] =
                m_order[k];
        }
        std::copy(sorted.begin(), sorted.end(), first);
    }

    // Segment first, then index: the range's index order is the tie-break (the counting sort
    // keeps it; here it is compared).
    void sortByComparison(std::vector<int>::iterator first, std::vector<int>::iterator last)
    {
        std::sort(first, last, [&](int a, int b) {
            const int c = compare(a, b);
            return c != 0 ? c < 0 : a < b;
        });
    }

    static constexpr std::size_t kSmallRange = 32;
    // Names looked at before deciding whether a large range has few distinct segments.
    static constexpr std::size_t kDistinctProbe = 4096;

    QStringView segmentOf(int t) const
    {
        const auto i = static_cast<std::size_t>(t);
        return name(t).mid(m_start[i], m_length[i]);
    }

    struct Range {
        std::size_t begin;
        std::size_t end;
        int depth; // of the segment to sort by, 1-based
    };

    QStringView name(int t) const { return m_tensors.info(static_cast<std::size_t>(t)).name; }

    // Moves tensor t's cursor to its segment `depth`: the one after the current, or none (-1).
    void advance(int t, int depth)
    {
        const auto i = static_cast<std::size_t>(t);
        const QStringView n = name(t);
        qsizetype from = 0;
        if (depth > 1) {
            if (m_length[i] < 0)
                return;
            from = m_start[i] + m_length[i] + 1;
            if (from > n.size()) { // the previous segment was the last
                m_length[i] = -1;
                return;
            }
        }
        const qsizetype dot = depth < kMaxNameTreeDepth ? n.indexOf(QLatin1Char('.'), from) : -1;
        m_start[i] = static_cast<std::int32_t>(from);
        m_length[i] = static_cast<std::int32_t>((dot < 0 ? n.size() : dot) - from);
    }

    int compare(int a, int b) const
    {
        const auto ia = static_cast<std::size_t>(a), ib = static_cast<std::size_t>(b);
        const bool moreA = m_length[ia] >= 0, moreB = m_length[ib] >= 0;
        if (!moreA || !moreB)
            return moreA ? 1 : moreB ? -1 : 0;
        return naturalCompare(name(a).mid(m_start[ia], m_length[ia]), name(b).mid(m_start[ib], m_length[ib]));
    }

    const CheckpointTensors& m_tensors;
    std::vector<int>& m_order;
    std::vector<std::int32_t> m_start; // each tensor's current segment in its name
    std::vector<std::int32_t> m_length;
};

} // namespace

bool NameTree::segmentLess(QStringView a, QStringView b)
{
    return naturalLess(a, b);
}

NameTree::NameTree(const Checkpoint& checkpoint) : m_checkpoint(checkpoint)
{
    const auto& tensors = checkpoint.tensors();
    const std::size_t n = tensors.size();
    m_order.resize(n);
    std::iota(m_order.begin(), m_order.end(), 0);
    SegmentSort(tensors, m_order).run();

    // Nodes in depth-first order: walking the sorted names, the segments a name shares with the
    // previous one are open nodes already; each further segment opens a node.
    std::vector<Entry> dfs(1);
    // A leaf per tensor and, in models' naming, about one group for every few leaves: reserved so
    // the vector does not grow by doubling (copies and pages touched twice on 100k tensors).
    dfs.reserve(n + n / 4 + 1);
    std::vector<Node> open{kRoot}; // the open path, root first
    std::vector<QStringView> openSegments{{}};
    m_byTensor.assign(n, kNone);
    for (std::size_t k = 0; k < n; ++k) {
        const int t = m_order[k];
        const QStringView name = tensors.info(static_cast<std::size_t>(t)).name;
        Segments segments(name);
        QStringView segment;
        qsizetype start = 0;
        std::size_t depth = 1;
        bool shared = true;
        while (segments.next(segment, start)) {
            if (shared && depth < open.size() && openSegments[depth] == segment) {
                ++depth;
                continue;
            }
            if (shared) {
                open.resize(depth);
                openSegments.resize(depth);
                shared = false;
            }
            Entry e;
            e.parent = open.back();
            e.segmentLength = static_cast<std::uint32_t>(segment.size());
            e.firstInOrder = static_cast<std::uint32_t>(k);
            open.push_back(static_cast<Node>(dfs.size()));
            openSegments.push_back(segment);
            dfs.push_back(e);
            ++depth;
        }
        if (shared) {
            // Every segment was open: this name is a group that another, longer name opened
            // first (impossible in sorted order unless names repeat; kept for safety).
            open.resize(depth);
            openSegments.resize(depth);
        }
        Entry& leaf = dfs[open.back()];
        leaf.tensor = t;
        const TensorInfo& info = tensors.info(static_cast<std::size_t>(t));
        leaf.tensorCount += 1;
        leaf.parameters += info.elementCount();
        leaf.bytes += info.byteSize();
        leaf.dtypes |= 1u << static_cast<unsigned>(info.dtype);
        m_byTensor[static_cast<std::size_t>(t)] = open.back();
    }
    // Totals bottom-up: a child's depth-first index is always past its parent's.
    for (std::size_t i = dfs.size(); i-- > 1;) {
        Entry& parent = dfs[dfs[i].parent];
        parent.tensorCount += dfs[i].tensorCount;
        parent.parameters += dfs[i].parameters;
        parent.bytes += dfs[i].bytes;
        parent.dtypes |= dfs[i].dtypes;
        ++parent.childCount;
    }
    // Each node's children one contiguous range: nodes grouped by parent (a counting sort that
    // keeps the depth-first, i.e. natural, order within each group).
    std::vector<Node> start(dfs.size() + 1, 0);
    for (std::size_t i = 1; i < dfs.size(); ++i)
        ++start[dfs[i].parent + 1];
    start[0] = 1; // the root keeps index 0
    for (std::size_t p = 1; p <= dfs.size(); ++p)
        start[p] += start[p - 1];
    // Each node's new number is kept in its firstChild, which is set only after the move (an
    // array of its own was 16 MB more at the peak of 4 M names).
    dfs[0].firstChild = kRoot;
    for (std::size_t i = 1; i < dfs.size(); ++i)
        dfs[i].firstChild = start[dfs[i].parent]++;
    start = {};
    for (std::size_t i = 1; i < dfs.size(); ++i)
        dfs[i].parent = dfs[dfs[i].parent].firstChild;
    for (Node& node : m_byTensor)
        node = dfs[node].firstChild;
    // Moved to their new places in place, cycle by cycle, instead of copied into a second array:
    // on 4 M tensors that copy was 234 MB more at the peak of an open.
    for (std::size_t i = 0; i < dfs.size(); ++i) {
        while (dfs[i].firstChild != i)
            std::swap(dfs[i], dfs[dfs[i].firstChild]);
    }
    for (Entry& e : dfs)
        e.firstChild = 0;
    m_nodes = std::move(dfs);
    // The first child of a node is the first node whose parent it is.
    for (std::size_t i = m_nodes.size(); i-- > 1;)
        m_nodes[m_nodes[i].parent].firstChild = static_cast<Node>(i);
    m_rootDtypes = byDtype(kRoot);
}

int NameTree::depth(Node n) const
{
    int d = 0;
    for (; n != kRoot; n = m_nodes[n].parent)
        ++d;
    return d;
}

std::uint32_t NameTree::segmentStart(Node n) const
{
    std::uint32_t start = 0;
    for (Node p = m_nodes[n].parent; p != kRoot && p != kNone; p = m_nodes[p].parent)
        start += m_nodes[p].segmentLength + 1;
    return start;
}

QStringView NameTree::segment(Node n) const
{
    if (n == kRoot)
        return {};
    const Entry& e = m_nodes[n];
    const QString& name = m_checkpoint.tensors().info(static_cast<std::size_t>(m_order[e.firstInOrder])).name;
    return QStringView(name).mid(segmentStart(n), e.segmentLength);
}

QString NameTree::path(Node n) const
{
    if (n == kRoot)
        return {};
    // Every segment is a slice of the first tensor's name under this node, and that name starts
    // with this node's whole path.
    const Entry& e = m_nodes[n];
    const QString& name = m_checkpoint.tensors().info(static_cast<std::size_t>(m_order[e.firstInOrder])).name;
    return name.left(segmentStart(n) + e.segmentLength);
}

std::optional<Dtype> NameTree::onlyDtype(Node n) const
{
    const std::uint32_t mask = m_nodes[n].dtypes;
    if (std::popcount(mask) != 1)
        return std::nullopt;
    return static_cast<Dtype>(std::countr_zero(mask));
}

std::vector<DtypeTotals> NameTree::byDtype(Node n) const
{
    if (n == kRoot && !m_rootDtypes.empty())
        return m_rootDtypes;
    DtypeTally tally;
    for (const int t : tensorsUnder(n))
        tally.add(m_checkpoint.tensors().info(static_cast<std::size_t>(t)));
    return tally.totals();
}

std::span<const int> NameTree::tensorsUnder(Node n) const
{
    const Entry& e = m_nodes[n];
    return std::span<const int>(m_order).subspan(e.firstInOrder, e.tensorCount);
}

NameTree::Node NameTree::nodeForTensor(int tensor) const
{
    if (tensor < 0 || static_cast<std::size_t>(tensor) >= m_byTensor.size())
        return kNone;
    return m_byTensor[static_cast<std::size_t>(tensor)];
}

} // namespace ts
