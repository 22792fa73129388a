#pragma once

#include "Metadata.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTableView;

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

    // The whole map as JSON, in the same shape as `tensorscope-cli meta --json`.
    QString metadataJson() const;
    void copyAsJson();
    void copyValue();

private:
    void showRow(int row);

    MetadataModel* m_model;
    QStackedWidget* m_stack;
    QTableView* m_table;
    QLabel* m_valueTitle;
    QPlainTextEdit* m_value;
    QPushButton* m_copyJson;
    QPushButton* m_copyValue;
};

} // namespace ts::ui
