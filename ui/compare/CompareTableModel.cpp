#include "compare/CompareTableModel.h"

#include "base/Format.h"
#include "common/CountText.h"
#include "common/DisplayText.h"
#include "diff/FlatIndex.h"

#include <QColor>
#include <QGuiApplication>
#include <QPalette>

#include <cmath>

namespace ts::ui {
namespace {

using namespace ts::diff;

QString number(double v)
{
    return std::isnan(v) ? QStringLiteral("\u2013") : QString::number(v, 'g', 3);
}

QString cosineText(double c)
{
    if (std::isnan(c))
        return QStringLiteral("\u2013");
    // Near 1 the digits that matter are the nines.
    const int digits =
        std::clamp(static_cast<int>(std::ceil(-std::log10(1 - std::fabs(c) + 1e-300))) + 2, 3, 12);
    return QString::number(c, 'f', digits);
}

QString both(const QString& a, const QString& b)
{
    return a == b ? a : a + QStringLiteral(" \u2192 ") + b;
}

} // namespace

QString kindLabel(const TensorPair& p)
{
    const ChangeVerdict& v = p.verdict;
    switch (v.kind) {
    case ChangeKind::Identical:
        return QObject::tr("identical");
    case ChangeKind::SameValues:
        return QObject::tr("same values");
    case ChangeKind::Rounding: {
        const QString precision = precisionText(v.roundingBits);
        return QObject::tr("rounding to %1").arg(precision.left(precision.indexOf(QLatin1Char(' '))));
    }
    case ChangeKind::Scaled:
        return QObject::tr("scaled \u00d7%1").arg(QString::number(v.scale, 'g', 5));
    case ChangeKind::Sparse:
        return QObject::tr("sparse (%1)").arg(CountText::values(p.metrics->changed));
    case ChangeKind::LowRank:
        return QObject::tr("rank %1").arg(p.rank->rank);
    case ChangeKind::NoiseLike:
        return QObject::tr("noise-like");
    case ChangeKind::FullRank:
        return QObject::tr("full rank");
    case ChangeKind::Dense:
        return QObject::tr("dense");
    case ChangeKind::NotCompared:
        return QObject::tr("not compared");
    }
    return {};
}

CompareTableModel::CompareTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareTableModel::setReport(std::shared_ptr<const DiffReport> report)
{
    beginResetModel();
    m_report = std::move(report);
    endResetModel();
}

void CompareTableModel::clear()
{
    setReport(nullptr);
}

int CompareTableModel::rowOfPair(int pair) const
{
    return m_report && pair >= 0 && pair < static_cast<int>(m_report->pairs.size()) ? pair : -1;
}

void CompareTableModel::pairChanged(int pair)
{
    const int row = rowOfPair(pair);
    if (row >= 0)
        emit dataChanged(index(row, 0), index(row, NUM_COLUMNS - 1));
}

int CompareTableModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_report)
        return 0;
    return static_cast<int>(m_report->pairs.size() + m_report->removed.size() + m_report->added.size());
}

int CompareTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant CompareTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TensorColumn:
        return tr("Tensor");
    case KindColumn:
        return tr("Change");
    case RelativeL2Column:
        return tr("Rel. L2");
    case MaxAbsColumn:
        return tr("Max |B\u2212"
                  "A|");
    case AtColumn:
        return tr("At");
    case CosineColumn:
        return tr("Cosine");
    case ChangedColumn:
        return tr("Changed");
    case DtypeColumn:
        return tr("Dtype");
    case ShapeColumn:
        return tr("Shape");
    case PairedByColumn:
        return tr("Paired by");
    default:
        return {};
    }
}

QVariant CompareTableModel::data(const QModelIndex& index, int role) const
{
    if (!m_report || !index.isValid() || index.row() >= rowCount())
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    const std::size_t pairs = m_report->pairs.size();
    if (row < pairs)
        return pairData(m_report->pairs[row], index.column(), role);
    if (role == PairRole)
        return -1;
    if (row < pairs + m_report->removed.size()) {
        const int t = m_report->removed[row - pairs];
        return onlyData(m_report->a->tensors()[static_cast<std::size_t>(t)].info, false, index.column(),
                        role);
    }
    const int t = m_report->added[row - pairs - m_report->removed.size()];
    return onlyData(m_report->b->tensors()[static_cast<std::size_t>(t)].info, true, index.column(), role);
}

