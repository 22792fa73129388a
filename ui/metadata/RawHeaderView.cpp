#include "metadata/RawHeaderView.h"

#include "base/Format.h"
#include "document/LoadResult.h"
#include "metadata/JsonPretty.h"

#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextCursor>
#include <QTextDocument>
#include <QVBoxLayout>

namespace ts::ui {

RawHeaderView::RawHeaderView(QWidget* parent)
    : QWidget(parent), m_note(new QLabel(this)), m_search(new QLineEdit(this)), m_status(new QLabel(this)),
      m_text(new QPlainTextEdit(this))
{
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_search->setPlaceholderText(tr("Search the header"));
    m_search->setClearButtonEnabled(true);
    auto* previous = new QPushButton(tr("Previous"), this);
    auto* next = new QPushButton(tr("Next"), this);
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setUndoRedoEnabled(false);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_search, 1);
    bar->addWidget(previous);
    bar->addWidget(next);
    bar->addWidget(m_status);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_note);
    layout->addLayout(bar);
    layout->addWidget(m_text, 1);

    connect(m_search, &QLineEdit::returnPressed, this, [this] { findNext(false); });
    connect(next, &QPushButton::clicked, this, [this] { findNext(false); });
    connect(previous, &QPushButton::clicked, this, [this] { findNext(true); });
    connect(m_search, &QLineEdit::textChanged, m_status, &QLabel::clear);
}

void RawHeaderView::setHeader(const LoadResult& result)
{
    m_text->clear();
    m_pending = QByteArray();
    m_deferred.reset();
    if (result.headerDeferred) {
        // Read and laid out on first use (fill()), with the note that describes what was read.
        m_deferred = std::make_shared<LoadResult>();
        m_deferred->path = result.path;
        m_deferred->model = result.model;
        m_note->setText(tr("The header is read and laid out when this page is shown."));
    } else {
        m_pending = result.headerText;
        showNote(result);
    }
    if (isVisible())
        fill();
}

void RawHeaderView::showNote(const LoadResult& result) const
{
    QString note;
    if (result.headerSource.isEmpty()) {
        note = tr("No header could be read.");
    } else if (result.headerIsDisassembly) {
        note = tr("Pickle of %1: %2 bytes, disassembled as Python's pickletools shows it; the numbers on the "
                  "left "
                  "are byte offsets in the file. Nothing in it was run.")
                   .arg(QFileInfo(result.headerSource).fileName(), formatGrouped(result.headerBytesTotal));
    } else {
        note = tr("Header of %1: %2 bytes")
                   .arg(QFileInfo(result.headerSource).fileName(), formatGrouped(result.headerBytesTotal));
        if (result.headerBytesShown < result.headerBytesTotal)
            note += tr(", of which the first %1 are shown").arg(formatBytes(result.headerBytesShown));
        if (result.headerTextCut)
            note += tr("; laid out, it is too large to show in full");
        if (result.model && result.model->parts().size() > 1)
            note += tr(" (first of %1 shards)").arg(result.model->parts().size());
        note += tr(". Re-indented for reading; keys and numbers are exactly as in the file.");
        if (result.headerTextShortened)
            note += tr(" Very long lines are shortened, and nesting deeper than %1 levels is not indented "
                       "further.")
                        .arg(kPrettyJsonMaxIndentLevels);
    }
    m_note->setText(note);
}

void RawHeaderView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    fill();
}

void RawHeaderView::fill() const
{
    if (m_deferred) {
        const std::shared_ptr<LoadResult> facts = std::move(m_deferred);
        m_deferred.reset();
        readHeaderText(*facts);
        showNote(*facts);
        m_pending = facts->headerText;
    }
    if (m_pending.isNull())
        return;
    m_text->setPlainText(QString::fromUtf8(m_pending));
    m_pending = QByteArray();
}

QPlainTextEdit* RawHeaderView::text() const
{
    fill();
    return m_text;
}

bool RawHeaderView::findNext(bool backward)
{
    fill();
    const QString needle = m_search->text();
    if (needle.isEmpty())
        return false;
    QTextDocument::FindFlags flags;
    if (backward)
        flags |= QTextDocument::FindBackward;
    if (m_text->find(needle, flags)) {
        m_status->clear();
        return true;
    }
    // Wrap around once.
    QTextCursor cursor = m_text->textCursor();
    cursor.movePosition(backward ? QTextCursor::End : QTextCursor::Start);
    m_text->setTextCursor(cursor);
    const bool found = m_text->find(needle, flags);
    m_status->setText(found ? tr("Wrapped") : tr("Not found"));
    return found;
}

void RawHeaderView::focusSearch()
{
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

} // namespace ts::ui
