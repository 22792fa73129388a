// The editing half of MainWindow: Save, Save As, undo and redo, preferences, and the
// unsaved-changes prompt before a tab or the window closes.
#include "window/MainWindow.h"

#include "document/DocumentWidget.h"
#include "window/Preferences.h"

#include <QAction>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QPointer>
#include <QProgressBar>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoGroup>
#include <QUndoStack>

#include <memory>

namespace ts::ui {

void MainWindow::createEditingActions(QMenu* file, QAction* beforeInFile, QMenu* edit, QAction* beforeInEdit)
{
    m_undoGroup = new QUndoGroup(this);
    m_save = new QAction(tr("&Save"), this);
    m_save->setShortcut(QKeySequence::Save);
    connect(m_save, &QAction::triggered, this, &MainWindow::saveCurrent);
    m_saveAs = new QAction(tr("Save &As\u2026"), this);
    m_saveAs->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    connect(m_saveAs, &QAction::triggered, this, &MainWindow::saveCurrentAs);
    file->insertAction(beforeInFile, m_save);
    file->insertAction(beforeInFile, m_saveAs);
    file->insertSeparator(beforeInFile);

    QAction* undo = m_undoGroup->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_undoGroup->createRedoAction(this, tr("&Redo"));
    // Ctrl+Shift+Z everywhere, and Ctrl+Y for those used to it.
    redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    edit->insertAction(beforeInEdit, undo);
    edit->insertAction(beforeInEdit, redo);
    edit->insertSeparator(beforeInEdit);
    edit->addSeparator();
    QAction* preferences = edit->addAction(tr("&Preferences\u2026"), this, &MainWindow::showPreferences);
    preferences->setMenuRole(QAction::PreferencesRole);
}

void MainWindow::watchEditing(DocumentWidget* doc)
{
    m_undoGroup->addStack(doc->undoStack());
    connect(doc, &DocumentWidget::modifiedChanged, this, [this, doc] {
        if (const int i = m_tabs->indexOf(doc); i >= 0)
            m_tabs->setTabText(i, tabTitle(doc));
        if (doc == currentDocument())
            updateWindowState();
    });
    connect(doc, &DocumentWidget::saveFinished, this, [this, doc](bool ok, const QString& message) {
        if (const int i = m_tabs->indexOf(doc); i >= 0)
            m_tabs->setTabToolTip(i, doc->path());
        if (ok) {
            statusBar()->showMessage(message, 8000);
            return;
        }
        // Not modal: a failed save must not stop the window (or a test) in a nested event loop.
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Save Failed"),
                                    tr("The metadata could not be saved."), QMessageBox::Ok, this);
        box->setInformativeText(message);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
}

QString MainWindow::tabTitle(DocumentWidget* doc) const
{
    return doc->isModified() ? doc->displayName() + QStringLiteral(" \u2022") : doc->displayName();
}

void MainWindow::updateEditingState(DocumentWidget* doc)
{
    // No undo while a save runs: the save writes the metadata as it was when it started.
    m_undoGroup->setActiveStack(doc && !doc->isSaving() ? doc->undoStack() : nullptr);
    m_save->setEnabled(doc && doc->isEditable() && doc->isModified() && !doc->isSaving());
    m_saveAs->setEnabled(doc && doc->isEditable() && !doc->isSaving());
}

void MainWindow::saveCurrent()
{
    if (DocumentWidget* doc = currentDocument())
        doc->save();
}

void MainWindow::saveCurrentAs()
{
    DocumentWidget* doc = currentDocument();
    if (!doc || !doc->isEditable())
        return;
    const QString target = QFileDialog::getSaveFileName(this, tr("Save Model As"), doc->path(),
                                                        tr("Safetensors models (*.safetensors)"));
    if (!target.isEmpty())
        doc->save(target);
}

void MainWindow::showPreferences()
{
    PreferencesDialog dialog(this);
    dialog.exec();
}

bool MainWindow::confirmClose(const QList<DocumentWidget*>& docs, const std::function<void()>& then)
{
    // Ask about every document first, so that a Cancel on the last one changes nothing.
    QList<QPointer<DocumentWidget>> toSave;
    for (DocumentWidget* doc : docs) {
        if (doc->isSaving()) {
            statusBar()->showMessage(
                tr("%1 is being saved; close it when the save has finished.").arg(doc->displayName()), 8000);
            return false;
        }
        if (!doc->isModified())
            continue;
        m_tabs->setCurrentWidget(doc);
        const QMessageBox::StandardButton answer = m_askUnsaved(this, doc->displayName());
        if (answer == QMessageBox::Save)
            toSave << doc;
        else if (answer != QMessageBox::Discard)
            return false;
    }
    if (toSave.isEmpty())
        return true;
    auto pending = std::make_shared<int>(static_cast<int>(toSave.size()));
    auto failed = std::make_shared<bool>(false);
    for (const QPointer<DocumentWidget>& doc : std::as_const(toSave)) {
        connect(
            doc, &DocumentWidget::saveFinished, this,
            [pending, failed, then](bool ok) {
                *failed = *failed || !ok;
                if (--*pending == 0 && !*failed)
                    then();
            },
            Qt::SingleShotConnection);
        if (!doc->save()) {
            *failed = true;
            --*pending;
        }
    }
    return false;
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QList<DocumentWidget*> docs;
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (DocumentWidget* doc = document(i))
            docs << doc;
    }
    if (m_closeConfirmed || confirmClose(docs, [this] {
            m_closeConfirmed = true;
            close();
        })) {
        rememberOnClose();
        event->accept();
        return;
    }
    event->ignore();
}

} // namespace ts::ui
