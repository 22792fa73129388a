#pragma once

// ConvertPlan.h uses QStringList without including it.
#include <QStringList>

#include "convert/ConvertPlan.h"

#include <QAbstractTableModel>

namespace ts::ui {

// The Convert dialog's preview: one row per tensor of the planned output, with what the report
// pass found, so a user sees overflows before anything is written.
class ConvertPreviewModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        FromColumn,
        ToColumn,
        BytesBeforeColumn,
        BytesAfterColumn,
        OverflowColumn,
        UnderflowColumn,
        NanColumn, // in the source tensor (a NaN stays NaN)
        InfColumn, // in the source tensor
        NoteColumn,
        ColumnCount
    };
    // The unformatted value of a cell (byte and value counts as quint64), for sorting and tests.
    static constexpr int RawRole = Qt::UserRole + 1;
    // Whether the row's tensor needs a look before writing (PlannedTensor::hasProblem), any column.
    static constexpr int ProblemRole = Qt::UserRole + 2;

    explicit ConvertPreviewModel(QObject* parent = nullptr);

    void setPlan(const ConvertPlan& plan);
    void clear();
    const ConvertPlan& plan() const { return m_plan; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ConvertPlan m_plan;
};

} // namespace ts::ui
