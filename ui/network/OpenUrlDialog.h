#pragma once

#include <QDialog>

class QComboBox;
class QLabel;
class QPushButton;

namespace ts::ui {

// File > Open URL: the https:// or http:// URL of a .safetensors file or of a
// model.safetensors.index.json, typed, pasted or picked from the URLs opened before. A Hugging
// Face page URL (.../blob/main/...) is fine: it is read from .../resolve/main/....
class OpenUrlDialog final : public QDialog {
    Q_OBJECT
public:
    explicit OpenUrlDialog(QWidget* parent = nullptr);

    QString url() const;
    QComboBox* urlBox() const { return m_url; }
    // The URL in the box, or the sentence that says why it cannot be opened.
    static QString problemWith(const QString& text);

private:
    void check();

    QComboBox* m_url;
    QLabel* m_problem;
    QPushButton* m_open;
};

} // namespace ts::ui
