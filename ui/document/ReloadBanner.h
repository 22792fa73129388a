#pragma once

#include "document/NoticeBar.h"

class QLabel;
class QPushButton;

namespace ts::ui {

// A bar across the top of a document saying the file changed on disk, with Reload and Dismiss.
// Non-modal: the user can finish reading before reloading.
class ReloadBanner final : public NoticeBar {
    Q_OBJECT
public:
    explicit ReloadBanner(QWidget* parent = nullptr);
    void setMessage(const QString& text);
    QString message() const;
    QPushButton* reloadButton() const { return m_reload; }

signals:
    void reloadRequested();

private:
    QLabel* m_label;
    QPushButton* m_reload;
};

} // namespace ts::ui
