#include "compare/CompareDialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace ts::ui {

CompareDialog::CompareDialog(const QString& a, QWidget* parent)
    : QDialog(parent), m_a(new QLineEdit(a, this)), m_b(new QLineEdit(this)),
      m_rules(new QPlainTextEdit(this)),
      m_rank(
          new QCheckBox(tr("Estimate the rank of every changed matrix (reads them a few more times)"), this)),
      m_problem(new QLabel(this))
{
    setWindowTitle(tr("Compare Checkpoints"));
    auto* form = new QFormLayout;
    for (auto [label, field] : {std::pair{tr("&A (base):"), m_a}, std::pair{tr("&B:"), m_b}}) {
        auto* row = new QHBoxLayout;
        row->addWidget(field, 1);
        auto* file = new QPushButton(tr("File\u2026"), this);
        auto* folder = new QPushButton(tr("Folder\u2026"), this);
        row->addWidget(file);
        row->addWidget(folder);
        form->addRow(label, row);
        connect(file, &QPushButton::clicked, this, [this, field = field] {
            const QString path = QFileDialog::getOpenFileName(
                this, tr("Choose a Model"), QFileInfo(field->text()).absolutePath(),
                tr("Safetensors models (*.safetensors *.safetensors.index.json *.json);;All files (*)"));
            if (!path.isEmpty())
                field->setText(path);
        });
        connect(folder, &QPushButton::clicked, this, [this, field = field] {
            const QString path = QFileDialog::getExistingDirectory(this, tr("Choose a Sharded Model Folder"));
            if (!path.isEmpty())
                field->setText(path);
        });
    }
    m_rules->setPlaceholderText(
        tr("^model\\.diffusion_model\\.=unet.\n(one REGEX=REPLACEMENT per line, \\1 for a group)"));
    m_rules->setToolTip(
        tr("Tensors of A that B has under another name: each rule maps A's names to B's. They "
           "apply only to tensors whose names do not pair by themselves. What is left pairs by "
           "content and by shape, as suggestions."));
    m_rules->setMaximumHeight(m_rules->fontMetrics().lineSpacing() * 5);
    form->addRow(tr("&Rename rules:"), m_rules);
    m_problem->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Compare"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_rank);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_a, &QLineEdit::textChanged, this, &CompareDialog::validate);
    connect(m_b, &QLineEdit::textChanged, this, &CompareDialog::validate);
    connect(m_rules, &QPlainTextEdit::textChanged, this, &CompareDialog::validate);
    resize(640, sizeHint().height());
    validate();
}

QString CompareDialog::pathA() const
{
    return m_a->text().trimmed();
}

QString CompareDialog::pathB() const
{
    return m_b->text().trimmed();
}

void CompareDialog::setPathB(const QString& path)
{
    m_b->setText(path);
}

void CompareDialog::setRules(const QString& rules)
{
    m_rules->setPlainText(rules);
}

diff::DiffOptions CompareDialog::options() const
{
    diff::DiffOptions options;
    options.rank = m_rank->isChecked();
    for (const QString& line : m_rules->toPlainText().split(QLatin1Char('\n'))) {
        if (!line.trimmed().isEmpty() && !line.trimmed().startsWith(QLatin1Char('#')))
            (void)options.rename.addAssignment(line); // checked by validate()
    }
    return options;
}

void CompareDialog::validate()
{
    m_problemText.clear();
    if (pathA().isEmpty() || pathB().isEmpty()) {
        m_problemText = tr("Choose both models.");
    } else {
        for (const QString& path : {pathA(), pathB()}) {
            if (!QFileInfo::exists(path)) {
                m_problemText = tr("%1 does not exist.").arg(path);
                break;
            }
        }
    }
    if (m_problemText.isEmpty()) {
        diff::RenameRules rules;
        const QStringList lines = m_rules->toPlainText().split(QLatin1Char('\n'));
        for (qsizetype i = 0; i < lines.size(); ++i) {
            if (lines[i].trimmed().isEmpty() || lines[i].trimmed().startsWith(QLatin1Char('#')))
                continue;
            if (Result<void> r = rules.addAssignment(lines[i]); !r) {
                m_problemText = tr("Rule %1: %2").arg(i + 1).arg(r.error().message);
                break;
            }
        }
    }
    m_problem->setText(m_problemText);
    m_problem->setVisible(!m_problemText.isEmpty());
    if (m_ok)
        m_ok->setEnabled(m_problemText.isEmpty());
}

} // namespace ts::ui
