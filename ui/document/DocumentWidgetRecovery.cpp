// The recovery half of DocumentWidget: what interrupted saves left beside the model's files. A
// load only reports them (reading never writes); these are the explicit acts the user chooses.
#include "document/DocumentWidget.h"

#include "document/JournalBanner.h"
#include "document/UnsavedChangesPrompt.h"
#include "write/AtomicFile.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

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
    if (m_saving)
        return;
    // A restore changes the file: edits of what is shown now would be lost by the reload.
    const ConfirmDiscard ask = m_confirmDiscard ? m_confirmDiscard : &UnsavedChangesPrompt::confirmReload;
    if (isModified() && !ask(this, displayName()))
        return;
    m_journalBanner->setEnabled(false);
    // Off the UI thread: the restore waits for the file's save lock, which another process may hold.
    auto* watcher = new QFutureWatcher<Result<JournalInspection>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        watcher->deleteLater();
        m_journalBanner->setEnabled(true);
        const Result<JournalInspection> r = watcher->result();
        if (!r) {
            m_journalBanner->setStatus(tr("Not restored: %1").arg(r.error().toString()));
            return;
        }
        reload();
    });
    const QString file = journal.file;
    watcher->setFuture(QtConcurrent::run([file] { return SaveJournal::restore(file); }));
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
    if (!m_result.model || m_saving)
        return 0;
    int removed = 0;
    // Only the temporaries of this model's own files, whose writers are gone (AtomicFile's rule).
    for (const QString& file : m_result.model->files())
        removed += AtomicFile::removeStaleTemporaries(file);
    requestReload();
    return removed;
}

} // namespace ts::ui
