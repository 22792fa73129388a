#include "ReloadBanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>

namespace ts::ui {

ReloadBanner::ReloadBanner(QWidget* parent)
    : QFrame(parent), m_label(new QLabel(this)), m_reload(new QPushButton(tr("Reload"), this))
{
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::ToolTipBase);
    setForegroundRole(QPalette::ToolTipText);
    auto* icon = new QLabel(this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(20, 20));
    m_label->setWordWrap(true);
    m_label->setForegroundRole(QPalette::ToolTipText);
    auto* dismiss = new QPushButton(tr("Dismiss"), this);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(icon);
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
