#pragma once

#include "checkpoint/Checkpoint.h"
#include "checkpoint/NameTree.h"

#include <QAbstractItemModel>

#include <memory>
#include <optional>
#include <vector>

namespace ts::ui {

// The dotted-name hierarchy of a model's tensors. Group rows carry the totals of their subtree.
// A group of more than kBucketThreshold children shows them in ranges of kBucketSize, each a row
// of its own ("aab … bzz"): QTreeView lays out every row under an expanded parent, and the root
// row list of a 4 M-tensor flat header was 268 MB of the window's memory.
class TensorTreeModel final : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Columns {
        NameColumn,
        DtypeColumn,
        ShapeColumn,
        ParametersColumn,
        BytesColumn,
        OffsetColumn,
        NUM_COLUMNS
    };
    enum Roles {
        SortRole = Qt::UserRole, // raw numbers, so "1.2 GiB" sorts after "900 MiB"
        TensorIndexRole,         // index into Checkpoint::tensors(), -1 for a pure group
        PathRole,                // the full dotted name
        DtypeRole,               // int(Dtype), or -1 for a group of mixed dtypes
        TensorCountRole,         // tensors in the subtree
    };

    static constexpr int kBucketThreshold = 50'000;
    static constexpr int kBucketSize = 10'000;

    explicit TensorTreeModel(QObject* parent = nullptr);

    void setModel(std::shared_ptr<const Checkpoint> model, std::shared_ptr<const NameTree> tree);
    void clear();
    const Checkpoint* model() const { return m_model.get(); }

    QModelIndex indexForTensor(int tensor) const;
    QModelIndex indexForNode(NameTree::Node node, int column = 0) const;
    // The tree node an index stands for, or NameTree::kNone (a range row stands for none).
    NameTree::Node node(const QModelIndex& index) const;
    const NameTree* tree() const { return m_tree.get(); }
    // A range row's children: `count` consecutive siblings from `first`.
    struct NodeRange {
        NameTree::Node first = NameTree::kNone;
        int count = 0;
    };
    std::optional<NodeRange> rangeOf(const QModelIndex& index) const;
    // How deep a node's row is in the view: its depth in the tree plus the range rows above it.
    int viewDepth(NameTree::Node node) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Bucket {
        NameTree::Node parent = NameTree::kNone;
        int firstRow = 0; // of the parent's children
        int count = 0;
        std::uint64_t tensors = 0;
        std::uint64_t parameters = 0;
        std::uint64_t bytes = 0;
        std::uint32_t dtypes = 0; // bit per Dtype
    };
    // The buckets of one parent: m_buckets[first, first + count).
    struct Bucketed {
        NameTree::Node parent;
        int first;
        int count;
    };
    void makeBuckets();
    const Bucket* bucket(const QModelIndex& index) const;
    const Bucketed* bucketsOf(NameTree::Node parent) const;
    int rowsOf(NameTree::Node parent) const;
    QVariant bucketData(const Bucket& b, int column, int role) const;
    NameTree::Node nodeOrRoot(const QModelIndex& index) const;
    QVariant display(NameTree::Node node, int column) const;
    QVariant sortValue(NameTree::Node node, int column) const;
    QVariant toolTip(NameTree::Node node, int column) const;
    std::uint64_t absoluteOffset(int tensor) const;

    std::shared_ptr<const Checkpoint> m_model;
    std::shared_ptr<const NameTree> m_tree;
    std::vector<Bucket> m_buckets;
    std::vector<Bucketed> m_bucketed; // by parent node, ascending
};

} // namespace ts::ui
