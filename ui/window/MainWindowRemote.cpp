// The window's side of models on servers: File > Open URL and what a document read from a URL
// asks of the window.
#include "window/MainWindow.h"

#include "document/DocumentWidget.h"
#include "network/OpenUrlDialog.h"
#include "window/Preferences.h"

namespace ts::ui {

void MainWindow::openUrlDialog()
{
    OpenUrlDialog dialog(this);
    if (dialog.exec() == QDialog::Accepted && !dialog.url().isEmpty())
        openPath(dialog.url());
}

void MainWindow::watchRemote(DocumentWidget* doc)
{
    // The error page's Access Token button: Preferences, then the model again with what was set.
    connect(doc, &DocumentWidget::accessTokenRequested, this, [this, doc] {
        PreferencesDialog dialog(this);
        if (dialog.exec() == QDialog::Accepted)
            doc->reload();
    });
}

} // namespace ts::ui
