#pragma once

#include <QDialog>
#include <QList>

class QAction;
class QTreeWidget;

namespace ts::ui {

// Help > Keyboard Shortcuts: every action of the window that has a shortcut, read from the
// actions themselves when the dialog opens, so the list cannot drift from what the keys do.
class ShortcutsDialog final : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(const QList<QAction*>& actions, QWidget* parent = nullptr);
    QTreeWidget* list() const { return m_list; }

private:
    QTreeWidget* m_list;
};

} // namespace ts::ui
