#include "common/NaturalSortProxy.h"

#include "base/NaturalOrder.h"

namespace ts::ui {

NaturalSortProxy::NaturalSortProxy(QObject* parent) : QSortFilterProxyModel(parent) {}

bool NaturalSortProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const QVariant a = left.data(sortRole());
    const QVariant b = right.data(sortRole());
    if (a.typeId() == QMetaType::QString && b.typeId() == QMetaType::QString)
        return naturalLess(a.toString(), b.toString());
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace ts::ui
