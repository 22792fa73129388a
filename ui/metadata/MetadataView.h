#pragma once

#include "format/Metadata.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTableView;
class QUndoStack;

namespace ts::ui {

class MetadataModel;

// Key/value table of the metadata with a side panel showing the selected value in full,
// pretty-printed when it holds JSON.
class MetadataView final : public QWidget {
    Q_OBJECT
public:
    explicit MetadataView(QWidget* parent = nullptr);

    void setMetadata(const std::optional<Metadata>& metadata);
    MetadataModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QPlainTextEdit* valuePanel() const { return m_value; }
    // What the selected key means (MetadataKeys), above its value; empty for unknown keys.
    QLabel* meaningLabel() const { return m_meaning; }

    // The whole map as JSON, in the same shape as `tensorscope-cli meta --json`.
    QString metadataJson() const;
    void copyAsJson();
    void copyValue();

    // Editing through `stack` (null: read-only). The buttons show only while editable.
    void setUndoStack(QUndoStack* stack);
    // Adds a key with an empty value after the selected row and starts editing its name.
    void addKey();
    void removeSelectedKey();
    // Opens JsonEditDialog for the selected value; JSON values always go through it.
    void editSelectedValue();

private:
    void showRow(int row);

    MetadataModel* m_model;
    QStackedWidget* m_stack;
    QTableView* m_table;
    QLabel* m_valueTitle;
    QLabel* m_meaning;
    QPlainTextEdit* m_value;
    QPushButton* m_copyJson;
    QPushButton* m_copyValue;
    QPushButton* m_add;
    QPushButton* m_edit;
    QPushButton* m_remove;
};

} // namespace ts::ui
