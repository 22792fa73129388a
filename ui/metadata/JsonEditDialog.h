#pragma once

#include <QDialog>

#include <optional>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;

namespace ts::ui {

// Edits one metadata value. A JSON value is checked as it is typed and OK stays disabled until
// the text parses, so broken JSON never reaches the file; the check can be turned off to store
// the value as plain text.
class JsonEditDialog final : public QDialog {
    Q_OBJECT
public:
    JsonEditDialog(const QString& key, const QString& value, QWidget* parent = nullptr);

    QPlainTextEdit* editor() const { return m_edit; }
    QCheckBox* jsonCheck() const { return m_json; }
    // The value to store: compacted again when the original was on one line, as configs written
    // by training code are, so that an edit does not reformat the whole value.
    QString value() const;
    bool isValid() const;
    void accept() override;

    // Null when `text` is valid JSON, else a sentence naming the line and column.
    static std::optional<QString> jsonError(const QString& text);
    // Removes the whitespace outside strings, keeping every other character (numbers keep their
    // spelling, keys their order).
    static QString compactJson(const QString& text);

private:
    void check();

    QString m_original;
    QPlainTextEdit* m_edit;
    QCheckBox* m_json;
    QLabel* m_status;
    QDialogButtonBox* m_buttons;
};

} // namespace ts::ui
