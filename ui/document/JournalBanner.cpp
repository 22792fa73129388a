#include "document/JournalBanner.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace ts::ui {

JournalBanner::JournalBanner(QWidget* parent)
    : NoticeBar(parent), m_label(new QLabel(this)), m_status(new QLabel(this)),
      m_restore(new QPushButton(tr("Restore"), this)), m_keep(new QPushButton(tr("Keep Current"), this)),
      m_delete(new QPushButton(tr("Delete Journal"), this))
{
    m_label->setWordWrap(true);
    m_label->setTextFormat(Qt::PlainText); // the file and key names come from the file
    m_label->setForegroundRole(QPalette::ToolTipText);
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_status->hide();
    m_restore->setToolTip(tr("Write the header from before the interrupted save back into the file"));
    m_keep->setToolTip(tr("Leave the file and the journal as they are for now"));
    m_delete->setToolTip(tr("Delete the journal and keep the file as it is now"));
    auto* text = new QVBoxLayout;
    text->addWidget(m_label);
    text->addWidget(m_status);
    QHBoxLayout* layout = row();
    layout->addLayout(text, 1);
    layout->addWidget(m_restore);
    layout->addWidget(m_keep);
    layout->addWidget(m_delete);
    connect(m_restore, &QPushButton::clicked, this, [this] { emit restoreRequested(m_journal); });
    connect(m_delete, &QPushButton::clicked, this, [this] { emit deleteRequested(m_journal); });
    connect(m_keep, &QPushButton::clicked, this, &QWidget::hide);
}

void JournalBanner::setInspection(const JournalInspection& journal)
{
    m_journal = journal;
    const QString name = QFileInfo(journal.file).fileName();
    QString intro;
    if (journal.restorable())
        intro = tr("A metadata save of %1 was interrupted.").arg(name);
    else if (journal.matches())
        intro = tr("A metadata save of %1 stopped before it changed the file.").arg(name);
    else
        intro = tr("A save journal beside %1 does not match the file and will never be applied.").arg(name);
    // The detail names keys that come from the file: bounded, so a hostile journal cannot make
    // the bar grow without end.
    QString detail = journal.detail;
    if (detail.size() > 600)
        detail = detail.left(600) + QStringLiteral("\u2026");
    m_label->setText(intro + u' ' + detail);
    m_restore->setVisible(journal.restorable());
    m_status->clear();
    m_status->hide();
}

void JournalBanner::setStatus(const QString& text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

QString JournalBanner::message() const
{
    return m_label->text();
}

} // namespace ts::ui
