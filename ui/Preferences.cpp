#include "Preferences.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ts::ui {
namespace {

const QString kSlackKey = QStringLiteral("save/headerSlack");
constexpr int kMaxSlack = 16 * 1024 * 1024; // more is a typo, not a plan

} // namespace

std::uint64_t Preferences::headerSlack()
{
    const qlonglong value = QSettings().value(kSlackKey, 0).toLongLong();
    return static_cast<std::uint64_t>(qBound(qlonglong(0), value, qlonglong(kMaxSlack)));
}

void Preferences::setHeaderSlack(std::uint64_t bytes)
{
    QSettings().setValue(kSlackKey, static_cast<qulonglong>(bytes));
}

PreferencesDialog::PreferencesDialog(QWidget* parent) : QDialog(parent), m_slack(new QSpinBox(this))
{
    setWindowTitle(tr("Preferences"));
    m_slack->setRange(0, kMaxSlack);
    m_slack->setSingleStep(1024);
    m_slack->setSuffix(tr(" bytes"));
    m_slack->setValue(static_cast<int>(Preferences::headerSlack()));
    auto* note = new QLabel(tr("Spaces added to the header when a save rewrites the whole file, so that later "
                               "metadata edits can be saved in place in milliseconds. 0 writes files "
                               "byte-identical to the reference safetensors writer."),
                            this);
    note->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(tr("Header slack:"), m_slack);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &PreferencesDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &PreferencesDialog::reject);
}

void PreferencesDialog::accept()
{
    Preferences::setHeaderSlack(static_cast<std::uint64_t>(m_slack->value()));
    QDialog::accept();
}

} // namespace ts::ui
