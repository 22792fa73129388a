#include "document/NoticeBar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>

namespace ts::ui {

NoticeBar::NoticeBar(QWidget* parent) : QFrame(parent), m_row(new QHBoxLayout(this))
{
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::ToolTipBase);
    setForegroundRole(QPalette::ToolTipText);
    auto* icon = new QLabel(this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(20, 20));
    m_row->setContentsMargins(8, 4, 8, 4);
    m_row->addWidget(icon, 0, Qt::AlignTop);
}

} // namespace ts::ui
