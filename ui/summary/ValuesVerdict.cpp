#include "summary/ValuesVerdict.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSet>

#include <algorithm>

namespace ts::ui {
namespace {

bool isNanInf(const Diagnostic& d)
{
    return d.code == QLatin1String("NanValues") || d.code == QLatin1String("InfValues");
}

// "1 tensor with NaN or Inf", "3 tensors with warnings". Spelled out rather than "%n tensor(s)":
// there is no English catalogue to make plurals.
QString tensorCount(qsizetype n, const char* what)
{
    return n == 1 ? ValuesVerdict::tr("1 tensor %1").arg(ValuesVerdict::tr(what))
                  : ValuesVerdict::tr("%1 tensors %2").arg(n).arg(ValuesVerdict::tr(what));
}

} // namespace

ValuesVerdict::ValuesVerdict(QWidget* parent)
    : QWidget(parent), m_label(new QLabel(this)), m_nanInf(new QPushButton(tr("Check NaN/Inf"), this)),
      m_scan(new QPushButton(tr("Scan Values"), this))
{
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_nanInf->setToolTip(tr("Look for NaN and infinite values in every tensor, at memory speed"));
    m_scan->setToolTip(tr("Full statistics of every tensor: NaN/Inf, all-zero tensors, outliers, odd layers, "
                          "duplicates"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_nanInf);
    layout->addWidget(m_scan);
    connect(m_nanInf, &QPushButton::clicked, this,
            [this] { emit checkRequested(ScanView::Check::NanInfOnly); });
    connect(m_scan, &QPushButton::clicked, this, [this] { emit checkRequested(ScanView::Check::Full); });
    setNotChecked();
}

QString ValuesVerdict::text() const
{
    return m_label->text();
}

void ValuesVerdict::setNotChecked()
{
    m_state = State::NotChecked;
    QFont font = m_label->font();
    font.setBold(false);
    m_label->setFont(font);
    m_label->setText(tr("Values not checked yet: a valid header says nothing about NaN or Inf in the data."));
    m_nanInf->setEnabled(true);
    m_scan->setEnabled(true);
}

void ValuesVerdict::setChecking(ScanView::Check check)
{
    m_state = State::Checking;
    m_label->setText(check == ScanView::Check::NanInfOnly ? tr("Checking the values for NaN and Inf\u2026")
                                                          : tr("Scanning the values\u2026"));
    m_nanInf->setEnabled(false);
    m_scan->setEnabled(false);
}

void ValuesVerdict::setChecked(ScanView::Check check, const std::vector<Diagnostic>& findings)
{
    m_state = State::Checked;
    m_label->setText(verdictFor(check, findings));
    // Bold when there is something to look at: the first line a user reads on the summary.
    const bool alarming = std::any_of(findings.begin(), findings.end(),
                                      [](const Diagnostic& d) { return d.severity != Severity::Info; });
    QFont font = m_label->font();
    font.setBold(alarming);
    m_label->setFont(font);
    m_nanInf->setEnabled(true);
    m_scan->setEnabled(true);
}

void ValuesVerdict::setStopped()
{
    m_state = State::Stopped;
    m_label->setText(tr("The value check did not finish: not every value was checked."));
    m_nanInf->setEnabled(true);
    m_scan->setEnabled(true);
}

void ValuesVerdict::setPartial(ScanView::Check check, const std::vector<Diagnostic>& findings,
                               qsizetype scanned, qsizetype planned)
{
    setStopped();
    QSet<QString> nanInf;
    for (const Diagnostic& d : findings) {
        if (isNanInf(d))
            nanInf.insert(d.tensor);
    }
    const QString what = check == ScanView::Check::NanInfOnly ? tr("The NaN/Inf check") : tr("The scan");
    const QString found = nanInf.isEmpty() ? tr("no NaN or Inf in those")
                                           : tensorCount(nanInf.size(), QT_TR_NOOP("with NaN or Inf"));
    m_label->setText(tr("%1 was cancelled after %2 of %3 tensors: %4 (see the audit list); not every value "
                        "was checked.")
                         .arg(what)
                         .arg(scanned)
                         .arg(planned)
                         .arg(found));
    QFont font = m_label->font();
    font.setBold(!findings.empty());
    m_label->setFont(font);
}

QString ValuesVerdict::verdictFor(ScanView::Check check, const std::vector<Diagnostic>& findings)
{
    QSet<QString> nanInf, errors, warnings;
    for (const Diagnostic& d : findings) {
        if (isNanInf(d))
            nanInf.insert(d.tensor);
        if (d.severity == Severity::Error)
            errors.insert(d.tensor);
        else if (d.severity == Severity::Warning)
            warnings.insert(d.tensor);
    }
    if (check == ScanView::Check::NanInfOnly) {
        if (nanInf.isEmpty())
            return tr(
                "NaN/Inf check: no NaN or Inf in any tensor. Scan Values looks for the other anomalies.");
        return tr("NaN/Inf check: %1 (see the audit list).")
            .arg(tensorCount(nanInf.size(), QT_TR_NOOP("with NaN or Inf")));
    }
    if (errors.isEmpty() && warnings.isEmpty())
        return tr("Values scanned: no NaN, Inf or other anomaly in any tensor.");
    QStringList parts;
    if (!nanInf.isEmpty())
        parts << tensorCount(nanInf.size(), QT_TR_NOOP("with NaN or Inf"));
    errors.subtract(nanInf);
    if (!errors.isEmpty())
        parts << tensorCount(errors.size(), QT_TR_NOOP("with other errors"));
    warnings.subtract(nanInf);
    warnings.subtract(errors);
    if (!warnings.isEmpty())
        parts << tensorCount(warnings.size(), QT_TR_NOOP("with warnings"));
    return tr("Values scanned: %1 (see the audit list).").arg(parts.join(QStringLiteral(", ")));
}

} // namespace ts::ui
