#pragma once

#include "common/NaturalSortProxy.h"

namespace ts::ui {

// The change table's rows a reviewer wants: identical pairs hidden unless asked for, and a name
// filter (a substring of A's or B's name, case-insensitive). Sorts like the tensor tree.
class CompareFilterProxy final : public NaturalSortProxy {
    Q_OBJECT
public:
    explicit CompareFilterProxy(QObject* parent = nullptr);

    void setShowIdentical(bool show);
    bool showsIdentical() const { return m_showIdentical; }
    void setNameFilter(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    bool m_showIdentical = false;
    QString m_name;
};

} // namespace ts::ui