QVariant CompareTableModel::pairData(const TensorPair& p, int column, int role) const
{
    const TensorInfo& a = m_report->infoA(p);
    const TensorInfo& b = m_report->infoB(p);
    const ChangeMetrics* m = p.metrics ? &*p.metrics : nullptr;
    if (role == PairRole)
        return static_cast<int>(&p - m_report->pairs.data());
    if (role == StatusRole)
        return pairStatusName(p.status);
    if (role == TensorNameRole)
        return a.name;
    if (role == Qt::ToolTipRole) {
        if (column == TensorColumn)
            return toolTipText(both(a.name, b.name));
        return toolTipText(p.note.isEmpty() ? p.verdict.text : p.note);
    }
    if (role == Qt::ForegroundRole && p.status == PairStatus::Identical)
        return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
    if (role == Qt::TextAlignmentRole && column >= RelativeL2Column && column <= ChangedColumn)
        return QVariant(static_cast<int>(Qt::AlignRight | Qt::AlignVCenter));
    if (role == SortRole) {
        // Not compared and identical pairs below every measured one when sorting by a number.
        const double none = -1;
        switch (column) {
        case TensorColumn:
            return a.name;
        case KindColumn:
            return static_cast<int>(p.verdict.kind);
        case RelativeL2Column:
            return m ? m->relativeL2() : p.status == PairStatus::Identical ? 0 : none;
        case MaxAbsColumn:
            return m ? m->maxAbsDiff : p.status == PairStatus::Identical ? 0 : none;
        case AtColumn:
            return m && m->maxAbsIndex ? static_cast<qulonglong>(*m->maxAbsIndex) : 0;
        case CosineColumn:
            return m && !std::isnan(m->cosine()) ? m->cosine() : 2.0;
        case ChangedColumn:
            return m ? m->fractionChanged() : p.status == PairStatus::Identical ? 0 : none;
        case DtypeColumn:
            return both(dtypeName(a.dtype), dtypeName(b.dtype));
        case ShapeColumn:
            return static_cast<qulonglong>(a.elementCount());
        case PairedByColumn:
            return static_cast<int>(p.by);
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case TensorColumn:
        return itemText(both(a.name, b.name));
    case KindColumn:
        return kindLabel(p);
    case RelativeL2Column:
        return m ? number(m->relativeL2()) : QString();
    case MaxAbsColumn:
        return m ? number(m->maxAbsDiff) : QString();
    case AtColumn:
        return m && m->maxAbsIndex ? indexText(a.shape, *m->maxAbsIndex) : QString();
    case CosineColumn:
        return m ? cosineText(m->cosine()) : QString();
    case ChangedColumn:
        return m ? QStringLiteral("%1%").arg(QString::number(100 * m->fractionChanged(), 'g', 3)) : QString();
    case DtypeColumn:
        return both(dtypeName(a.dtype), dtypeName(b.dtype));
    case ShapeColumn:
        return itemText(both(a.shapeString(), b.shapeString()));
    case PairedByColumn:
        switch (p.by) {
        case PairedBy::Name:
            return tr("name");
        case PairedBy::Rule:
            return tr("rename rule");
        case PairedBy::Content:
            return tr("same content (suggested)");
        case PairedBy::Shape:
            return tr("same shape (suggested)");
        }
        return {};
    default:
        return {};
    }
}

QVariant CompareTableModel::onlyData(const TensorInfo& t, bool added, int column, int role) const
{
    if (role == StatusRole)
        return added ? QStringLiteral("added") : QStringLiteral("removed");
    if (role == TensorNameRole)
        return t.name;
    if (role == SortRole) {
        switch (column) {
        case TensorColumn:
            return t.name;
        case KindColumn:
            return added ? 100 : 101;
        case ShapeColumn:
            return static_cast<qulonglong>(t.elementCount());
        case DtypeColumn:
            return dtypeName(t.dtype);
        default:
            return -2.0;
        }
    }
    if (role == Qt::ToolTipRole)
        return toolTipText(t.name);
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case TensorColumn:
        return itemText(t.name);
    case KindColumn:
        return added ? tr("added (only in B)") : tr("removed (only in A)");
    case DtypeColumn:
        return dtypeName(t.dtype);
    case ShapeColumn:
        return itemText(t.shapeString());
    default:
        return {};
    }
}

} // namespace ts::ui
