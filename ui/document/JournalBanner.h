#pragma once

#include "write/SaveJournal.h"

#include "document/NoticeBar.h"

class QLabel;
class QPushButton;

namespace ts::ui {

// The bar a document shows when an interrupted save left a journal beside its file. Opening the
// file wrote nothing; this is where the user decides: Restore puts the header from
// before that save back (only offered when the journal matches the file), Keep current leaves the
// file and the journal as they are, Delete journal removes the journal and keeps the file.
class JournalBanner final : public NoticeBar {
    Q_OBJECT
public:
    explicit JournalBanner(QWidget* parent = nullptr);
    void setInspection(const JournalInspection& journal);
    const JournalInspection& inspection() const { return m_journal; }
    // A sentence under the description, e.g. why a restore failed.
    void setStatus(const QString& text);
    QString message() const;

    QPushButton* restoreButton() const { return m_restore; }
    QPushButton* keepButton() const { return m_keep; }
    QPushButton* deleteButton() const { return m_delete; }

signals:
    void restoreRequested(const JournalInspection& journal);
    void deleteRequested(const JournalInspection& journal);

private:
    JournalInspection m_journal;
    QLabel* m_label;
    QLabel* m_status;
    QPushButton* m_restore;
    QPushButton* m_keep;
    QPushButton* m_delete;
};

} // namespace ts::ui
