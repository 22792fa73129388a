#include "metadata/MetadataModel.h"

#include "common/DisplayText.h"
#include "metadata/JsonPretty.h"
#include "metadata/MetadataCommands.h"
#include "metadata/MetadataKeys.h"

#include <QUndoStack>

namespace ts::ui {

MetadataModel::MetadataModel(QObject* parent) : QAbstractTableModel(parent) {}

void MetadataModel::setMetadata(const std::optional<Metadata>& metadata)
{
    beginResetModel();
    m_metadata = metadata;
    m_meanings.clear();
    m_isJson.clear();
    if (m_metadata) {
        for (const auto& [key, value] : m_metadata->entries())
            m_isJson.push_back(looksLikeJsonContainer(value));
    }
    endResetModel();
}

int MetadataModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_metadata ? 0 : m_metadata->size();
}

int MetadataModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant MetadataModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& [key, value] = m_metadata->entries()[static_cast<std::size_t>(index.row())];
    const bool json = m_isJson[static_cast<std::size_t>(index.row())];
    if (index.column() == MeaningColumn) {
        switch (role) {
        case Qt::DisplayRole:
        case SortRole:
            return itemText(meaning(index.row()));
        case Qt::ToolTipRole: {
            const QString text = meaning(index.row());
            return text.isEmpty() ? QVariant()
                                  : QVariant(QStringLiteral("<p style='white-space:pre-wrap'>%1</p>")
                                                 .arg(toolTipText(text).toHtmlEscaped()));
        }
        case KeyRole:
            return key;
        default:
            return {};
        }
    }
    switch (role) {
    case Qt::DisplayRole:
        return itemText(index.column() == KeyColumn ? key : value);
    case Qt::ToolTipRole:
        // Rich text so that long values wrap instead of running off the screen.
        return QStringLiteral("<p style='white-space:pre-wrap'>%1</p>")
            .arg(toolTipText(index.column() == KeyColumn ? key : value).toHtmlEscaped());
    case SortRole:
        return index.column() == KeyColumn ? key : value;
    case FullValueRole:
        return value;
    case KeyRole:
        return key;
    case IsJsonRole:
        return json;
    }
    return {};
}

QVariant MetadataModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == KeyColumn ? tr("Key") : section == ValueColumn ? tr("Value") : tr("Meaning");
}

QString MetadataModel::meaning(int row) const
{
    if (!m_metadata || row < 0 || row >= m_metadata->size())
        return {};
    if (auto it = m_meanings.constFind(row); it != m_meanings.constEnd())
        return *it;
    const auto& [key, value] = m_metadata->entries()[static_cast<std::size_t>(row)];
    QString text;
    // Decoding reads the value (a timestamp, a JSON tag count): not a hostile 90 MB one.
    if (const auto e = MetadataKeys::explain(key, value.size() <= 4 * 1024 * 1024 ? value : QString()))
        text = e->decoded.isEmpty() ? tr("%1 (%2)").arg(e->meaning, e->origin)
                                    : tr("%1 \u2014 %2 (%3)").arg(e->decoded, e->meaning, e->origin);
    m_meanings.insert(row, text);
    return text;
}

Qt::ItemFlags MetadataModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    // JSON values are edited in JsonEditDialog, which checks the text; a one-line editor would not.
    if (isEditable() && index.isValid() && index.column() != MeaningColumn &&
        !isTooLargeToEdit(index.row()) &&
        (index.column() == KeyColumn || !m_isJson[static_cast<std::size_t>(index.row())]))
        f |= Qt::ItemIsEditable;
    return f;
}

bool MetadataModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!isEditable() || role != Qt::EditRole ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    const auto& [key, old] = m_metadata->entries()[static_cast<std::size_t>(index.row())];
    const QString text = value.toString();
    if (index.column() == MeaningColumn)
        return false;
    if (index.column() == KeyColumn) {
        // An empty or duplicate key would not survive a save (the map has unique keys).
        if (text == key)
            return true;
        if (text.isEmpty() || m_metadata->contains(text))
            return false;
        m_undoStack->push(new RenameKeyCommand(this, key, text));
        return true;
    }
    if (text != old)
        m_undoStack->push(new SetValueCommand(this, key, old, text));
    return true;
}

bool MetadataModel::isTooLargeToEdit(int row) const
{
    if (row < 0 || row >= rowCount())
        return false;
    const auto& [key, value] = m_metadata->entries()[static_cast<std::size_t>(row)];
    return key.size() > kMaxEditableChars || value.size() > kMaxEditableChars;
}

int MetadataModel::rowOf(const QString& key) const
{
    if (!m_metadata)
        return -1;
    const auto& entries = m_metadata->entries();
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (entries[i].first == key)
            return static_cast<int>(i);
    }
    return -1;
}

void MetadataModel::insertEntry(int row, const QString& key, const QString& value)
{
    std::vector<Metadata::Entry> entries =
        m_metadata ? m_metadata->entries() : std::vector<Metadata::Entry>{};
    row = qBound(0, row, static_cast<int>(entries.size()));
    beginInsertRows({}, row, row);
    m_meanings.clear();
    entries.insert(entries.begin() + row, {key, value});
    m_isJson.insert(m_isJson.begin() + row, looksLikeJsonContainer(value));
    m_metadata = Metadata::fromUniqueEntries(std::move(entries));
    endInsertRows();
}

void MetadataModel::removeEntry(int row)
{
    if (row < 0 || row >= rowCount())
        return;
    std::vector<Metadata::Entry> entries = m_metadata->entries();
    beginRemoveRows({}, row, row);
    m_meanings.clear();
    entries.erase(entries.begin() + row);
    m_isJson.erase(m_isJson.begin() + row);
    m_metadata = Metadata::fromUniqueEntries(std::move(entries));
    endRemoveRows();
}

void MetadataModel::setEntryKey(int row, const QString& key)
{
    if (row < 0 || row >= rowCount())
        return;
    m_metadata->rename(m_metadata->entries()[static_cast<std::size_t>(row)].first, key);
    m_meanings.remove(row);
    emit dataChanged(index(row, KeyColumn), index(row, MeaningColumn));
}

void MetadataModel::setEntryValue(int row, const QString& value)
{
    if (row < 0 || row >= rowCount())
        return;
    m_metadata->set(m_metadata->entries()[static_cast<std::size_t>(row)].first, value);
    m_isJson[static_cast<std::size_t>(row)] = looksLikeJsonContainer(value);
    m_meanings.remove(row);
    emit dataChanged(index(row, ValueColumn), index(row, MeaningColumn));
}

} // namespace ts::ui
