#include "tensor/TensorTreeModel.h"

#include "base/Format.h"
#include "common/DisplayText.h"

#include <QFont>

namespace ts::ui {

TensorTreeModel::TensorTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void TensorTreeModel::setModel(std::shared_ptr<const Checkpoint> model, std::shared_ptr<const NameTree> tree)
{
    beginResetModel();
    m_model = std::move(model);
    m_tree = std::move(tree);
    endResetModel();
}

void TensorTreeModel::clear()
{
    setModel(nullptr, nullptr);
}

const NameTreeNode* TensorTreeModel::node(const QModelIndex& index) const
{
    return index.isValid() ? static_cast<const NameTreeNode*>(index.internalPointer()) : nullptr;
}

const NameTreeNode* TensorTreeModel::nodeOrRoot(const QModelIndex& index) const
{
    if (!m_tree)
        return nullptr;
    return index.isValid() ? node(index) : &m_tree->root();
}

QModelIndex TensorTreeModel::indexForTensor(int tensor) const
{
    if (!m_tree)
        return {};
    const NameTreeNode* n = m_tree->nodeForTensor(tensor);
    if (!n || n == &m_tree->root())
        return {};
    return createIndex(n->row(), 0, const_cast<NameTreeNode*>(n));
}

QModelIndex TensorTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    const NameTreeNode* p = nodeOrRoot(parent);
    if (!p || row < 0 || column < 0 || column >= NUM_COLUMNS || row >= static_cast<int>(p->children.size()))
        return {};
    return createIndex(row, column, p->children[static_cast<std::size_t>(row)].get());
}

QModelIndex TensorTreeModel::parent(const QModelIndex& child) const
{
    const NameTreeNode* n = node(child);
    if (!n || !n->parent || n->parent == &m_tree->root())
        return {};
    return createIndex(n->parent->row(), 0, n->parent);
}

int TensorTreeModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    const NameTreeNode* p = nodeOrRoot(parent);
    return p ? static_cast<int>(p->children.size()) : 0;
}

int TensorTreeModel::columnCount(const QModelIndex& parent) const
{
    (void)parent;
    return NUM_COLUMNS;
}

std::uint64_t TensorTreeModel::absoluteOffset(int tensor) const
{
    return m_model->byteOffset(tensor);
}

QVariant TensorTreeModel::display(const NameTreeNode& node, int column) const
{
    const TensorInfo* info =
        node.tensor >= 0 ? &m_model->tensors()[static_cast<std::size_t>(node.tensor)].info : nullptr;
    switch (column) {
    case NameColumn:
        return itemText(node.segment);
    case DtypeColumn:
        if (info)
            return dtypeName(info->dtype);
        return node.byDtype.size() == 1 ? dtypeName(node.byDtype.front().dtype) : tr("mixed");
    case ShapeColumn:
        if (info)
            return info->shapeString();
        return node.tensorCount == 1 ? tr("1 tensor") : tr("%1 tensors").arg(formatGrouped(node.tensorCount));
    case ParametersColumn:
        return formatCount(node.parameters);
    case BytesColumn:
        return formatBytes(node.bytes);
    case OffsetColumn:
        return info ? formatGrouped(absoluteOffset(node.tensor)) : QVariant();
    }
    return {};
}

QVariant TensorTreeModel::sortValue(const NameTreeNode& node, int column) const
{
    switch (column) {
    case NameColumn:
        return node.row(); // the tree's natural order: "layers.2" before "layers.10"
    case DtypeColumn:
        return display(node, column);
    case ShapeColumn:
    case ParametersColumn:
        return QVariant::fromValue<qulonglong>(node.parameters);
    case BytesColumn:
        return QVariant::fromValue<qulonglong>(node.bytes);
    case OffsetColumn:
        return QVariant::fromValue<qulonglong>(node.tensor >= 0 ? absoluteOffset(node.tensor) : 0);
    }
    return {};
}

QVariant TensorTreeModel::toolTip(const NameTreeNode& node, int column) const
{
    switch (column) {
    case NameColumn:
        return toolTipText(node.path());
    case DtypeColumn: {
        QStringList lines;
        for (const DtypeTotals& d : node.byDtype)
            lines << tr("%1: %2 tensors, %3 parameters")
                         .arg(dtypeName(d.dtype), formatGrouped(d.tensors), formatCount(d.parameters));
        return lines.join(QLatin1Char('\n'));
    }
    case ShapeColumn:
        if (node.tensor >= 0) {
            const std::size_t rank =
                m_model->tensors()[static_cast<std::size_t>(node.tensor)].info.shape.size();
            if (rank > kShapeDimsShown)
                return tr("%1 dimensions; the middle ones are not listed").arg(formatGrouped(rank));
        }
        return {};
    case ParametersColumn:
        return tr("%1 parameters").arg(formatGrouped(node.parameters));
    case BytesColumn:
        return tr("%1 bytes").arg(formatGrouped(node.bytes));
    case OffsetColumn:
        if (node.tensor >= 0) {
            const TensorInfo& info = m_model->tensors()[static_cast<std::size_t>(node.tensor)].info;
            const std::uint64_t abs = absoluteOffset(node.tensor);
            return tr("bytes %1 to %2 of the file")
                .arg(formatGrouped(abs), formatGrouped(abs + info.byteSize()));
        }
        return {};
    }
    return {};
}

QVariant TensorTreeModel::data(const QModelIndex& index, int role) const
{
    const NameTreeNode* n = node(index);
    if (!n || !m_model)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return display(*n, index.column());
    case Qt::ToolTipRole:
        return toolTip(*n, index.column());
    case Qt::TextAlignmentRole:
        if (index.column() >= ParametersColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::FontRole:
        if (n->tensor < 0 && index.column() == ShapeColumn) {
            QFont f;
            f.setItalic(true);
            return f;
        }
        return {};
    case SortRole:
        return sortValue(*n, index.column());
    case TensorIndexRole:
        return n->tensor;
    case PathRole:
        return n->path();
    case DtypeRole:
        if (n->tensor >= 0)
            return static_cast<int>(m_model->tensors()[static_cast<std::size_t>(n->tensor)].info.dtype);
        return n->byDtype.size() == 1 ? static_cast<int>(n->byDtype.front().dtype) : -1;
    case TensorCountRole:
        return QVariant::fromValue<qulonglong>(n->tensorCount);
    }
    return {};
}

QVariant TensorTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::TextAlignmentRole && section >= ParametersColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case DtypeColumn:
        return tr("Dtype");
    case ShapeColumn:
        return tr("Shape");
    case ParametersColumn:
        return tr("Parameters");
    case BytesColumn:
        return tr("Bytes");
    case OffsetColumn:
        return tr("Offset");
    }
    return {};
}

} // namespace ts::ui
