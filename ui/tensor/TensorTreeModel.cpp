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

NameTree::Node TensorTreeModel::node(const QModelIndex& index) const
{
    return index.isValid() && m_tree ? m_tree->nodeOfHandle(index.internalPointer()) : NameTree::kNone;
}

NameTree::Node TensorTreeModel::nodeOrRoot(const QModelIndex& index) const
{
    if (!m_tree)
        return NameTree::kNone;
    return index.isValid() ? node(index) : NameTree::kRoot;
}

QModelIndex TensorTreeModel::indexForTensor(int tensor) const
{
    if (!m_tree)
        return {};
    const NameTree::Node n = m_tree->nodeForTensor(tensor);
    if (n == NameTree::kNone || n == NameTree::kRoot)
        return {};
    return createIndex(m_tree->row(n), 0, m_tree->handle(n));
}

QModelIndex TensorTreeModel::indexForNode(NameTree::Node n, int column) const
{
    if (!m_tree || n == NameTree::kNone || n == NameTree::kRoot)
        return {};
    return createIndex(m_tree->row(n), column, m_tree->handle(n));
}

QModelIndex TensorTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    const NameTree::Node p = nodeOrRoot(parent);
    if (p == NameTree::kNone || row < 0 || column < 0 || column >= NUM_COLUMNS ||
        row >= m_tree->childCount(p))
        return {};
    return createIndex(row, column, m_tree->handle(m_tree->child(p, row)));
}

QModelIndex TensorTreeModel::parent(const QModelIndex& child) const
{
    const NameTree::Node n = node(child);
    if (n == NameTree::kNone || n == NameTree::kRoot)
        return {};
    return indexForNode(m_tree->parent(n));
}

int TensorTreeModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    const NameTree::Node p = nodeOrRoot(parent);
    return p == NameTree::kNone ? 0 : m_tree->childCount(p);
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

QVariant TensorTreeModel::display(NameTree::Node node, int column) const
{
    const int tensor = m_tree->tensor(node);
    const TensorInfo* info =
        tensor >= 0 ? &m_model->tensors()[static_cast<std::size_t>(tensor)].info : nullptr;
    switch (column) {
    case NameColumn:
        return itemText(m_tree->segment(node).toString());
    case DtypeColumn:
        if (info)
            return dtypeName(info->dtype);
        if (const auto only = m_tree->onlyDtype(node))
            return dtypeName(*only);
        return tr("mixed");
    case ShapeColumn:
        if (info)
            return info->shapeString();
        return m_tree->tensorCount(node) == 1
                   ? tr("1 tensor")
                   : tr("%1 tensors").arg(formatGrouped(m_tree->tensorCount(node)));
    case ParametersColumn:
        return formatCount(m_tree->parameters(node));
    case BytesColumn:
        return formatBytes(m_tree->bytes(node));
    case OffsetColumn:
        return info ? formatGrouped(absoluteOffset(tensor)) : QVariant();
    }
    return {};
}

QVariant TensorTreeModel::sortValue(NameTree::Node node, int column) const
{
    switch (column) {
    case NameColumn:
        return m_tree->row(node); // the tree's natural order: "layers.2" before "layers.10"
    case DtypeColumn:
        return display(node, column);
    case ShapeColumn:
    case ParametersColumn:
        return QVariant::fromValue<qulonglong>(m_tree->parameters(node));
    case BytesColumn:
        return QVariant::fromValue<qulonglong>(m_tree->bytes(node));
    case OffsetColumn:
        return QVariant::fromValue<qulonglong>(
            m_tree->tensor(node) >= 0 ? absoluteOffset(m_tree->tensor(node)) : 0);
    }
    return {};
}

QVariant TensorTreeModel::toolTip(NameTree::Node node, int column) const
{
    const int tensor = m_tree->tensor(node);
    switch (column) {
    case NameColumn:
        return toolTipText(m_tree->path(node));
    case DtypeColumn: {
        QStringList lines;
        for (const DtypeTotals& d : m_tree->byDtype(node))
            lines << tr("%1: %2 tensors, %3 parameters")
                         .arg(dtypeName(d.dtype), formatGrouped(d.tensors), formatCount(d.parameters));
        return lines.join(QLatin1Char('\n'));
    }
    case ShapeColumn:
        if (tensor >= 0) {
            const std::size_t rank = m_model->tensors()[static_cast<std::size_t>(tensor)].info.shape.size();
            if (rank > kShapeDimsShown)
                return tr("%1 dimensions; the middle ones are not listed").arg(formatGrouped(rank));
        }
        return {};
    case ParametersColumn:
        return tr("%1 parameters").arg(formatGrouped(m_tree->parameters(node)));
    case BytesColumn:
        return tr("%1 bytes").arg(formatGrouped(m_tree->bytes(node)));
    case OffsetColumn:
        if (tensor >= 0) {
            const TensorInfo& info = m_model->tensors()[static_cast<std::size_t>(tensor)].info;
            const std::uint64_t abs = absoluteOffset(tensor);
            return tr("bytes %1 to %2 of the file")
                .arg(formatGrouped(abs), formatGrouped(abs + info.byteSize()));
        }
        return {};
    }
    return {};
}

QVariant TensorTreeModel::data(const QModelIndex& index, int role) const
{
    const NameTree::Node n = node(index);
    if (n == NameTree::kNone || !m_model)
        return {};
    const int tensor = m_tree->tensor(n);
    switch (role) {
    case Qt::DisplayRole:
        return display(n, index.column());
    case Qt::ToolTipRole:
        return toolTip(n, index.column());
    case Qt::TextAlignmentRole:
        if (index.column() >= ParametersColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::FontRole:
        if (tensor < 0 && index.column() == ShapeColumn) {
            QFont f;
            f.setItalic(true);
            return f;
        }
        return {};
    case SortRole:
        return sortValue(n, index.column());
    case TensorIndexRole:
        return tensor;
    case PathRole:
        return m_tree->path(n);
    case DtypeRole:
        if (tensor >= 0)
            return static_cast<int>(m_model->tensors()[static_cast<std::size_t>(tensor)].info.dtype);
        if (const auto only = m_tree->onlyDtype(n))
            return static_cast<int>(*only);
        return -1;
    case TensorCountRole:
        return QVariant::fromValue<qulonglong>(m_tree->tensorCount(n));
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
