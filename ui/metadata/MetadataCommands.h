#pragma once

#include <QString>
#include <QUndoCommand>

namespace ts::ui {

class MetadataModel;

// The undoable metadata edits. They find their row by key when they run, not by a row number
// kept from when they were made, so that they stay right whatever order undo and redo happen in.

class SetValueCommand final : public QUndoCommand {
public:
    SetValueCommand(MetadataModel* model, const QString& key, const QString& before, const QString& after);
    void undo() override;
    void redo() override;

private:
    MetadataModel* m_model;
    QString m_key, m_before, m_after;
};

class RenameKeyCommand final : public QUndoCommand {
public:
    RenameKeyCommand(MetadataModel* model, const QString& from, const QString& to);
    void undo() override;
    void redo() override;

private:
    MetadataModel* m_model;
    QString m_from, m_to;
};

// Adding and removing are the same edit in opposite directions.
class AddRemoveKeyCommand final : public QUndoCommand {
public:
    enum class Kind { Add, Remove };
    AddRemoveKeyCommand(MetadataModel* model, Kind kind, int row, const QString& key, const QString& value);
    void undo() override;
    void redo() override;

private:
    void insert();
    void remove();

    MetadataModel* m_model;
    Kind m_kind;
    int m_row;
    QString m_key, m_value;
};

} // namespace ts::ui
