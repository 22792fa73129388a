#pragma once

#include "base/Diagnostic.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

namespace ts::ui {

// The audit list: the core's header warnings, and whatever later sources (a data scan) add with
// addDiagnostics(). Each row can name the tensor it concerns.
class AuditModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns {
        SeverityColumn,
        CodeColumn,
        TensorColumn,
        MessageColumn,
        OffsetColumn,
        SourceColumn,
        NUM_COLUMNS
    };
    enum Roles { SortRole = Qt::UserRole, TensorRole, SeverityRole, CodeRole };

    explicit AuditModel(QObject* parent = nullptr);

    // Replaces everything with the header's warnings.
    void setDiagnostics(std::vector<Diagnostic> diagnostics);
    // Appends findings of another source ("scan"); replaces that source's earlier findings.
    // `replacing`, when not empty, limits what is dropped to the source's rows with those codes
    // (a NaN/Inf check replaces the scan's NaN/Inf rows and keeps its other findings).
    void addDiagnostics(const QString& source, std::vector<Diagnostic> diagnostics,
                        const QStringList& replacing = {});
    const Diagnostic& diagnostic(int row) const { return m_rows[static_cast<std::size_t>(row)].diagnostic; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        Diagnostic diagnostic;
        QString source;
    };
    std::vector<Row> m_rows;
};

} // namespace ts::ui
