// The comparison tab (ui/compare) on real fixtures with planted changes: opened through the window
// as a page, it lists the one changed tensor with the changed element's index, fills the detail
// plots, the layer chart and the metadata diff, estimates a planted rank-4 update as rank 4 on
// request, says why when a file cannot be compared, and stops on Cancel.

#include "../diff/DiffTestFiles.h"
#include "compare/CompareAction.h"
#include "compare/CompareFilterProxy.h"
#include "compare/CompareLayerChart.h"
#include "compare/CompareTableModel.h"
#include "compare/CompareView.h"
#include "compare/DiffHeatmapPlot.h"
#include "compare/DiffHistogramPlot.h"
#include "compare/MetadataDiffModel.h"
#include "compare/PairDetailPanel.h"
#include "diff/FlatIndex.h"
#include "window/MainWindow.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace ts;
using namespace ts::difftest;
using namespace ts::ui;

namespace {

const QString kLandmarks = QStringLiteral("face_landmark_68_f32.safetensors");
const QString kTarget = QStringLiteral("dense3.conv3.pointwise_filter");

// Waits for the view's comparison to end; true when it finished with a report.
bool finished(CompareView& view)
{
    QSignalSpy spy(&view, &CompareView::finished);
    if (!view.isRunning() && view.report())
        return true;
    if (!spy.wait(60000))
        return false;
    return spy.front().front().toBool();
}

bool detailShown(PairDetailPanel& detail)
{
    return QTest::qWaitFor([&detail] { return !detail.isComputing(); }, 30000);
}

} // namespace

class TestUiCompare : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void menuActionIsInTheFileMenu();
    void openedAsAWindowPageListsTheChange();
    void rankFourUpdateIsEstimatedOnRequest();
    void unreadableFileIsASentence();
    void cancelStopsTheComparison();

private:
    QString path(const QString& name) const { return m_dir.filePath(name); }
    QTemporaryDir m_dir;
    std::uint64_t m_planted = 0;
    std::vector<std::uint64_t> m_shape;
};

void TestUiCompare::initTestCase()
{
    QVERIFY(m_dir.isValid());
    REQUIRE_DIFF_FIXTURE(fixture(kLandmarks));
    // One element of one tensor changed and the metadata rewritten.
    Metadata m;
    m.set(QStringLiteral("source"), QStringLiteral("edited"));
    QVERIFY(rewrite(
        fixture(kLandmarks), path(QStringLiteral("one.safetensors")),
        [&](QString& name, Dtype&, std::vector<std::uint64_t>& s, QByteArray& bytes) {
            if (name != kTarget)
                return;
            m_shape = s;
            std::vector<float> v = floats(bytes);
            m_planted = v.size() - 7;
            v[m_planted] += 0.25f;
            bytes = floatBytes(v);
        },
        std::optional<Metadata>(m)));
    QVERIFY(!m_shape.empty());
}

void TestUiCompare::menuActionIsInTheFileMenu()
{
    MainWindow window;
    QAction* compare = nullptr;
    for (QAction* menu : window.menuBar()->actions()) {
        if (!menu->menu())
            continue;
        for (QAction* a : menu->menu()->actions()) {
            if (a->text().remove(QLatin1Char('&')).startsWith(QStringLiteral("Compare With")))
                compare = a;
        }
    }
    QVERIFY(compare);
    // A comparison needs no open model: the dialog asks for both files.
    QVERIFY(compare->isEnabled());
}

void TestUiCompare::openedAsAWindowPageListsTheChange()
{
    MainWindow window;
    window.resize(1280, 820);
    window.show();
    const int tabsBefore = window.tabs()->count();
    CompareView* view =
        openComparison(&window, fixture(kLandmarks), path(QStringLiteral("one.safetensors")), {});
    QCOMPARE(window.tabs()->count(), tabsBefore + 1);
    QCOMPARE(window.tabs()->currentWidget(), view);
    QVERIFY(
        window.tabs()->tabText(window.tabs()->currentIndex()).contains(QStringLiteral("one.safetensors")));
    QVERIFY(finished(*view));
    QAbstractItemModelTester tester(view->tableModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);

    // Identical pairs are hidden: the one changed tensor is the only row, selected.
    QCOMPARE(view->proxy()->rowCount(), 1);
    const QModelIndex name = view->proxy()->index(0, CompareTableModel::TensorColumn);
    QCOMPARE(name.data().toString(), kTarget);
    QCOMPARE(view->proxy()->index(0, CompareTableModel::AtColumn).data().toString(),
             diff::indexText(m_shape, m_planted));
    QCOMPARE(view->tableView()->currentIndex().row(), 0);
    QVERIFY2(view->summaryText().contains(QStringLiteral("1 changed")), qPrintable(view->summaryText()));
    QVERIFY2(view->summaryText().contains(QStringLiteral("1 sparse edit")), qPrintable(view->summaryText()));

    // The selected pair's detail: its metrics with the index, the histograms, the heatmap.
    PairDetailPanel* detail = view->detail();
    QVERIFY(detailShown(*detail));
    QVERIFY2(detail->metricsText().contains(diff::indexText(m_shape, m_planted)),
             qPrintable(detail->metricsText()));
    QCOMPARE(detail->valuesPlot()->seriesCount(), 2); // A and B over one range
    QCOMPARE(detail->diffPlot()->seriesCount(), 1);   // B - A
    QVERIFY(detail->diffPlot()->plottedTotal(0) > 0);
    QVERIFY(detail->heatmap()->grid().rows > 0);
    QCOMPARE(detail->heatmap()->grid().absmax, 0.25); // max-|x| pooling keeps the one element

    // With identical pairs shown, every tensor of the model has a row.
    view->showIdenticalBox()->setChecked(true);
    QCOMPARE(view->proxy()->rowCount(), static_cast<int>(open(fixture(kLandmarks))->tensors().size()));

    // The layer chart has points; the metadata diff lists the changed key and the removed ones.
    QVERIFY(view->layerChart()->pointCount() > 0);
    bool sourceChanged = false;
    for (int row = 0; row < view->metadataModel()->rowCount(); ++row) {
        const QString key = view->metadataModel()->index(row, 0).data().toString();
        sourceChanged = sourceChanged || key == QStringLiteral("source");
    }
    QVERIFY(sourceChanged);
}

