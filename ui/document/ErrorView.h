#pragma once

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace ts::ui {

class FolderModelPicker;
struct LoadResult;

// Shown instead of the model when a file cannot be opened: the core's sentence with its error
// code and offset, and whatever header text could be read.
class ErrorView final : public QWidget {
    Q_OBJECT
public:
    explicit ErrorView(QWidget* parent = nullptr);

    void setResult(const LoadResult& result);
    QString message() const;
    QString details() const;
    QPlainTextEdit* headerText() const { return m_header; }

    QPushButton* accessTokenButton() const { return m_token; }
    // Shown for a folder that holds several models: the list to open one from.
    FolderModelPicker* folderPicker() const { return m_picker; }

signals:
    void reloadRequested();
    // Shown when a server refused the model for want of a valid token.
    void accessTokenRequested();
    // A model picked from a folder's list: its location, to open in a tab of its own.
    void openRequested(const QString& location);

private:
    QLabel* m_title;
    QLabel* m_message;
    QLabel* m_details;
    QLabel* m_headerTitle;
    QPlainTextEdit* m_header;
    QPushButton* m_token;
    FolderModelPicker* m_picker;
    QLabel* m_icon;
};

} // namespace ts::ui
