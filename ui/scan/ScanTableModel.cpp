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

void ScanTableModel::setResult(std::shared_ptr<const ScanResult> result)
{
    beginResetModel();
    m_result = std::move(result);
    m_findings.clear();
    if (m_result && !m_result->findings.empty()) {
        // The findings name a few tensors: a walk over the rows, not a table of every name.
        QHash<QString, std::vector<const Diagnostic*>> byTensor;
        for (const Diagnostic& d : m_result->findings)
            byTensor[d.tensor].push_back(&d);
        for (std::size_t r = 0; r < m_result->tensors.size(); ++r) {
            const auto it = byTensor.constFind(m_result->tensors[r].name);
            if (it == byTensor.cend())
                continue;
            RowFindings& row = m_findings[static_cast<int>(r)];
            for (const Diagnostic* d : *it) {
                row.codes << d->code;
                if (row.codes.size() == 1 || static_cast<int>(d->severity) > static_cast<int>(row.worst))
                    row.worst = d->severity;
            }
        }
    }
    endResetModel();
}

void ScanTableModel::clear()
{
    beginResetModel();
    m_result.reset();
    m_findings.clear();
    endResetModel();
}

int ScanTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_result ? 0 : static_cast<int>(m_result->tensors.size());
}

int ScanTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant ScanTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const TensorStats& stats = m_result->tensors[static_cast<std::size_t>(index.row())];
    static const RowFindings kNone;
    const auto found = m_findings.constFind(index.row());
    const RowFindings& row = found == m_findings.cend() ? kNone : *found;
    const ValueStats& v = stats.values;
    const std::uint64_t inf = v.posinf + v.neginf;
    if (role == TensorNameRole)
        return stats.name;
    // The NaN/Inf check computed no statistics: those cells stay empty (and sort as equal).
    const bool computed = !stats.nanInfOnly || index.column() < ZerosColumn || index.column() > P99Column;
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
            return stats.name;
        case DtypeColumn:
            return static_cast<int>(stats.dtype);
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
            return row.codes.isEmpty()
                       ? 0
                       : (static_cast<int>(row.worst) + 1) * 1000 + static_cast<int>(row.codes.size());
        default:
            return {};
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case TensorColumn:
            return itemText(stats.name);
        case DtypeColumn:
            return dtypeName(stats.dtype);
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
            return row.codes.join(QStringLiteral(", "));
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= NanColumn && index.column() <= P99Column)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole) {
        const bool bad =
            (index.column() == NanColumn && v.nan > 0) || (index.column() == InfColumn && inf > 0) ||
            (index.column() == FindingsColumn && row.worst == Severity::Error && !row.codes.isEmpty());
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
