#include "compare/CompareFilterProxy.h"

#include "compare/CompareTableModel.h"

namespace ts::ui {

CompareFilterProxy::CompareFilterProxy(QObject* parent) : NaturalSortProxy(parent)
{
    setSortRole(CompareTableModel::SortRole);
}

void CompareFilterProxy::setShowIdentical(bool show)
{
    if (show == m_showIdentical)
        return;
    m_showIdentical = show;
    invalidateFilter();
}

void CompareFilterProxy::setNameFilter(const QString& text)
{
    if (text == m_name)
        return;
    m_name = text;
    invalidateFilter();
}

bool CompareFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, CompareTableModel::TensorColumn, sourceParent);
    if (!m_showIdentical &&
        index.data(CompareTableModel::StatusRole).toString() == QLatin1String("identical"))
        return false;
    if (m_name.isEmpty())
        return true;
    // The shown text holds both names of a renamed pair.
    return index.data(Qt::DisplayRole).toString().contains(m_name, Qt::CaseInsensitive);
}

} // namespace ts::ui
