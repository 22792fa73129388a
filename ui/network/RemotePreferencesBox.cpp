#include "network/RemotePreferencesBox.h"

#include "base/Format.h"
#include "network/RemotePreferences.h"
#include "remote/HttpOpener.h"
#include "remote/NetworkClient.h"
#include "remote/RemoteSettings.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace ts::ui {
namespace {

constexpr std::uint64_t kMiB = 1ull << 20;

} // namespace

RemotePreferencesBox::RemotePreferencesBox(QWidget* parent)
    : QGroupBox(tr("Models on servers"), parent), m_token(new QLineEdit(this)), m_hosts(new QLineEdit(this)),
      m_cache(new QSpinBox(this)), m_used(new QLabel(this)),
      m_clear(new QPushButton(tr("Clear Cache"), this)), m_note(new QLabel(this))
{
    m_token->setEchoMode(QLineEdit::Password);
    m_token->setPlaceholderText(tr("hf_\u2026 (none)"));
    m_token->setText(remote::RemoteSettings::readStoredToken());
    m_hosts->setText(RemotePreferences::tokenHosts().join(QStringLiteral(", ")));
    m_hosts->setToolTip(
        tr("The token is sent to these hosts and their subdomains only, never along a redirect "
           "to another host. \"host:port\" limits it to a port, \"*\" sends it everywhere."));
    m_cache->setRange(0, 1024 * 1024);
    m_cache->setSingleStep(256);
    m_cache->setSuffix(tr(" MiB"));
    m_cache->setSpecialValueText(tr("Off"));
    m_cache->setValue(static_cast<int>(RemotePreferences::cacheBytes() / kMiB));
    m_note->setWordWrap(true);
    QStringList notes;
    if (qEnvironmentVariableIsSet("HF_TOKEN"))
        notes << tr("HF_TOKEN is set in the environment and is used instead of this token.");
    if (qEnvironmentVariableIsSet("TENSORSCOPE_TOKEN_HOSTS"))
        notes << tr("TENSORSCOPE_TOKEN_HOSTS is set in the environment and decides the hosts.");
    notes << tr("Tensor bytes read from servers are kept in %1, least recently used first out.")
                 .arg(remote::RemoteSettings::defaultCacheDir());
    m_note->setText(notes.join(QLatin1Char(' ')));
    auto* cacheRow = new QHBoxLayout;
    cacheRow->addWidget(m_cache);
    cacheRow->addWidget(m_used, 1);
    cacheRow->addWidget(m_clear);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Access token:"), m_token);
    form->addRow(tr("Send it to:"), m_hosts);
    form->addRow(tr("Disk cache:"), cacheRow);
    form->addRow(m_note);
    connect(m_clear, &QPushButton::clicked, this, [this] {
        if (remote::RemoteSession* session = remote::RemoteSession::current())
            session->client().cache().clear();
        showUsage();
    });
    showUsage();
}

void RemotePreferencesBox::showUsage()
{
    remote::RemoteSession* session = remote::RemoteSession::current();
    const std::uint64_t used = session ? session->client().cache().usedBytes() : 0;
    m_used->setText(tr("%1 used").arg(formatBytes(used)));
    m_clear->setEnabled(used > 0);
}

void RemotePreferencesBox::apply()
{
    remote::RemoteSettings::writeStoredToken(m_token->text());
    RemotePreferences::setTokenHosts(m_hosts->text().split(QLatin1Char(','), Qt::SkipEmptyParts));
    RemotePreferences::setCacheBytes(static_cast<std::uint64_t>(m_cache->value()) * kMiB);
    RemotePreferences::apply();
}

} // namespace ts::ui
