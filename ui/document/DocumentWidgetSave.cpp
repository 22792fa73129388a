// The saving half of DocumentWidget, apart from the loading and watching half so that both stay
// small (and so that two people can work on them at once).
#include "document/DocumentWidget.h"

#include "document/ReloadBanner.h"
#include "document/SaveJob.h"
#include "metadata/MetadataModel.h"
#include "metadata/MetadataView.h"
#include "window/Preferences.h"
#include "write/SaveJournal.h"
#include "write/SaveTarget.h"

#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
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
    return m_state == State::Loaded && m_result.model && m_result.model->capabilities().editMetadata;
}

std::optional<bool> DocumentWidget::askForce(const QString& target)
{
    // The core enforces the policy (SaveTarget); the window asks where the CLI wants --force.
    const SaveTarget where = SaveTarget::inspect(target);
    const auto plain = where.check(false);
    if (plain)
        return false;
    if (!where.check(true)) {
        emit saveFinished(false, plain.error().toString()); // refused whatever the answer (a cache blob)
        return std::nullopt;
    }
    const QString name = QFileInfo(target).fileName();
    const QString question = where.readOnly()
                                 ? tr("%1 is read-only. Replace it anyway? It stays read-only.").arg(name)
                                 : tr("%1 has %2 hard links. Save it as a new file under this name only? The "
                                      "other names keep the old "
                                      "contents.")
                                       .arg(name)
                                       .arg(where.hardLinks());
    const ConfirmForce ask = m_confirmForce ? m_confirmForce : [](QWidget* parent, const QString& text) {
        return QMessageBox::question(parent, DocumentWidget::tr("Replace File?"), text,
                                     QMessageBox::Yes | QMessageBox::Cancel,
                                     QMessageBox::Cancel) == QMessageBox::Yes;
    };
    if (!ask(this, question))
        return std::nullopt;
    return true;
}

bool DocumentWidget::isModified() const
{
    return !m_undo->isClean();
}

bool DocumentWidget::save(const QString& target)
{
    if (isSaving() || !isEditable())
        return false;
    const QString to = target.isEmpty() ? m_path : target;
    if (to == m_path && !isModified())
        return false;
    const std::optional<bool> force = askForce(to);
    if (!force)
        return false;
    std::optional<Metadata> metadata = m_metadata->model()->metadata();
    // Removing every key removes the section, as the reference writer does for metadata=None.
    if (metadata && metadata->isEmpty())
        metadata.reset();
    m_poll->stop();
    m_metadata->setEnabled(false);
    // The job keeps the file (and so its mapping) alive while it runs.
    m_save.start([file = m_result.model->safetensorsFile(), metadata = std::move(metadata), to,
                  slack = Preferences::headerSlack(), force = *force](
                     const JobControl&) { return SaveJob::run(file, metadata, to, slack, force); },
                 [this](const SaveOutcome& outcome) { onSaved(outcome); });
    emit stateChanged();
    return true;
}

void DocumentWidget::onSaved(const SaveOutcome& outcome)
{
    m_metadata->setEnabled(true);
    if (outcome.error) {
        const Error& error = *outcome.error;
        if (error.code == ErrorCode::FileChanged &&
            !QFileInfo::exists(SaveJournal::pathFor(outcome.target))) {
            // Another program saved the file since it was opened: never overwritten silently. The
            // banner explains, and Reload shows the file as it is now.
            m_banner->setMessage(
                tr("%1 changed on disk since it was opened, so your edits were not saved over it. "
                   "Reload to see the file as it is now (your edits are discarded), or use Save As "
                   "to keep them in another file.")
                    .arg(displayName()));
            m_banner->reloadButton()->setEnabled(QFileInfo::exists(m_path));
            m_banner->show();
        } else {
            m_poll->start();
        }
        emit stateChanged();
        emit saveFinished(false, error.toString());
        return;
    }
    const QFileInfo info(outcome.target);
    m_path = info.canonicalFilePath().isEmpty() ? info.absoluteFilePath() : info.canonicalFilePath();
    // Clean now, so that nothing asks to save while the reload runs; the reload then shows the
    // bytes on disk and starts a fresh history.
    m_undo->setClean();
    // Only the metadata was written: the tensors' bytes are the ones the last scan read.
    m_reloadAfterSave = true;
    const QString message =
        outcome.inPlace
            ? tr("Saved %1 in place (%2 bytes written).").arg(info.fileName()).arg(outcome.bytesWritten)
            : tr("Saved %1 (full rewrite: %2).").arg(info.fileName(), outcome.whyNotInPlace);
    reload();
    emit saveFinished(true, message);
}

} // namespace ts::ui
