#pragma once

#include "analysis/ModelScanner.h"
#include "analysis/TensorStats.h"
#include "base/Diagnostic.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QStringList>

#include <memory>

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

    // One row per tensor of the scan, sharing its statistics with the scan page: a copy for the
    // table was 36 MB more at the peak of opening a 100,000-tensor model (one TensorStats each).
    void setResult(std::shared_ptr<const ScanResult> result);
    void clear();
    const TensorStats& stats(int row) const { return m_result->tensors[static_cast<std::size_t>(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct RowFindings {
        QStringList codes;
        Severity worst = Severity::Info;
    };
    std::shared_ptr<const ScanResult> m_result;
    QHash<int, RowFindings> m_findings; // of the rows that have any (most have none)
};

} // namespace ts::ui
