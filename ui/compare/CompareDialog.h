#pragma once

#include "diff/CheckpointDiff.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace ts::ui {

// File > Compare With...: which two models (A, the base, is the current tab's when there is one),
// the rename rules that pair tensors named differently in B (one REGEX=REPLACEMENT per line, as
// `tensorscope-cli diff --rename` takes them), and whether to estimate the rank of every changed
// matrix. OK stays disabled until both paths are given and the rules parse.
class CompareDialog final : public QDialog {
    Q_OBJECT
public:
    explicit CompareDialog(const QString& a, QWidget* parent = nullptr);

    QString pathA() const;
    QString pathB() const;
    // The options the dialog describes; call after it was accepted (the rules were checked then).
    diff::DiffOptions options() const;

    void setPathB(const QString& path);
    void setRules(const QString& rules);
    // Why OK is disabled, or empty.
    QString problem() const { return m_problemText; }

private:
    void validate();

    QLineEdit* m_a;
    QLineEdit* m_b;
    QPlainTextEdit* m_rules;
    QCheckBox* m_rank;
    QLabel* m_problem;
    QPushButton* m_ok = nullptr;
    QString m_problemText;
};

} // namespace ts::ui
