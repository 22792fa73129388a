#include "UnsavedChangesPrompt.h"

#include <QCoreApplication>

namespace ts::ui {

QMessageBox::StandardButton UnsavedChangesPrompt::ask(QWidget* parent, const QString& name)
{
    QMessageBox box(QMessageBox::Warning,
                    QCoreApplication::translate("ts::ui::UnsavedChangesPrompt", "Unsaved Changes"),
                    QCoreApplication::translate("ts::ui::UnsavedChangesPrompt",
                                                "The metadata of %1 has been edited. Save the changes?")
                        .arg(name),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, parent);
    box.setInformativeText(QCoreApplication::translate("ts::ui::UnsavedChangesPrompt",
                                                       "Discarded edits cannot be recovered."));
    box.setDefaultButton(QMessageBox::Save);
    box.setEscapeButton(QMessageBox::Cancel);
    return static_cast<QMessageBox::StandardButton>(box.exec());
}

} // namespace ts::ui
