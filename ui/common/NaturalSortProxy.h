#pragma once

#include <QSortFilterProxyModel>

namespace ts::ui {

// A sort proxy whose text columns sort in the one natural order of names (core NaturalOrder.h:
// "lora.2" before "lora.10"), the order the tensor tree uses; numbers sort as numbers.
class NaturalSortProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit NaturalSortProxy(QObject* parent = nullptr);

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
};

} // namespace ts::ui
