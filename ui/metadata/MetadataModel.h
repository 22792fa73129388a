#pragma once

#include "common/DisplayText.h"
#include "format/Metadata.h"

#include <QAbstractTableModel>
#include <QHash>

class QUndoStack;

#include <optional>
#include <vector>

namespace ts::ui {

// The `__metadata__` map as a key/value table, in file order. Read-only until an undo stack is
// set: then setData() turns edits into undoable commands (MetadataCommands), which change the
// rows through the raw mutators below.
class MetadataModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    // MeaningColumn explains well-known keys (MetadataKeys: format, modelspec.*, kohya's ss_*).
    enum Columns { KeyColumn, ValueColumn, MeaningColumn, NUM_COLUMNS };
    enum Roles { SortRole = Qt::UserRole, FullValueRole, IsJsonRole, KeyRole /* the whole key, uncut */ };
    // Keys and values longer than this are shown cut and not edited: an editor lays out all of
    // its text, and a header can hold a 90 MB value. Removing such a key still works.
    static constexpr qsizetype kMaxEditableChars = kTextViewChars;

    explicit MetadataModel(QObject* parent = nullptr);
    void setMetadata(const std::optional<Metadata>& metadata);
    const std::optional<Metadata>& metadata() const { return m_metadata; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    // Editing: null makes the model read-only again.
    void setUndoStack(QUndoStack* stack) { m_undoStack = stack; }
    QUndoStack* undoStack() const { return m_undoStack; }
    bool isEditable() const { return m_undoStack != nullptr; }
    int rowOf(const QString& key) const;
    bool isTooLargeToEdit(int row) const;

    // Raw mutators for the commands; they do not touch the undo stack.
    void insertEntry(int row, const QString& key, const QString& value);
    void removeEntry(int row);
    void setEntryKey(int row, const QString& key);
    void setEntryValue(int row, const QString& value);

    // The explanation of row `row`'s key, or empty for a key nobody documents.
    QString meaning(int row) const;

private:
    std::optional<Metadata> m_metadata;
    mutable QHash<int, QString> m_meanings; // computed as rows are shown: a header can hold a million keys
    std::vector<bool> m_isJson; // per row, computed once: parsing on every paint would be wasteful
    QUndoStack* m_undoStack = nullptr;
};

} // namespace ts::ui