void TestUiCompare::rankFourUpdateIsEstimatedOnRequest()
{
    constexpr std::size_t rows = 256, cols = 512, rank = 4;
    const std::vector<float> base = gaussian(rows * cols, 0.05f, 1);
    const std::vector<float> u = gaussian(rows * rank, 0.1f, 2);
    const std::vector<float> v = gaussian(rank * cols, 0.1f, 3);
    std::vector<float> merged = base;
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j)
            for (std::size_t k = 0; k < rank; ++k)
                merged[i * cols + j] += u[i * rank + k] * v[k * cols + j];
    const QString w = QStringLiteral("layers.0.attn.q_proj.weight");
    QVERIFY(writeMatrices(path(QStringLiteral("base.safetensors")), {{w, base}}, rows, cols));
    QVERIFY(writeMatrices(path(QStringLiteral("lora.safetensors")), {{w, merged}}, rows, cols));

    CompareView view;
    view.start(path(QStringLiteral("base.safetensors")), path(QStringLiteral("lora.safetensors")));
    QVERIFY(finished(view));
    PairDetailPanel* detail = view.detail();
    QVERIFY(detailShown(*detail));
    QCOMPARE(detail->rankText(), QStringLiteral("Not estimated yet."));
    QVERIFY(detail->rankButton()->isEnabled());
    QSignalSpy done(detail, &PairDetailPanel::rankFinished);
    QTest::mouseClick(detail->rankButton(), Qt::LeftButton);
    QVERIFY(done.wait(60000));
    QVERIFY2(detail->rankText().startsWith(QStringLiteral("Rank 4 of 256 \u00d7 512")),
             qPrintable(detail->rankText()));
    // The table's kind column follows the estimate.
    QCOMPARE(view.proxy()->index(0, CompareTableModel::KindColumn).data().toString(),
             QStringLiteral("rank 4"));
}

void TestUiCompare::unreadableFileIsASentence()
{
    QFile bad(path(QStringLiteral("bad.safetensors")));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("\x10\x00\x00\x00\x00\x00\x00\x00{not json at all", 24);
    bad.close();
    CompareView view;
    QSignalSpy spy(&view, &CompareView::finished);
    view.start(fixture(kLandmarks), bad.fileName());
    QVERIFY(spy.wait(30000));
    QCOMPARE(spy.front().front().toBool(), false);
    QVERIFY2(view.summaryText().startsWith(QStringLiteral("The comparison stopped: ")),
             qPrintable(view.summaryText()));
    QVERIFY2(view.summaryText().contains(QStringLiteral("bad.safetensors")), qPrintable(view.summaryText()));
    QCOMPARE(view.tableModel()->rowCount(), 0);
}

void TestUiCompare::cancelStopsTheComparison()
{
    CompareView view;
    QSignalSpy spy(&view, &CompareView::finished);
    view.start(fixture(kLandmarks), path(QStringLiteral("one.safetensors")));
    QVERIFY(view.isRunning());
    QVERIFY(view.cancelButton()->isVisibleTo(&view));
    QTest::mouseClick(view.cancelButton(), Qt::LeftButton);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.front().front().toBool(), false);
    QVERIFY(!view.isRunning());
    QVERIFY(!view.cancelButton()->isVisibleTo(&view));
    QCOMPARE(view.tableModel()->rowCount(), 0);
    // The cancelled job's report never arrives, even once its worker ends.
    QVERIFY(!spy.wait(1000));
    QCOMPARE(view.tableModel()->rowCount(), 0);
    QVERIFY(!view.report());
}

QTEST_MAIN(TestUiCompare)
#include "tst_ui_compare.moc"
