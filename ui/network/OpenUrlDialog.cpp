#include "network/OpenUrlDialog.h"

#include "io/RemoteLocation.h"
#include "window/RecentFiles.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

namespace ts::ui {

OpenUrlDialog::OpenUrlDialog(QWidget* parent)
    : QDialog(parent), m_url(new QComboBox(this)), m_problem(new QLabel(this))
{
    setWindowTitle(tr("Open URL"));
    auto* intro = new QLabel(tr("The URL of a .safetensors file, or of a sharded model's "
                                "model.safetensors.index.json. Only the header is read to open it; "
                                "tensor bytes are fetched when a view or a scan needs them."),
                             this);
    intro->setWordWrap(true);
    m_url->setEditable(true);
    m_url->setInsertPolicy(QComboBox::NoInsert);
    m_url->setMinimumWidth(560);
    m_url->lineEdit()->setPlaceholderText(
        QStringLiteral("https://huggingface.co/ORG/MODEL/resolve/main/model.safetensors"));
    // The URLs opened before, newest first.
    for (const QString& recent : RecentFiles::paths()) {
        if (RemoteLocation::isRemote(recent))
            m_url->addItem(recent);
    }
    m_url->setCurrentText(QString());
    m_problem->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    m_open = buttons->button(QDialogButtonBox::Open);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_url);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_url, &QComboBox::currentTextChanged, this, &OpenUrlDialog::check);
    check();
}

QString OpenUrlDialog::url() const
{
    return m_url->currentText().trimmed();
}

QString OpenUrlDialog::problemWith(const QString& text)
{
    if (text.isEmpty())
        return {};
    if (!RemoteLocation::isRemote(text))
        return tr("A URL starts with https:// or http://.");
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty())
        return tr("This is not a valid URL.");
    if (url.path().isEmpty() || url.path().endsWith(QLatin1Char('/')))
        return tr("This URL names a folder: give the URL of a .safetensors file or of its index.");
    return {};
}

void OpenUrlDialog::check()
{
    const QString problem = problemWith(url());
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_open->setEnabled(!url().isEmpty() && problem.isEmpty());
}

} // namespace ts::ui
