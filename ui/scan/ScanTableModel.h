#pragma once

#include "analysis/TensorStats.h"
#include "base/Diagnostic.h"

#include <QAbstractTableModel>

#include <vector>

namespace ts::ui {

// One row per scanned tensor: its statistics and how many findings it has.
class ScanTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns {
        TensorColumn,
        DtypeColumn,
        NanColumn,
        InfColumn,
        ZerosColumn,
        MinColumn,
        MaxColumn,
        MeanColumn,
        StdColumn,
        ZeroShareColumn,
        P1Column, // p1, p5, p25, p50, p75, p95, p99 follow in order (Quantiles::kLevels)
        P5Column,
        P25Column,
        MedianColumn,
        P75Column,
        P95Column,
        P99Column,
        FindingsColumn,
        NUM_COLUMNS
    };
    enum Roles { SortRole = Qt::UserRole, TensorNameRole };

    explicit ScanTableModel(QObject* parent = nullptr);

    void setResult(std::vector<TensorStats> tensors, const std::vector<Diagnostic>& findings);
    void clear();
    const TensorStats& stats(int row) const { return m_rows[static_cast<std::size_t>(row)].stats; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        TensorStats stats;
        QStringList findings; // codes
        Severity worst = Severity::Info;
    };
    std::vector<Row> m_rows;
};

} // namespace ts::ui
