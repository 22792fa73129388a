#include "compare/MetadataDiffModel.h"

#include "common/DisplayText.h"

namespace ts::ui {

using diff::MetadataChange;

MetadataDiffModel::MetadataDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

void MetadataDiffModel::setChanges(std::vector<MetadataChange> changes)
{
    beginResetModel();
    m_changes = std::move(changes);
    endResetModel();
}

int MetadataDiffModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_changes.size());
}

int MetadataDiffModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant MetadataDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KeyColumn:
        return tr("Key");
    case ChangeColumn:
        return tr("Change");
    case AColumn:
        return tr("A");
    case BColumn:
        return tr("B");
    default:
        return {};
    }
}

QVariant MetadataDiffModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const MetadataChange& c = m_changes[static_cast<std::size_t>(index.row())];
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const auto shown = [role](const QString& text) {
        return role == Qt::ToolTipRole ? toolTipText(text) : itemText(text);
    };
    switch (index.column()) {
    case KeyColumn:
        return shown(c.key);
    case ChangeColumn:
        switch (c.kind) {
        case MetadataChange::Kind::Added:
            return tr("added");
        case MetadataChange::Kind::Removed:
            return tr("removed");
        case MetadataChange::Kind::Changed:
            return tr("changed");
        }
        return {};
    case AColumn:
        return c.kind == MetadataChange::Kind::Added ? QVariant() : shown(c.before);
    case BColumn:
        return c.kind == MetadataChange::Kind::Removed ? QVariant() : shown(c.after);
    default:
        return {};
    }
}

} // namespace ts::ui
