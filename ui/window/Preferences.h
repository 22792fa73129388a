#pragma once

#include <QDialog>

#include <cstdint>

class QCheckBox;
class QSpinBox;

namespace ts::ui {

class RemotePreferencesBox;

// Settings of the window that outlive a session (QSettings).
namespace Preferences {
// Spaces added to a header written by a full rewrite so that later metadata edits fit in place.
// 0 (the default) keeps files byte-identical to the reference writer.
std::uint64_t headerSlack();
void setHeaderSlack(std::uint64_t bytes);
// The NaN/Inf check when a model opens (on by default), for models of at most this many tensor
// bytes: it reads every byte, at memory speed from the page cache and at disk speed the first time.
bool checkNanInfOnOpen();
void setCheckNanInfOnOpen(bool on);
std::uint64_t checkNanInfLimitBytes();
void setCheckNanInfLimitBytes(std::uint64_t bytes);
// Nor past this many tensors (100,000 by default): there the scan table and the findings of a
// hostile or giant header cost the window more than the check is worth on open.
std::uint64_t checkNanInfMaxTensors();
void setCheckNanInfMaxTensors(std::uint64_t tensors);
} // namespace Preferences

class PreferencesDialog final : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(QWidget* parent = nullptr);
    QSpinBox* headerSlackBox() const { return m_slack; }
    QCheckBox* checkOnOpenBox() const { return m_checkOnOpen; }
    QSpinBox* checkLimitBox() const { return m_checkLimit; }
    RemotePreferencesBox* remoteBox() const { return m_remote; }
    void accept() override;

private:
    QSpinBox* m_slack;
    QCheckBox* m_checkOnOpen;
    QSpinBox* m_checkLimit; // GiB
    RemotePreferencesBox* m_remote;
};

} // namespace ts::ui
