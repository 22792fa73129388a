#pragma once

#include <QMessageBox>

#include <functional>

namespace ts::ui {

// "Save changes to X before closing?" with Save / Discard / Cancel. A std::function so that
// tests can answer without a modal loop; the default shows the message box.
class UnsavedChangesPrompt {
public:
    using Ask = std::function<QMessageBox::StandardButton(QWidget* parent, const QString& name)>;
    static QMessageBox::StandardButton ask(QWidget* parent, const QString& name);
    // "Reload X and discard the unsaved edits?": true for Reload, false for Cancel.
    static bool confirmReload(QWidget* parent, const QString& name);
};

} // namespace ts::ui
