#include "document/ReloadBanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace ts::ui {

ReloadBanner::ReloadBanner(QWidget* parent)
    : NoticeBar(parent), m_label(new QLabel(this)), m_reload(new QPushButton(tr("Reload"), this))
{
    m_label->setWordWrap(true);
    m_label->setForegroundRole(QPalette::ToolTipText);
    auto* dismiss = new QPushButton(tr("Dismiss"), this);
    QHBoxLayout* layout = row();
    layout->addWidget(m_label, 1);
    layout->addWidget(m_reload);
    layout->addWidget(dismiss);
    connect(m_reload, &QPushButton::clicked, this, &ReloadBanner::reloadRequested);
    connect(dismiss, &QPushButton::clicked, this, &QWidget::hide);
}

void ReloadBanner::setMessage(const QString& text)
{
    m_label->setText(text);
}

QString ReloadBanner::message() const
{
    return m_label->text();
}

} // namespace ts::ui
