#include "conversion/ConvertPreviewModel.h"

#include "base/Format.h"
#include "common/DisplayText.h"

#include <QBrush>
#include <QColor>

namespace ts::ui {

ConvertPreviewModel::ConvertPreviewModel(QObject* parent) : QAbstractTableModel(parent) {}

void ConvertPreviewModel::setPlan(const ConvertPlan& plan)
{
    beginResetModel();
    m_plan = plan;
    endResetModel();
}

void ConvertPreviewModel::clear()
{
    beginResetModel();
    m_plan = {};
    endResetModel();
}

int ConvertPreviewModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_plan.tensors.size());
}

int ConvertPreviewModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ConvertPreviewModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PlannedTensor& t = m_plan.tensors[static_cast<std::size_t>(index.row())];
    // Counts of a tensor the report pass did not touch (it keeps its dtype) are not zero but
    // "not measured": shown as a dash, raw value invalid.
    const auto count = [&](std::uint64_t n) -> QVariant {
        if (!t.measured)
            return role == RawRole ? QVariant() : QVariant(QStringLiteral("-"));
        return role == RawRole ? QVariant::fromValue<quint64>(n) : QVariant(formatGrouped(n));
    };
    switch (role) {
    case Qt::DisplayRole:
    case RawRole:
        switch (index.column()) {
        case NameColumn:
            return role == RawRole ? QVariant(t.name) : QVariant(itemText(t.name));
        case FromColumn:
            return dtypeName(t.from);
        case ToColumn:
            return dtypeName(t.to);
        case BytesBeforeColumn:
            return role == RawRole ? QVariant::fromValue<quint64>(t.bytesBefore())
                                   : QVariant(formatBytes(t.bytesBefore()));
        case BytesAfterColumn:
            return role == RawRole ? QVariant::fromValue<quint64>(t.bytesAfter())
                                   : QVariant(formatBytes(t.bytesAfter()));
        case OverflowColumn:
            return count(t.counts.overflowed);
        case UnderflowColumn:
            return count(t.counts.underflowed);
        case NanColumn:
            return count(t.counts.nan);
        case InfColumn:
            return count(t.counts.inf);
        case NoteColumn:
            if (t.name != t.sourceName)
                return itemText(t.note.isEmpty() ? tr("from \"%1\"").arg(itemText(t.sourceName))
                                                 : tr("from \"%1\"; %2").arg(itemText(t.sourceName), t.note));
            return itemText(t.note);
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        if (index.column() >= BytesBeforeColumn && index.column() <= InfColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case ProblemRole:
        return t.hasProblem();
    case Qt::ForegroundRole:
        // Overflowed values become Inf (or saturate), and NaN or Inf in the source reach the new
        // file as they are: what a user must not miss.
        if (t.measured && ((index.column() == OverflowColumn && t.counts.overflowed > 0) ||
                           (index.column() == NanColumn && t.counts.nan > 0) ||
                           (index.column() == InfColumn && t.counts.inf > 0)))
            return QBrush(QColor(0xc0, 0x20, 0x20));
        return {};
    case Qt::ToolTipRole:
        // The view elides long names in the middle, where layer numbers are; the tooltip has it whole.
        if (index.column() == NameColumn)
            return t.name != t.sourceName
                       ? tr("%1\nRenamed from %2").arg(toolTipText(t.name), toolTipText(t.sourceName))
                       : toolTipText(t.name);
        return {};
    default:
        return {};
    }
}

QVariant ConvertPreviewModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        switch (section) {
        case NanColumn:
            return tr("NaN values in the source tensor; they stay NaN.");
        case InfColumn:
            return tr("\u00b1Inf values in the source tensor; they stay Inf (F8_E4M3 saturates them).");
        default:
            return {};
        }
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn:
        return tr("Tensor");
    case FromColumn:
        return tr("Dtype");
    case ToColumn:
        return tr("New dtype");
    case BytesBeforeColumn:
        return tr("Bytes");
    case BytesAfterColumn:
        return tr("New bytes");
    case OverflowColumn:
        return tr("Overflow");
    case UnderflowColumn:
        return tr("Underflow");
    case NanColumn:
        return tr("NaN");
    case InfColumn:
        return tr("Inf");
    case NoteColumn:
        return tr("Note");
    default:
        return {};
    }
}

} // namespace ts::ui
