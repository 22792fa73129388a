// The recovery half of DocumentWidget: what interrupted saves left beside the model's files. A
// load only reports them (reading never writes); these are the explicit acts the user chooses.
#include "document/DocumentWidget.h"

#include "document/JournalBanner.h"
#include "document/UnsavedChangesPrompt.h"
#include "write/AtomicFile.h"

namespace ts::ui {

void DocumentWidget::showJournals()
{
    if (m_result.journals.empty()) {
        m_journalBanner->hide();
        return;
    }
    // One at a time: after a restore or delete the reload shows the next one, if any.
    m_journalBanner->setInspection(m_result.journals.front());
    m_journalBanner->show();
}

void DocumentWidget::restoreJournal(const JournalInspection& journal)
{
    if (isSaving())
        return;
    // A restore changes the file: edits of what is shown now would be lost by the reload.
    const ConfirmDiscard ask = m_confirmDiscard ? m_confirmDiscard : &UnsavedChangesPrompt::confirmReload;
    if (isModified() && !ask(this, displayName()))
        return;
    m_journalBanner->setEnabled(false);
    // Off the UI thread: the restore waits for the file's save lock, which another process may hold.
    m_restore.start([file = journal.file](const JobControl&) { return SaveJournal::restore(file); },
                    [this](const Result<JournalInspection>& r) {
                        m_journalBanner->setEnabled(true);
                        if (!r) {
                            m_journalBanner->setStatus(tr("Not restored: %1").arg(r.error().toString()));
                            return;
                        }
                        reload();
                    });
}

void DocumentWidget::deleteJournal(const JournalInspection& journal)
{
    if (auto r = SaveJournal::remove(journal.file); !r) {
        m_journalBanner->setStatus(tr("Not deleted: %1").arg(r.error().toString()));
        return;
    }
    m_result.journals.erase(m_result.journals.begin());
    showJournals();
}

int DocumentWidget::removeLeftovers()
{
    if (!m_result.model || isSaving())
        return 0;
    int removed = 0;
    // Only the temporaries of this model's own files, whose writers are gone (AtomicFile's rule).
    for (const QString& file : m_result.model->files())
        removed += AtomicFile::removeStaleTemporaries(file);
    requestReload();
    return removed;
}

} // namespace ts::ui
