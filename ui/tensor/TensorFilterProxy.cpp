#include "tensor/TensorFilterProxy.h"

#include "tensor/TensorTreeModel.h"

namespace ts::ui {

TensorFilterProxy::TensorFilterProxy(QObject* parent) : QSortFilterProxyModel(parent)
{
    // The pass marked every group above a match already: no recursive walk of the subtrees here.
    setRecursiveFilteringEnabled(false);
    setSortRole(TensorTreeModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    // Connected first, so it runs before any view or tester hears of the new layout.
    connect(this, &QAbstractItemModel::layoutChanged, this, [this] { m_laidOut = m_result; });
    connect(this, &QAbstractItemModel::modelReset, this, [this] { m_laidOut = m_result; });
}

void TensorFilterProxy::setResult(std::shared_ptr<const TreeFilterResult> result)
{
    m_result = std::move(result);
    // One layout change, not invalidateFilter()'s rows-removed and rows-inserted per run of
    // hidden rows: 11,000 matches among the 90,000 children of one group are 11,000 runs, and the
    // view handled each signal by walking its rows (300 ms at 900,000 names).
    invalidate();
}

bool TensorFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (!m_result)
        return true;
    const auto* tree = static_cast<const TensorTreeModel*>(sourceModel());
    if (m_result->tree != tree->tree())
        return true; // a pass over the previous model: never index its array with this one's nodes
    const QModelIndex source = tree->index(sourceRow, 0, sourceParent);
    if (const auto range = tree->rangeOf(source)) {
        // A range row of a huge group: shown while any of its entries is.
        for (int i = 0; i < range->count; ++i) {
            if (m_result->shows(range->first + static_cast<NameTree::Node>(i)))
                return true;
        }
        return false;
    }
    return m_result->shows(tree->node(source));
}

bool TensorFilterProxy::hasChildren(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return QSortFilterProxyModel::hasChildren(parent);
    if (parent.column() != 0)
        return false;
    const auto* tree = static_cast<const TensorTreeModel*>(sourceModel());
    const QModelIndex source = mapToSource(parent);
    if (!m_laidOut || m_laidOut->tree != tree->tree())
        return tree->hasChildren(source);
    if (tree->rangeOf(source))
        return true; // shown only because an entry of it is
    return m_laidOut->showsChildrenOf(tree->node(source));
}

void TensorFilterProxy::sort(int column, Qt::SortOrder order)
{
    QSortFilterProxyModel::sort(
        column == TensorTreeModel::NameColumn && order == Qt::AscendingOrder ? -1 : column, order);
}

} // namespace ts::ui
