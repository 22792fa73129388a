#pragma once

#include "Dtype.h"
#include "Model.h"

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
    QString segment;              // "mlp"
    QString path;                 // "model.layers.0.mlp"
    int tensor = -1;              // index into Model::tensors(), or -1 for a pure group
    NameTreeNode* parent = nullptr;
    std::vector<std::unique_ptr<NameTreeNode>> children;
    std::uint64_t tensorCount = 0; // aggregated over the subtree
    std::uint64_t parameters = 0;
    std::uint64_t bytes = 0;
    std::vector<DtypeTotals> byDtype; // only dtypes present, in dtype order

    int rowInParent = 0;            // index among the parent's children

    int row() const { return rowInParent; }
};

// Builds the hierarchy of a model's tensor names. Children are ordered naturally: numeric
// segments as numbers ("2" before "10"), before non-numeric ones.
class NameTree {
public:
    explicit NameTree(const Model& model);
    const NameTreeNode& root() const { return *m_root; }
    // Node of a tensor by its index in the model, for selecting it.
    const NameTreeNode* nodeForTensor(int tensor) const;

    static bool segmentLess(const QString& a, const QString& b);

private:
    std::unique_ptr<NameTreeNode> m_root;
    std::vector<const NameTreeNode*> m_byTensor;
};

} // namespace ts
