#include "summary/ModuleShareModel.h"

#include "base/Format.h"
#include "common/DisplayText.h"

namespace ts::ui {

ModuleShareModel::ModuleShareModel(QObject* parent) : QAbstractTableModel(parent) {}

void ModuleShareModel::setModules(std::vector<ModuleShare> modules)
{
    beginResetModel();
    m_modules = std::move(modules);
    endResetModel();
}

int ModuleShareModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_modules.size());
}

int ModuleShareModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant ModuleShareModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ModuleShare& m = m_modules[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return itemText(m.name);
        case ShareColumn:
            return QStringLiteral("%1 %").arg(m.share * 100.0, 0, 'f', 1);
        case ParametersColumn:
            return formatCount(m.parameters);
        case TensorsColumn:
            return formatGrouped(m.tensors);
        case BytesColumn:
            return formatBytes(m.bytes);
        }
        return {};
    case Qt::ToolTipRole:
        return tr("%1: %2 parameters in %3 tensors")
            .arg(itemText(m.name), formatGrouped(m.parameters), formatGrouped(m.tensors));
    case Qt::TextAlignmentRole:
        return index.column() == NameColumn ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case SortRole:
        switch (index.column()) {
        case NameColumn:
            return m.name;
        case ShareColumn:
            return m.share;
        case ParametersColumn:
            return QVariant::fromValue<qulonglong>(m.parameters);
        case TensorsColumn:
            return QVariant::fromValue<qulonglong>(m.tensors);
        case BytesColumn:
            return QVariant::fromValue<qulonglong>(m.bytes);
        }
        return {};
    case ShareRole:
        return m.share;
    }
    return {};
}

QVariant ModuleShareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Module");
    case ShareColumn:
        return tr("Share");
    case ParametersColumn:
        return tr("Parameters");
    case TensorsColumn:
        return tr("Tensors");
    case BytesColumn:
        return tr("Bytes");
    }
    return {};
}

} // namespace ts::ui
