#include "document/ErrorView.h"

#include "base/Format.h"
#include "common/DisplayText.h"
#include "document/FolderModelPicker.h"
#include "document/LoadResult.h"
#include "io/RemoteLocation.h"

#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace ts::ui {

ErrorView::ErrorView(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(this)), m_message(new QLabel(this)), m_details(new QLabel(this)),
      m_headerTitle(new QLabel(this)), m_header(new QPlainTextEdit(this)),
      m_token(new QPushButton(tr("Access Token\u2026"), this)), m_picker(new FolderModelPicker(this)),
      m_icon(new QLabel(this))
{
    m_icon->setAlignment(Qt::AlignTop);
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.5);
    big.setBold(true);
    m_title->setFont(big);
    for (QLabel* label : {m_message, m_details}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        // A message can quote a long name without spaces: it is cut at the edge rather than
        // making the window as wide as the name.
        QSizePolicy policy = label->sizePolicy();
        policy.setHorizontalPolicy(QSizePolicy::Ignored);
        label->setSizePolicy(policy);
    }
    QFont larger = m_message->font();
    larger.setPointSizeF(larger.pointSizeF() * 1.15);
    m_message->setFont(larger);
    m_header->setReadOnly(true);
    m_header->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_header->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* reload = new QPushButton(tr("Reload"), this);

    auto* text = new QVBoxLayout;
    text->addWidget(m_title);
    text->addWidget(m_message);
    text->addWidget(m_details);
    auto* top = new QHBoxLayout;
    top->addWidget(m_icon);
    top->addLayout(text, 1);
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(reload);
    buttons->addWidget(m_token);
    buttons->addStretch(1);
    top->addLayout(buttons);
    m_token->hide();
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    // The header box takes the spare height; without header text its spacer does, keeping the
    // message at the top.
    auto* box = new QVBoxLayout;
    box->addWidget(m_picker, 1);
    m_picker->hide();
    box->addWidget(m_headerTitle);
    box->addWidget(m_header, 1);
    box->addStretch(0);
    layout->addLayout(box, 1);

    connect(reload, &QPushButton::clicked, this, &ErrorView::reloadRequested);
    connect(m_token, &QPushButton::clicked, this, &ErrorView::accessTokenRequested);
    connect(m_picker, &FolderModelPicker::openRequested, this, &ErrorView::openRequested);
}

void ErrorView::setResult(const LoadResult& result)
{
    if (!result.error) {
        m_message->clear();
        m_details->clear();
        return;
    }
    const Error& e = *result.error;
    const bool remote = RemoteLocation::isRemote(result.path);
    m_title->setText(remote                           ? tr("This URL cannot be opened")
                     : QFileInfo(result.path).isDir() ? tr("This folder cannot be opened")
                                                      : tr("This file cannot be opened"));
    m_token->setVisible(e.code == ErrorCode::AccessDenied);
    const int models = e.code == ErrorCode::SeveralModels && !remote ? m_picker->setFolder(result.path) : 0;
    m_picker->setVisible(models > 0);
    if (models > 0)
        m_title->setText(tr("This folder holds %1 models").arg(models));
    // Several models in a folder is a question to the user, not a broken file.
    m_icon->setPixmap(
        style()
            ->standardIcon(models > 0 ? QStyle::SP_MessageBoxInformation : QStyle::SP_MessageBoxCritical)
            .pixmap(48, 48));
    // The core's sentence first, then everything that locates it.
    QString message = e.message;
    if (!message.isEmpty())
        message[0] = message[0].toUpper();
    if (!message.endsWith(QLatin1Char('.')))
        message += QLatin1Char('.');
    // A message can quote a 10 MB tensor name; the label shows the start of it.
    m_message->setText(elideText(message, kToolTipChars));
    QStringList details;
    details << tr("Error code: %1").arg(errorCodeName(e.code));
    if (!e.file.isEmpty())
        details << (remote ? tr("URL: %1") : tr("File: %1")).arg(e.file);
    if (!e.tensor.isEmpty())
        details << tr("Tensor: %1").arg(itemText(e.tensor));
    if (e.offset)
        details << tr("Byte offset: %1").arg(formatGrouped(*e.offset));
    m_details->setText(details.join(QLatin1Char('\n')));
    m_details->setToolTip(toolTipText(e.toString()));
    if (result.headerText.isEmpty()) {
        m_headerTitle->setText((remote && e.code >= ErrorCode::IoError) || models > 0
                                   ? QString()
                                   : tr("No header text could be read from the file."));
    } else {
        const QString bytes = result.headerBytesShown == 1
                                  ? tr("1 byte")
                                  : tr("%1 bytes").arg(formatGrouped(result.headerBytesShown));
        m_headerTitle->setText(
            result.headerTextCut
                ? tr("What the header says (%1 read, re-indented; too large to show in full):").arg(bytes)
                : tr("What the header says (%1 read, re-indented):").arg(bytes));
    }
    m_header->setVisible(!result.headerText.isEmpty());
    m_header->setPlainText(QString::fromUtf8(result.headerText));
}

QString ErrorView::message() const
{
    return m_message->text();
}

QString ErrorView::details() const
{
    return m_details->text();
}

} // namespace ts::ui
