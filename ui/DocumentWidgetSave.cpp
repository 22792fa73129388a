// The saving half of DocumentWidget, apart from the loading and watching half so that both stay
// small (and so that two people can work on them at once).
#include "DocumentWidget.h"

#include "MetadataModel.h"
#include "MetadataView.h"
#include "Preferences.h"
#include "SaveJob.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QTimer>
#include <QUndoStack>

namespace ts::ui {

DocumentWidget::~DocumentWidget()
{
    // The stack reports "clean" while it is destroyed with the children; a half-destroyed
    // document must not pass that on to the window.
    m_undo->disconnect(this);
}

bool DocumentWidget::isEditable() const
{
    return m_state == State::Loaded && m_result.model && !m_result.model->isSharded() &&
           m_result.model->shards().size() == 1;
}

bool DocumentWidget::isModified() const
{
    return !m_undo->isClean();
}

bool DocumentWidget::save(const QString& target)
{
    if (m_saving || !isEditable())
        return false;
    const QString to = target.isEmpty() ? m_path : target;
    if (to == m_path && !isModified())
        return false;
    std::optional<Metadata> metadata = m_metadata->model()->metadata();
    // Removing every key removes the section, as the reference writer does for metadata=None.
    if (metadata && metadata->isEmpty())
        metadata.reset();
    m_saving = true;
    m_poll->stop();
    m_metadata->setEnabled(false);
    const quint64 job = ++m_saveJob;
    auto* watcher = new QFutureWatcher<SaveOutcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, job, watcher] {
        watcher->deleteLater();
        onSaved(job, watcher->result());
    });
    watcher->setFuture(SaveJob::start(m_result.model->shards().front(), std::move(metadata), to,
                                      Preferences::headerSlack()));
    emit stateChanged();
    return true;
}

void DocumentWidget::onSaved(quint64 job, const SaveOutcome& outcome)
{
    if (job != m_saveJob)
        return;
    m_saving = false;
    m_metadata->setEnabled(true);
    if (!outcome.ok) {
        m_poll->start();
        emit stateChanged();
        emit saveFinished(false, outcome.error);
        return;
    }
    const QFileInfo info(outcome.target);
    m_path = info.canonicalFilePath().isEmpty() ? info.absoluteFilePath() : info.canonicalFilePath();
    // Clean now, so that nothing asks to save while the reload runs; the reload then shows the
    // bytes on disk and starts a fresh history.
    m_undo->setClean();
    const QString message =
        outcome.inPlace
            ? tr("Saved %1 in place (%2 bytes written).").arg(info.fileName()).arg(outcome.bytesWritten)
            : tr("Saved %1 (full rewrite: %2).").arg(info.fileName(), outcome.whyNotInPlace);
    reload();
    emit saveFinished(true, message);
}

} // namespace ts::ui
