#pragma once

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace ts::ui {

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

signals:
    void reloadRequested();
    // Shown when a server refused the model for want of a valid token.
    void accessTokenRequested();

private:
    QLabel* m_title;
    QLabel* m_message;
    QLabel* m_details;
    QLabel* m_headerTitle;
    QPlainTextEdit* m_header;
    QPushButton* m_token;
};

} // namespace ts::ui
