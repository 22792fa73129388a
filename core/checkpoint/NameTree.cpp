#include "checkpoint/NameTree.h"

#include "base/NaturalOrder.h"

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

// Segment by segment in natural order; a name whose segments all start another's comes first.
int compareNames(QStringView a, QStringView b)
{
    Segments sa(a), sb(b);
    QStringView x, y;
    qsizetype ax = 0, by = 0;
    for (;;) {
        const bool moreA = sa.next(x, ax);
        const bool moreB = sb.next(y, by);
        if (!moreA || !moreB)
            return moreA ? 1 : moreB ? -1 : 0;
        if (const int c = naturalCompare(x, y); c != 0)
            return c;
    }
}

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
    std::sort(m_order.begin(), m_order.end(), [&](int a, int b) {
        const int c = compareNames(tensors[static_cast<std::size_t>(a)].info.name,
                                   tensors[static_cast<std::size_t>(b)].info.name);
        return c != 0 ? c < 0 : a < b;
    });

    // Nodes in depth-first order: walking the sorted names, the segments a name shares with the
    // previous one are open nodes already; each further segment opens a node.
    std::vector<Entry> dfs(1);
    std::vector<Node> open{kRoot}; // the open path, root first
    std::vector<QStringView> openSegments{{}};
    m_byTensor.assign(n, kNone);
    for (std::size_t k = 0; k < n; ++k) {
        const int t = m_order[k];
        const QStringView name = tensors[static_cast<std::size_t>(t)].info.name;
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
            e.segmentStart = static_cast<std::uint32_t>(start);
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
        const TensorInfo& info = tensors[static_cast<std::size_t>(t)].info;
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
    std::vector<Node> renumbered(dfs.size(), kRoot);
    for (std::size_t i = 1; i < dfs.size(); ++i)
        renumbered[i] = start[dfs[i].parent]++;
    m_nodes.resize(dfs.size());
    for (std::size_t i = 0; i < dfs.size(); ++i) {
        Entry e = dfs[i];
        if (i > 0)
            e.parent = renumbered[e.parent];
        m_nodes[renumbered[i]] = e;
    }
    // The first child of a node is the first node whose parent it is.
    for (std::size_t i = m_nodes.size(); i-- > 1;)
        m_nodes[m_nodes[i].parent].firstChild = static_cast<Node>(i);
    for (Node& node : m_byTensor)
        node = renumbered[node];
    m_rootDtypes = byDtype(kRoot);
}

int NameTree::depth(Node n) const
{
    int d = 0;
    for (; n != kRoot; n = m_nodes[n].parent)
        ++d;
    return d;
}

QStringView NameTree::segment(Node n) const
{
    if (n == kRoot)
        return {};
    const Entry& e = m_nodes[n];
    const QString& name = m_checkpoint.tensors()[static_cast<std::size_t>(m_order[e.firstInOrder])].info.name;
    return QStringView(name).mid(e.segmentStart, e.segmentLength);
}

QString NameTree::path(Node n) const
{
    if (n == kRoot)
        return {};
    // Every segment is a slice of the first tensor's name under this node, and that name starts
    // with this node's whole path.
    const Entry& e = m_nodes[n];
    const QString& name = m_checkpoint.tensors()[static_cast<std::size_t>(m_order[e.firstInOrder])].info.name;
    return name.left(e.segmentStart + e.segmentLength);
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
    std::array<DtypeTotals, kDtypeCount> sums{};
    for (const int t : tensorsUnder(n)) {
        const TensorInfo& info = m_checkpoint.tensors()[static_cast<std::size_t>(t)].info;
        DtypeTotals& d = sums[static_cast<std::size_t>(info.dtype)];
        ++d.tensors;
        d.parameters += info.elementCount();
        d.bytes += info.byteSize();
    }
    std::vector<DtypeTotals> out;
    for (int i = 0; i < kDtypeCount; ++i) {
        if (sums[static_cast<std::size_t>(i)].tensors > 0) {
            sums[static_cast<std::size_t>(i)].dtype = static_cast<Dtype>(i);
            out.push_back(sums[static_cast<std::size_t>(i)]);
        }
    }
    return out;
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
