#include "compare/CompareAction.h"

#include "compare/CompareDialog.h"
#include "compare/CompareView.h"
#include "document/DocumentWidget.h"
#include "window/MainWindow.h"

#include <QAction>
#include <QMenu>

namespace ts::ui {

CompareView* openComparison(MainWindow* window, const QString& a, const QString& b,
                            const diff::DiffOptions& options)
{
    auto* view = new CompareView;
    view->start(a, b, options);
    window->addPage(view, view->title(), view->toolTip());
    return view;
}

QAction* addCompareAction(MainWindow* window, QMenu* menu)
{
    QAction* compare = menu->addAction(QObject::tr("Co&mpare With\u2026"), window, [window] {
        const DocumentWidget* doc = window->currentDocument();
        CompareDialog dialog(doc ? doc->path() : QString(), window);
        if (dialog.exec() != QDialog::Accepted)
            return;
        openComparison(window, dialog.pathA(), dialog.pathB(), dialog.options());
    });
    compare->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    compare->setStatusTip(
        QObject::tr("What differs between two models: tensors, values, kinds of change, metadata."));
    return compare;
}

} // namespace ts::ui
