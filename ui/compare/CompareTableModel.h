#pragma once

#include "diff/DiffReport.h"

#include <QAbstractTableModel>

#include <memory>

namespace ts::ui {

// The comparison as a table: one row per pair, then the tensors only A has (removed) and only B
// has (added). Numbers are shown rounded and sort by SortRole as numbers, so 1e-3 sorts after
// 9e-4; a pair that was not compared sorts below every compared one.
class CompareTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        TensorColumn,
        KindColumn,
        RelativeL2Column,
        MaxAbsColumn,
        AtColumn,
        CosineColumn,
        ChangedColumn,
        DtypeColumn,
        ShapeColumn,
        PairedByColumn,
        NUM_COLUMNS
    };
    enum Role { SortRole = Qt::UserRole + 1, PairRole, StatusRole, TensorNameRole };

    explicit CompareTableModel(QObject* parent = nullptr);

    void setReport(std::shared_ptr<const diff::DiffReport> report);
    void clear();
    // A pair's row changed (a rank estimate arrived).
    void pairChanged(int pair);
    int rowOfPair(int pair) const;
    const diff::DiffReport* report() const { return m_report.get(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant pairData(const diff::TensorPair& p, int column, int role) const;
    QVariant onlyData(const TensorInfo& t, bool added, int column, int role) const;

    std::shared_ptr<const diff::DiffReport> m_report;
};

// "rounding to BF16", "rank 4", "sparse (1 value)": the verdict in a few words.
QString kindLabel(const diff::TensorPair& pair);

} // namespace ts::ui
