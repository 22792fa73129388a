#include "scan/ScanTableModel.h"

#include "common/DisplayText.h"

#include <QBrush>
#include <QColor>
#include <QHash>

#include <cmath>

namespace ts::ui {
namespace {

QString number(double v)
{
    return std::isnan(v) ? QStringLiteral("\u2014") : QString::number(v, 'g', 5);
}

} // namespace

ScanTableModel::ScanTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ScanTableModel::setResult(std::vector<TensorStats> tensors, const std::vector<Diagnostic>& findings)
{
    beginResetModel();
    m_rows.clear();
    QHash<QString, std::size_t> rowOf;
    for (TensorStats& s : tensors) {
        rowOf.insert(s.name, m_rows.size());
        m_rows.push_back({std::move(s), {}, Severity::Info});
    }
    for (const Diagnostic& d : findings) {
        const auto it = rowOf.constFind(d.tensor);
        if (it == rowOf.cend())
            continue;
        Row& row = m_rows[*it];
        row.findings << d.code;
        if (row.findings.size() == 1 || static_cast<int>(d.severity) > static_cast<int>(row.worst))
            row.worst = d.severity;
    }
    endResetModel();
}

void ScanTableModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

int ScanTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ScanTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant ScanTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const ValueStats& v = row.stats.values;
    const std::uint64_t inf = v.posinf + v.neginf;
    if (role == TensorNameRole)
        return row.stats.name;
    // The NaN/Inf check computed no statistics: those cells stay empty (and sort as equal).
    const bool computed = !row.stats.nanInfOnly || index.column() < ZerosColumn || index.column() > P99Column;
    if (!computed && (role == SortRole || role == Qt::DisplayRole))
        return {};
    const int quantile = index.column() - P1Column; // 0..6 in the quantile columns
    if (quantile >= 0 && quantile < static_cast<int>(Quantiles::kLevels.size()) &&
        (role == SortRole || role == Qt::DisplayRole)) {
        if (!v.quantiles)
            return {};
        const double q = v.quantiles->values[static_cast<std::size_t>(quantile)];
        return role == SortRole ? QVariant(q) : QVariant(number(q));
    }
    if (role == SortRole) {
        switch (index.column()) {
        case TensorColumn:
            return row.stats.name;
        case DtypeColumn:
            return static_cast<int>(row.stats.dtype);
        case NanColumn:
            return QVariant::fromValue<qulonglong>(v.nan);
        case InfColumn:
            return QVariant::fromValue<qulonglong>(inf);
        case ZerosColumn:
            return QVariant::fromValue<qulonglong>(v.zeros);
        case MinColumn:
            return v.min;
        case MaxColumn:
            return v.max;
        case MeanColumn:
            return v.mean;
        case StdColumn:
            return v.std;
        case ZeroShareColumn:
            return v.zeroShare();
        case FindingsColumn:
            // Errors before warnings before notes, then by how many.
            return row.findings.isEmpty()
                       ? 0
                       : (static_cast<int>(row.worst) + 1) * 1000 + static_cast<int>(row.findings.size());
        default:
            return {};
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case TensorColumn:
            return itemText(row.stats.name);
        case DtypeColumn:
            return dtypeName(row.stats.dtype);
        case NanColumn:
            return QString::number(v.nan);
        case InfColumn:
            return QString::number(inf);
        case ZerosColumn:
            return QString::number(v.zeros);
        case MinColumn:
            return number(v.min);
        case MaxColumn:
            return number(v.max);
        case MeanColumn:
            return number(v.mean);
        case StdColumn:
            return number(v.std);
        case ZeroShareColumn:
            return std::isnan(v.zeroShare())
                       ? number(v.zeroShare())
                       : QString::number(100 * v.zeroShare(), 'g', 3) + QLatin1Char('%');
        case FindingsColumn:
            return row.findings.join(QStringLiteral(", "));
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= NanColumn && index.column() <= P99Column)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole) {
        const bool bad =
            (index.column() == NanColumn && v.nan > 0) || (index.column() == InfColumn && inf > 0) ||
            (index.column() == FindingsColumn && row.worst == Severity::Error && !row.findings.isEmpty());
        if (bad)
            return QBrush(QColor(0xd0, 0x30, 0x30));
    }
    return {};
}

QVariant ScanTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TensorColumn:
        return tr("Tensor");
    case DtypeColumn:
        return tr("Dtype");
    case NanColumn:
        return tr("NaN");
    case InfColumn:
        return tr("Inf");
    case ZerosColumn:
        return tr("Zeros");
    case MinColumn:
        return tr("Min");
    case MaxColumn:
        return tr("Max");
    case MeanColumn:
        return tr("Mean");
    case StdColumn:
        return tr("Std");
    case ZeroShareColumn:
        return tr("Zeros %");
    case P1Column:
        return tr("p1");
    case P5Column:
        return tr("p5");
    case P25Column:
        return tr("p25");
    case MedianColumn:
        return tr("Median");
    case P75Column:
        return tr("p75");
    case P95Column:
        return tr("p95");
    case P99Column:
        return tr("p99");
    case FindingsColumn:
        return tr("Findings");
    default:
        return {};
    }
}

} // namespace ts::ui
