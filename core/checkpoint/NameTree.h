#pragma once

#include "checkpoint/Checkpoint.h"
#include "checkpoint/DtypeTally.h"
#include "format/Dtype.h"

#include <QString>
#include <QStringView>

#include <cstdint>
#include <span>
#include <vector>

namespace ts {

// A name splits into at most this many levels; the rest of it, dots and all, is the last
// segment. Each level is a node, and a 10 MB name can hold 5 M dots.
inline constexpr int kMaxNameTreeDepth = 64;

// The dotted-name hierarchy of a checkpoint's tensors ("model.layers.0.mlp.weight"): a node is a
// group, a tensor, or both ("a.b" and "a.b.c" both exist). Flat, for headers of millions of
// tensors: nodes live in one array, each node's children are one contiguous range of it, a
// segment is a slice of a tensor's own name (no string per node), and the tensors under a node
// are one contiguous range of the tree's tensor order. Built by one sort of the names,
// segment by segment in natural order (NaturalOrder.h: "2" before "10", numbers before text),
// then one pass that opens nodes and one that sums the totals bottom-up. No hash table.
//
// The tree keeps a reference to the checkpoint's names: it must not outlive the checkpoint.
class NameTree {
public:
    using Node = std::uint32_t;
    static constexpr Node kRoot = 0;
    static constexpr Node kNone = ~Node(0);

    explicit NameTree(const Checkpoint& checkpoint);

    std::size_t nodeCount() const { return m_nodes.size(); }
    Node parent(Node n) const { return m_nodes[n].parent; }
    int childCount(Node n) const { return static_cast<int>(m_nodes[n].childCount); }
    Node child(Node n, int row) const { return m_nodes[n].firstChild + static_cast<Node>(row); }
    int row(Node n) const
    {
        return n == kRoot ? 0 : static_cast<int>(n - m_nodes[m_nodes[n].parent].firstChild);
    }
    int depth(Node n) const;
    // The tensor this node names, or -1 for a pure group.
    int tensor(Node n) const { return m_nodes[n].tensor; }
    // "mlp"; empty for the root.
    QStringView segment(Node n) const;
    // "model.layers.0.mlp", joined on demand: stored per node, the paths of one name with n dots
    // would take n^2/2 characters (a 10 MB name of dots is 25 T).
    QString path(Node n) const;

    std::uint64_t tensorCount(Node n) const { return m_nodes[n].tensorCount; }
    std::uint64_t parameters(Node n) const { return m_nodes[n].parameters; }
    std::uint64_t bytes(Node n) const { return m_nodes[n].bytes; }
    // Which dtypes the subtree holds, one bit per Dtype value.
    std::uint32_t dtypeMask(Node n) const { return m_nodes[n].dtypes; }
    // The single dtype of the subtree, or nullopt when it mixes several.
    std::optional<Dtype> onlyDtype(Node n) const;
    // Per-dtype totals, only dtypes present, in dtype order: summed over the subtree's tensors on
    // demand (they are contiguous, so this is one linear pass), the root's kept from the build.
    std::vector<DtypeTotals> byDtype(Node n) const;
    // The tensors under a node (itself included) in tree order.
    std::span<const int> tensorsUnder(Node n) const;

    // The node of a tensor by its index in the checkpoint, or kNone.
    Node nodeForTensor(int tensor) const;

    static bool segmentLess(QStringView a, QStringView b);

    // A node as a pointer for QModelIndex::internalPointer, and back. Qt hashes an index by row,
    // column and internal id summed: small consecutive node numbers make sums that collide
    // across parents, addresses spread (the proxy model's QHash of mappings stays fast).
    void* handle(Node n) const { return const_cast<Entry*>(&m_nodes[n]); }
    Node nodeOfHandle(const void* handle) const
    {
        return static_cast<Node>(static_cast<const Entry*>(handle) - m_nodes.data());
    }

private:
    // Where a node's segment starts in its names: past its ancestors' segments and their dots
    // (not stored: 8 bytes a node with the padding, 33 MB of 4 M nodes).
    std::uint32_t segmentStart(Node n) const;

    struct Entry {
        Node parent = kNone;
        Node firstChild = 0;
        std::uint32_t childCount = 0;
        std::int32_t tensor = -1;
        std::uint32_t segmentLength = 0;
        std::uint32_t firstInOrder = 0; // the node's tensors: m_order[firstInOrder, + tensorCount)
        std::uint32_t tensorCount = 0;
        std::uint32_t dtypes = 0;
        std::uint64_t parameters = 0;
        std::uint64_t bytes = 0;
    };

    const Checkpoint& m_checkpoint;
    std::vector<Entry> m_nodes;
    std::vector<int> m_order;     // tensor indices in tree order
    std::vector<Node> m_byTensor; // tensor index -> its node
    std::vector<DtypeTotals> m_rootDtypes;
};

} // namespace ts
