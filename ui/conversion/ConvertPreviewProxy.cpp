#include "conversion/ConvertPreviewProxy.h"

#include "conversion/ConvertPreviewModel.h"

namespace ts::ui {

ConvertPreviewProxy::ConvertPreviewProxy(QObject* parent) : NaturalSortProxy(parent)
{
    setSortRole(ConvertPreviewModel::RawRole);
}

void ConvertPreviewProxy::setProblemsOnly(bool only)
{
    if (only == m_problemsOnly)
        return;
    m_problemsOnly = only;
    invalidateFilter();
}

bool ConvertPreviewProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (!m_problemsOnly)
        return true;
    return sourceModel()
        ->index(sourceRow, ConvertPreviewModel::NameColumn, sourceParent)
        .data(ConvertPreviewModel::ProblemRole)
        .toBool();
}

} // namespace ts::ui
