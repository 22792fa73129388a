#pragma once

#include <QGroupBox>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace ts::ui {

// The Preferences section for models on servers: the access token (kept in its own owner-only
// file, shown as dots), the hosts it is sent to, and the disk cache's bound with what it holds now.
class RemotePreferencesBox final : public QGroupBox {
    Q_OBJECT
public:
    explicit RemotePreferencesBox(QWidget* parent = nullptr);

    QLineEdit* tokenEdit() const { return m_token; }
    QLineEdit* hostsEdit() const { return m_hosts; }
    QSpinBox* cacheBox() const { return m_cache; }
    QPushButton* clearButton() const { return m_clear; }
    // Stores what the fields say and hands it to the running session.
    void apply();

private:
    void showUsage();

    QLineEdit* m_token;
    QLineEdit* m_hosts;
    QSpinBox* m_cache; // MiB
    QLabel* m_used;
    QPushButton* m_clear;
    QLabel* m_note;
};

} // namespace ts::ui
