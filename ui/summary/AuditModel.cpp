#include "summary/AuditModel.h"

#include "base/Format.h"
#include "common/DisplayText.h"

#include <QApplication>
#include <QStyle>

#include <algorithm>

namespace ts::ui {

AuditModel::AuditModel(QObject* parent) : QAbstractTableModel(parent) {}

void AuditModel::setDiagnostics(std::vector<Diagnostic> diagnostics)
{
    beginResetModel();
    m_rows.clear();
    for (Diagnostic& d : diagnostics)
        m_rows.push_back(Row{std::move(d), tr("header")});
    endResetModel();
}

void AuditModel::addDiagnostics(const QString& source, std::vector<Diagnostic> diagnostics,
                                const QStringList& replacing)
{
    // Remove the source's previous findings (of those codes, if given) one row at a time.
    for (int row = rowCount() - 1; row >= 0; --row) {
        const Row& r = m_rows[static_cast<std::size_t>(row)];
        if (r.source != source || (!replacing.isEmpty() && !replacing.contains(r.diagnostic.code)))
            continue;
        beginRemoveRows({}, row, row);
        m_rows.erase(m_rows.begin() + row);
        endRemoveRows();
    }
    if (diagnostics.empty())
        return;
    const int first = rowCount();
    beginInsertRows({}, first, first + static_cast<int>(diagnostics.size()) - 1);
    for (Diagnostic& d : diagnostics)
        m_rows.push_back(Row{std::move(d), source});
    endInsertRows();
}

int AuditModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int AuditModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant AuditModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const Diagnostic& d = row.diagnostic;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn:
            return severityName(d.severity);
        case CodeColumn:
            return d.code;
        case TensorColumn:
            return itemText(d.tensor);
        case MessageColumn:
            return itemText(d.message);
        case OffsetColumn:
            return d.offset ? formatGrouped(*d.offset) : QString();
        case SourceColumn:
            return row.source;
        }
        return {};
    case Qt::ToolTipRole:
        return d.tensor.isEmpty() ? toolTipText(d.message)
                                  : tr("%1\nDouble-click to show the tensor.").arg(toolTipText(d.message));
    case Qt::DecorationRole:
        if (index.column() == SeverityColumn) {
            const QStyle::StandardPixmap icon = d.severity == Severity::Error ? QStyle::SP_MessageBoxCritical
                                                : d.severity == Severity::Warning
                                                    ? QStyle::SP_MessageBoxWarning
                                                    : QStyle::SP_MessageBoxInformation;
            return QApplication::style()->standardIcon(icon);
        }
        return {};
    case SortRole:
        if (index.column() == SeverityColumn)
            return static_cast<int>(d.severity);
        if (index.column() == OffsetColumn)
            return QVariant::fromValue<qulonglong>(d.offset.value_or(0));
        if (index.column() == TensorColumn)
            return d.tensor;
        if (index.column() == MessageColumn)
            return d.message;
        return data(index, Qt::DisplayRole);
    case TensorRole:
        return d.tensor;
    case SeverityRole:
        return static_cast<int>(d.severity);
    case CodeRole:
        return d.code;
    }
    return {};
}

QVariant AuditModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case CodeColumn:
        return tr("Code");
    case TensorColumn:
        return tr("Tensor");
    case MessageColumn:
        return tr("Message");
    case OffsetColumn:
        return tr("Offset");
    case SourceColumn:
        return tr("Source");
    }
    return {};
}

} // namespace ts::ui
