#pragma once

#include "base/Diagnostic.h"
#include "scan/ScanView.h"

#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;

namespace ts::ui {

// The summary's line about the tensor values, beside the header's verdict: a valid header says
// nothing about NaN or Inf in the data, so until a check ran the summary says so and offers one
// ("Header valid. Values not checked yet"), while one runs it says that, and afterwards it gives
// the check's verdict (what was checked, how many tensors hold NaN/Inf or other findings).
class ValuesVerdict final : public QWidget {
    Q_OBJECT
public:
    enum class State { NotChecked, Checking, Checked, Stopped };

    explicit ValuesVerdict(QWidget* parent = nullptr);

    void setNotChecked();
    void setChecking(ScanView::Check check);
    void setChecked(ScanView::Check check, const std::vector<Diagnostic>& findings);
    // Cancelled or failed: what ran did not check every value.
    void setStopped();
    // Cancelled with `scanned` of `planned` tensors done: what those showed, and that the rest
    // was not checked (state Stopped).
    void setPartial(ScanView::Check check, const std::vector<Diagnostic>& findings, qsizetype scanned,
                    qsizetype planned);

    State state() const { return m_state; }
    QString text() const;
    QPushButton* nanInfButton() const { return m_nanInf; }
    QPushButton* scanButton() const { return m_scan; }

    // The sentence for a finished check (tested on its own).
    static QString verdictFor(ScanView::Check check, const std::vector<Diagnostic>& findings);

signals:
    void checkRequested(ts::ui::ScanView::Check check);

private:
    State m_state = State::NotChecked;
    QLabel* m_label;
    QPushButton* m_nanInf;
    QPushButton* m_scan;
};

} // namespace ts::ui
