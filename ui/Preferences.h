#pragma once

#include <QDialog>

#include <cstdint>

class QSpinBox;

namespace ts::ui {

// Settings of the window that outlive a session (QSettings).
namespace Preferences {
// Spaces added to a header written by a full rewrite so that later metadata edits fit in place.
// 0 (the default) keeps files byte-identical to the reference writer.
std::uint64_t headerSlack();
void setHeaderSlack(std::uint64_t bytes);
} // namespace Preferences

class PreferencesDialog final : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(QWidget* parent = nullptr);
    QSpinBox* headerSlackBox() const { return m_slack; }
    void accept() override;

private:
    QSpinBox* m_slack;
};

} // namespace ts::ui
