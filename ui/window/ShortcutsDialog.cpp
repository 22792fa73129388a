#include "window/ShortcutsDialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QRegularExpression>
#include <QSet>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ts::ui {
namespace {

// "&Open…" -> "Open": menu mnemonics and ellipses mean nothing in a list.
QString plainText(const QAction* action)
{
    QString text = action->text();
    text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
    text.remove(QChar(0x2026));
    return text;
}

QString menuOf(const QAction* action)
{
    const auto owners = action->associatedObjects();
    for (QObject* owner : owners) {
        if (auto* menu = qobject_cast<QMenu*>(owner))
            return plainText(menu->menuAction());
    }
    return {};
}

} // namespace

ShortcutsDialog::ShortcutsDialog(const QList<QAction*>& actions, QWidget* parent)
    : QDialog(parent), m_list(new QTreeWidget(this))
{
    setWindowTitle(tr("Keyboard Shortcuts"));
    m_list->setColumnCount(3);
    m_list->setHeaderLabels({tr("Action"), tr("Shortcut"), tr("Menu")});
    m_list->setRootIsDecorated(false);
    m_list->setAlternatingRowColors(true);
    QSet<QString> seen; // the same action text and keys from several open documents: listed once
    for (const QAction* action : actions) {
        const QList<QKeySequence> keys = action->shortcuts();
        if (keys.isEmpty() || action->text().isEmpty())
            continue;
        QStringList shown;
        for (const QKeySequence& key : keys)
            shown << key.toString(QKeySequence::NativeText);
        const QString text = plainText(action);
        const QString joined = shown.join(QStringLiteral(", "));
        if (seen.contains(text + joined))
            continue;
        seen.insert(text + joined);
        new QTreeWidgetItem(m_list, {text, joined, menuOf(action)});
    }
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_list);
    layout->addWidget(buttons);
    resize(520, 560);
}

} // namespace ts::ui
