#pragma once

#include "checkpoint/Checkpoint.h"
#include "checkpoint/NameTree.h"

#include <QAbstractItemModel>

#include <memory>

namespace ts::ui {

// The dotted-name hierarchy of a model's tensors. Group rows carry the totals of their subtree.
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

    explicit TensorTreeModel(QObject* parent = nullptr);

    void setModel(std::shared_ptr<const Checkpoint> model, std::shared_ptr<const NameTree> tree);
    void clear();
    const Checkpoint* model() const { return m_model.get(); }

    QModelIndex indexForTensor(int tensor) const;
    QModelIndex indexForNode(NameTree::Node node, int column = 0) const;
    // The tree node an index stands for, or NameTree::kNone.
    NameTree::Node node(const QModelIndex& index) const;
    const NameTree* tree() const { return m_tree.get(); }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    NameTree::Node nodeOrRoot(const QModelIndex& index) const;
    QVariant display(NameTree::Node node, int column) const;
    QVariant sortValue(NameTree::Node node, int column) const;
    QVariant toolTip(NameTree::Node node, int column) const;
    std::uint64_t absoluteOffset(int tensor) const;

    std::shared_ptr<const Checkpoint> m_model;
    std::shared_ptr<const NameTree> m_tree;
};

} // namespace ts::ui
