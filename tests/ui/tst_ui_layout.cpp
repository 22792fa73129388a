// What a 1280x820 window shows, at scale 1 and (the same binary run with QT_SCALE_FACTOR=2, see
// CMakeLists) at scale 2: the tensor tree keeps Parameters and Bytes in view while a tensor's
// details take the right of the page, and the audit list's short columns are not cut to "wa...".
#include "Fixtures.h"
#include "charts/HeatmapPanel.h"
#include "document/DocumentWidget.h"
#include "summary/SummaryView.h"
#include "tensor/StatsPanel.h"
#include "tensor/TensorBrowser.h"
#include "tensor/TensorDetailsView.h"
#include "tensor/TensorTreeModel.h"
#include "window/MainWindow.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTest>
#include <QTreeView>

using namespace ts;
using namespace ts::ui;

namespace {

// Whether column c of a view lies wholly inside its viewport, unscrolled.
bool columnInView(const QTreeView* view, int c)
{
    return view->horizontalScrollBar()->value() == 0 &&
           view->columnViewportPosition(c) + view->columnWidth(c) <= view->viewport()->width();
}

} // namespace

class TestUiLayout : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        TS_REQUIRE_SHARED_FIXTURES();
        QStandardPaths::setTestModeEnabled(true);
    }

    void treeKeepsParametersAndBytesBesideTheDetails()
    {
        MainWindow window;
        window.resize(1280, 820);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        DocumentWidget* doc =
            window.openPath(ts::test::realFixture(QStringLiteral("age_gender_anomalies_f32.safetensors")));
        QTRY_VERIFY_WITH_TIMEOUT(doc->state() == DocumentWidget::State::Loaded, 10000);
        doc->showPage(DocumentWidget::TensorsPage);
        QVERIFY(doc->selectTensor(QStringLiteral("fc.age.weights")));
        auto* view = doc->tensorBrowser()->findChild<QTreeView*>(QStringLiteral("tree"));
        QVERIFY(view);
        // The details take their width once the tensor's statistics and plots arrived: wait for
        // every job, then let the layouts that queued settle before measuring.
        auto* stats = doc->findChild<StatsPanel*>();
        auto* heatmap = doc->findChild<HeatmapPanel*>();
        QVERIFY(stats && heatmap);
        QTRY_VERIFY_WITH_TIMEOUT(!stats->isComputing() && !stats->value(QStringLiteral("count")).isEmpty(),
                                 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!heatmap->isComputing() && heatmap->grid().rows > 0, 20000);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QVERIFY(doc->tensorBrowser()->details()->width() > window.width() / 3);
        for (int c :
             {TensorTreeModel::NameColumn, TensorTreeModel::ParametersColumn, TensorTreeModel::BytesColumn})
            QVERIFY2(columnInView(view, c), qPrintable(QStringLiteral("column %1: at %2 + %3, viewport %4")
                                                           .arg(c)
                                                           .arg(view->columnViewportPosition(c))
                                                           .arg(view->columnWidth(c))
                                                           .arg(view->viewport()->width())));
    }

    void auditColumnsShowTheirText()
    {
        MainWindow window;
        window.resize(1280, 820);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        DocumentWidget* doc =
            window.openPath(ts::test::realFixture(QStringLiteral("age_gender_anomalies_f32.safetensors")));
        QTRY_VERIFY_WITH_TIMEOUT(doc->state() == DocumentWidget::State::Loaded, 10000);
        doc->showPage(DocumentWidget::SummaryPage);
        auto* audit = doc->summaryView()->findChild<QTreeView*>(QStringLiteral("audit"));
        QVERIFY(audit);
        // The NaN/Inf check runs on open for a model this small: wait for its findings.
        QTRY_VERIFY_WITH_TIMEOUT(audit->model()->rowCount() >= 2, 10000);
        const QFontMetrics fm = audit->fontMetrics();
        for (int c = 0; c < audit->model()->columnCount(); ++c) {
            const QString header = audit->model()->headerData(c, Qt::Horizontal).toString();
            if (header == QLatin1String("Message"))
                continue; // the long column: it takes the rest and elides
            for (int r = 0; r < audit->model()->rowCount(); ++r) {
                const QString text = audit->model()->index(r, c).data().toString();
                const int icon = audit->model()->index(r, c).data(Qt::DecorationRole).isNull()
                                     ? 0
                                     : audit->iconSize().width() + 8;
                QVERIFY2(audit->columnWidth(c) >= fm.horizontalAdvance(text) + icon,
                         qPrintable(QStringLiteral("%1 \"%2\": %3 px for %4 px of text")
                                        .arg(header, text)
                                        .arg(audit->columnWidth(c))
                                        .arg(fm.horizontalAdvance(text) + icon)));
            }
        }
    }
};

QTEST_MAIN(TestUiLayout)
#include "tst_ui_layout.moc"
