#include "document/UnsavedChangesPrompt.h"

#include <QCoreApplication>
#include <QPushButton>

namespace ts::ui {

QMessageBox::StandardButton UnsavedChangesPrompt::ask(QWidget* parent, const QString& name)
{
    QMessageBox box(QMessageBox::Warning,
                    QCoreApplication::translate("ts::ui::UnsavedChangesPrompt", "Unsaved Changes"),
                    QCoreApplication::translate("ts::ui::UnsavedChangesPrompt",
                                                "The metadata of %1 has been edited. Save the changes?")
                        .arg(name),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, parent);
    box.setInformativeText(
        QCoreApplication::translate("ts::ui::UnsavedChangesPrompt", "Discarded edits cannot be recovered."));
    box.setDefaultButton(QMessageBox::Save);
    box.setEscapeButton(QMessageBox::Cancel);
    return static_cast<QMessageBox::StandardButton>(box.exec());
}

bool UnsavedChangesPrompt::confirmReload(QWidget* parent, const QString& name)
{
    QMessageBox box(
        QMessageBox::Warning,
        QCoreApplication::translate("ts::ui::UnsavedChangesPrompt", "Reload and Discard Edits?"),
        QCoreApplication::translate("ts::ui::UnsavedChangesPrompt",
                                    "Reloading shows %1 as it is on disk: your unsaved metadata edits "
                                    "will be lost.")
            .arg(name),
        QMessageBox::Cancel, parent);
    QPushButton* reload =
        box.addButton(QCoreApplication::translate("ts::ui::UnsavedChangesPrompt", "Discard and Reload"),
                      QMessageBox::DestructiveRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.setEscapeButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == reload;
}

} // namespace ts::ui
