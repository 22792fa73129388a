#include "metadata/MetadataCommands.h"

#include "metadata/MetadataModel.h"

#include <QCoreApplication>

namespace ts::ui {

// QUndoCommand is no QObject and has no tr(): the context is spelt out at each call (lupdate does
// not follow helper functions) so that the catalogue files the texts where they are looked up.

SetValueCommand::SetValueCommand(MetadataModel* model, const QString& key, const QString& before,
                                 const QString& after)
    : QUndoCommand(QCoreApplication::translate("ts::ui::MetadataCommands", "Edit \u201c%1\u201d").arg(key)),
      m_model(model), m_key(key), m_before(before), m_after(after)
{
}

void SetValueCommand::undo()
{
    m_model->setEntryValue(m_model->rowOf(m_key), m_before);
}

void SetValueCommand::redo()
{
    m_model->setEntryValue(m_model->rowOf(m_key), m_after);
}

RenameKeyCommand::RenameKeyCommand(MetadataModel* model, const QString& from, const QString& to)
    : QUndoCommand(
          QCoreApplication::translate("ts::ui::MetadataCommands", "Rename \u201c%1\u201d").arg(from)),
      m_model(model), m_from(from), m_to(to)
{
}

void RenameKeyCommand::undo()
{
    m_model->setEntryKey(m_model->rowOf(m_to), m_from);
}

void RenameKeyCommand::redo()
{
    m_model->setEntryKey(m_model->rowOf(m_from), m_to);
}

AddRemoveKeyCommand::AddRemoveKeyCommand(MetadataModel* model, Kind kind, int row, const QString& key,
                                         const QString& value)
    : QUndoCommand(
          kind == Kind::Add
              ? QCoreApplication::translate("ts::ui::MetadataCommands", "Add \u201c%1\u201d").arg(key)
              : QCoreApplication::translate("ts::ui::MetadataCommands", "Remove \u201c%1\u201d").arg(key)),
      m_model(model), m_kind(kind), m_row(row), m_key(key), m_value(value)
{
}

void AddRemoveKeyCommand::undo()
{
    m_kind == Kind::Add ? remove() : insert();
}

void AddRemoveKeyCommand::redo()
{
    m_kind == Kind::Add ? insert() : remove();
}

void AddRemoveKeyCommand::insert()
{
    m_model->insertEntry(m_row, m_key, m_value);
}

void AddRemoveKeyCommand::remove()
{
    m_model->removeEntry(m_model->rowOf(m_key));
}

} // namespace ts::ui
