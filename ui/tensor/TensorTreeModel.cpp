#include "tensor/TensorTreeModel.h"

#include "base/Format.h"
#include "common/DisplayText.h"

#include <QFont>

#include <algorithm>
#include <bit>
#include <functional>

namespace ts::ui {

TensorTreeModel::TensorTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void TensorTreeModel::setModel(std::shared_ptr<const Checkpoint> model, std::shared_ptr<const NameTree> tree)
{
    beginResetModel();
    m_model = std::move(model);
    m_tree = std::move(tree);
    makeBuckets();
    endResetModel();
}

void TensorTreeModel::clear()
{
    setModel(nullptr, nullptr);
}

void TensorTreeModel::makeBuckets()
{
    m_buckets.clear();
    m_bucketed.clear();
    if (!m_tree)
        return;
    for (NameTree::Node n = 0; n < m_tree->nodeCount(); ++n) {
        const int children = m_tree->childCount(n);
        if (children <= kBucketThreshold)
            continue;
        const Bucketed group{n, static_cast<int>(m_buckets.size()),
                             (children + kBucketSize - 1) / kBucketSize};
        for (int k = 0; k < group.count; ++k) {
            Bucket b;
            b.parent = n;
            b.firstRow = k * kBucketSize;
            b.count = std::min(kBucketSize, children - b.firstRow);
            for (int r = 0; r < b.count; ++r) {
                const NameTree::Node c = m_tree->child(n, b.firstRow + r);
                b.tensors += m_tree->tensorCount(c);
                b.parameters += m_tree->parameters(c);
                b.bytes += m_tree->bytes(c);
                b.dtypes |= m_tree->dtypeMask(c);
            }
            m_buckets.push_back(b);
        }
        m_bucketed.push_back(group);
    }
}

const TensorTreeModel::Bucket* TensorTreeModel::bucket(const QModelIndex& index) const
{
    if (!index.isValid() || m_buckets.empty())
        return nullptr;
    // A range row's pointer is into m_buckets, a node's into the tree: std::less orders any two.
    const auto* p = static_cast<const Bucket*>(index.internalPointer());
    const std::less<const Bucket*> before;
    if (before(p, m_buckets.data()) || !before(p, m_buckets.data() + m_buckets.size()))
        return nullptr;
    return p;
}

const TensorTreeModel::Bucketed* TensorTreeModel::bucketsOf(NameTree::Node parent) const
{
    const auto it = std::lower_bound(m_bucketed.begin(), m_bucketed.end(), parent,
                                     [](const Bucketed& b, NameTree::Node n) { return b.parent < n; });
    return it != m_bucketed.end() && it->parent == parent ? &*it : nullptr;
}

int TensorTreeModel::rowsOf(NameTree::Node parent) const
{
    if (const Bucketed* b = bucketsOf(parent))
        return b->count;
    return m_tree->childCount(parent);
}

std::optional<TensorTreeModel::NodeRange> TensorTreeModel::rangeOf(const QModelIndex& index) const
{
    const Bucket* b = bucket(index);
    if (!b)
        return std::nullopt;
    return NodeRange{m_tree->child(b->parent, b->firstRow), b->count};
}

int TensorTreeModel::viewDepth(NameTree::Node node) const
{
    int depth = 0;
    for (NameTree::Node n = node; n != NameTree::kNone && n != NameTree::kRoot; n = m_tree->parent(n))
        depth += bucketsOf(m_tree->parent(n)) ? 2 : 1;
    return depth;
}

NameTree::Node TensorTreeModel::node(const QModelIndex& index) const
{
    if (!index.isValid() || !m_tree || bucket(index))
        return NameTree::kNone;
    return m_tree->nodeOfHandle(index.internalPointer());
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
    return indexForNode(m_tree->nodeForTensor(tensor));
}

QModelIndex TensorTreeModel::indexForNode(NameTree::Node n, int column) const
{
    if (!m_tree || n == NameTree::kNone || n == NameTree::kRoot)
        return {};
    const int row = m_tree->row(n);
    if (bucketsOf(m_tree->parent(n)))
        return createIndex(row % kBucketSize, column, m_tree->handle(n)); // its row in its range
    return createIndex(row, column, m_tree->handle(n));
}

QModelIndex TensorTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!m_tree || row < 0 || column < 0 || column >= NUM_COLUMNS)
        return {};
    if (const Bucket* b = bucket(parent)) {
        if (row >= b->count)
            return {};
        return createIndex(row, column, m_tree->handle(m_tree->child(b->parent, b->firstRow + row)));
    }
    const NameTree::Node p = nodeOrRoot(parent);
    if (p == NameTree::kNone || row >= rowsOf(p))
        return {};
    if (const Bucketed* group = bucketsOf(p))
        return createIndex(row, column,
                           const_cast<Bucket*>(&m_buckets[static_cast<std::size_t>(group->first + row)]));
    return createIndex(row, column, m_tree->handle(m_tree->child(p, row)));
}

