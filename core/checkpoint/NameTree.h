#pragma once

#include "checkpoint/Checkpoint.h"
#include "format/Dtype.h"

#include <QString>

#include <memory>
#include <vector>

namespace ts {

// Per-dtype totals of a subtree.
struct DtypeTotals {
    Dtype dtype;
    std::uint64_t tensors = 0;
    std::uint64_t parameters = 0;
    std::uint64_t bytes = 0;
};

// One node of the dotted-name hierarchy ("model.layers.0.mlp.weight"). A node can be a group,
// a tensor, or both ("a.b" and "a.b.c" both exist).
struct NameTreeNode {
    QString segment; // "mlp"
    int tensor = -1; // index into Checkpoint::tensors(), or -1 for a pure group
    NameTreeNode* parent = nullptr;
    std::vector<std::unique_ptr<NameTreeNode>> children;
    std::uint64_t tensorCount = 0; // aggregated over the subtree
    std::uint64_t parameters = 0;
    std::uint64_t bytes = 0;
    std::vector<DtypeTotals> byDtype; // only dtypes present, in dtype order

    int rowInParent = 0; // index among the parent's children

    int row() const { return rowInParent; }
    // "model.layers.0.mlp", joined on demand: stored per node, the paths of one name with n dots
    // take n^2/2 characters (a 10 MB name of dots is 25 T).
    QString path() const;
};

// A name splits into at most this many levels; the rest of it, dots and all, is the last
// segment. Each level is a node, and a 10 MB name can hold 5 M dots.
inline constexpr int kMaxNameTreeDepth = 64;

// Builds the hierarchy of a model's tensor names. Children are in natural order (NaturalOrder.h):
// numbers as numbers ("2" before "10", "Conv2d_2" before "Conv2d_10"), numeric segments first.
class NameTree {
public:
    explicit NameTree(const Checkpoint& model);
    const NameTreeNode& root() const { return *m_root; }
    // Node of a tensor by its index in the model, for selecting it.
    const NameTreeNode* nodeForTensor(int tensor) const;

    static bool segmentLess(const QString& a, const QString& b);

private:
    std::unique_ptr<NameTreeNode> m_root;
    std::vector<const NameTreeNode*> m_byTensor;
};

} // namespace ts