QModelIndex TensorTreeModel::parent(const QModelIndex& child) const
{
    if (const Bucket* b = bucket(child))
        return indexForNode(b->parent);
    const NameTree::Node n = node(child);
    if (n == NameTree::kNone || n == NameTree::kRoot)
        return {};
    const NameTree::Node p = m_tree->parent(n);
    if (const Bucketed* group = bucketsOf(p)) {
        const int k = m_tree->row(n) / kBucketSize;
        return createIndex(k, 0, const_cast<Bucket*>(&m_buckets[static_cast<std::size_t>(group->first + k)]));
    }
    return indexForNode(p);
}

int TensorTreeModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    if (const Bucket* b = bucket(parent))
        return b->count;
    const NameTree::Node p = nodeOrRoot(parent);
    return p == NameTree::kNone ? 0 : rowsOf(p);
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

QVariant TensorTreeModel::bucketData(const Bucket& b, int column, int role) const
{
    const auto segment = [&](int row) {
        return m_tree->segment(m_tree->child(b.parent, b.firstRow + row)).toString();
    };
    const int only = std::popcount(b.dtypes) == 1 ? std::countr_zero(b.dtypes) : -1; // or mixed
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn:
            return QString(itemText(segment(0)) + QStringLiteral(" \u2026 ") +
                           itemText(segment(b.count - 1)));
        case DtypeColumn:
            return only >= 0 ? dtypeName(static_cast<Dtype>(only)) : tr("mixed");
        case ShapeColumn:
            return tr("%1 tensors").arg(formatGrouped(b.tensors));
        case ParametersColumn:
            return formatCount(b.parameters);
        case BytesColumn:
            return formatBytes(b.bytes);
        }
        return {};
    case Qt::ToolTipRole:
        return tr("Entries %1 to %2 of the %3 in %4: a group this large is shown %5 at a time")
            .arg(formatGrouped(static_cast<std::uint64_t>(b.firstRow) + 1),
                 formatGrouped(static_cast<std::uint64_t>(b.firstRow + b.count)),
                 formatGrouped(static_cast<std::uint64_t>(m_tree->childCount(b.parent))),
                 b.parent == NameTree::kRoot ? tr("the model") : toolTipText(m_tree->path(b.parent)),
                 formatGrouped(static_cast<std::uint64_t>(kBucketSize)));
    case Qt::TextAlignmentRole:
        if (column >= ParametersColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::FontRole:
        if (column == NameColumn || column == ShapeColumn) {
            QFont f;
            f.setItalic(true);
            return f;
        }
        return {};
    case SortRole:
        switch (column) {
        case NameColumn:
            return b.firstRow; // the ranges keep the tree's order
        case DtypeColumn:
            return bucketData(b, column, Qt::DisplayRole);
        case ShapeColumn:
        case ParametersColumn:
            return QVariant::fromValue<qulonglong>(b.parameters);
        case BytesColumn:
            return QVariant::fromValue<qulonglong>(b.bytes);
        case OffsetColumn:
            return QVariant::fromValue<qulonglong>(0);
        }
        return {};
    case TensorIndexRole:
        return -1;
    case PathRole:
        return b.parent == NameTree::kRoot ? QString() : m_tree->path(b.parent);
    case DtypeRole:
        return only;
    case TensorCountRole:
        return QVariant::fromValue<qulonglong>(b.tensors);
    }
    return {};
}

QVariant TensorTreeModel::data(const QModelIndex& index, int role) const
{
    if (const Bucket* b = bucket(index))
        return m_model ? bucketData(*b, index.column(), role) : QVariant();
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
