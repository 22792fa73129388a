// Walking to anomalies (#16 item 5) in a real window on a file the test writes: F3 moves the value
// grid's current cell and the heatmap's outlined element to each planted NaN, Inf and outlier in
// element order and wraps; Shift+F3 walks back; a 3-D tensor's walk changes planes; a step asked
// for before the positions are found is taken when they arrive; the kind filter walks one kind.

#include "UiTestUtils.h"
#include "charts/HeatmapPanel.h"
#include "charts/Plot.h"
#include "charts/QCustomPlotInclude.h"
#include "document/DocumentWidget.h"
#include "tensor/AnomalyNavigator.h"
#include "tensor/AxisPicker.h"
#include "tensor/StatsJob.h"
#include "tensor/TensorVisualsPanel.h"
#include "tensor/ValueGridModel.h"
#include "tensor/ValueGridPanel.h"
#include "window/MainWindow.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>

using namespace ts;
using namespace ts::ui;
using namespace ts::test;

namespace {

// "w", F32 [40, 50]: NaN at the first and the last element, +Inf, -Inf and an extreme outlier
// between. "cube", F32 [3, 20, 30]: one anomaly in each plane. "clean": none.
constexpr std::uint64_t kRows = 40, kCols = 50;
const std::vector<std::uint64_t> kMatrixShape{kRows, kCols};
const std::vector<std::uint64_t> kCubeShape{3, 20, 30};
const std::vector<std::uint64_t> kMatrixAnomalies{0, 777, 1234, 1500, kRows* kCols - 1};
const std::vector<std::uint64_t> kCubeAnomalies{5, 650, 1799};

bool writeAnomalies(const QString& path)
{
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> w = smallWeights(kRows * kCols, 0.5f);
    w[0] = std::nanf("");
    w[777] = inf;
    w[1234] = 5e4f;
    w[1500] = -inf;
    w[kRows * kCols - 1] = std::nanf("");
    std::vector<float> cube = smallWeights(3 * 20 * 30, 0.5f);
    cube[5] = std::nanf("");
    cube[650] = -7e4f;
    cube[1799] = -inf;
    return writeSafetensors(path,
                            {{QStringLiteral("w"), Dtype::F32, {kRows, kCols}, bytesOf(w)},
                             {QStringLiteral("cube"), Dtype::F32, {3, 20, 30}, bytesOf(cube)},
                             {QStringLiteral("clean"), Dtype::F32, {8, 8}, bytesOf(smallWeights(64, 0.5f))}});
}

// Near-black pixels on the left side of the ring the heatmap draws around element (row, col): a
// 5 px wide strip at column col - 1.5, from row - 1 to row + 1. The colour maps have no such dark.
int ringPixels(HeatmapPanel& heatmap, std::uint64_t row, std::uint64_t col)
{
    Plot* plot = heatmap.plot();
    const QImage image = plot->toPixmap(plot->width(), plot->height()).toImage();
    const int px = static_cast<int>(plot->xAxis->coordToPixel(static_cast<double>(col) - 1.5));
    const int y0 = static_cast<int>(plot->yAxis->coordToPixel(static_cast<double>(row) - 1));
    const int y1 = static_cast<int>(plot->yAxis->coordToPixel(static_cast<double>(row) + 1));
    int n = 0;
    for (int y = std::max(0, std::min(y0, y1)); y <= std::min(image.height() - 1, std::max(y0, y1)); ++y) {
        for (int x = std::max(0, px - 2); x <= std::min(image.width() - 1, px + 2); ++x)
            n += image.pixelColor(x, y).lightness() < 50;
    }
    return n;
}

} // namespace

// A failed check inside the helper ends the test function too.
#define EXPECT_AT(shape, flat)                                                                               \
    do {                                                                                                     \
        expectAt(window, shape, flat);                                                                       \
        if (QTest::currentTestFailed())                                                                      \
            return;                                                                                          \
    } while (false)

class TestUiAnomalies : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void f3WalksTheMatrixAndWraps();
    void f3ChangesPlanesInA3dTensor();
    void kindFilterAndCleanTensor();
    void walkGoesOnFromAnAuditFinding();
    void lateIndexOfAnotherTensorIsDropped();

private:
    // Opens the file in a shown, active window and selects `tensor`.
    bool open(MainWindow& window, const QString& tensor);
    TensorVisualsPanel* visuals(MainWindow& window) const
    {
        return window.currentDocument()->findChild<TensorVisualsPanel*>();
    }
    // Checks that the value grid's current cell and the heatmap's outlined element are at `flat`.
    void expectAt(MainWindow& window, const std::vector<std::uint64_t>& shape, std::uint64_t flat);

    QTemporaryDir m_dir;
    QString m_path;
};

void TestUiAnomalies::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    m_path = m_dir.filePath(QStringLiteral("anomalies.safetensors"));
    QVERIFY(writeAnomalies(m_path));
}

bool TestUiAnomalies::open(MainWindow& window, const QString& tensor)
{
    window.resize(1400, 900);
    window.show();
    if (!QTest::qWaitForWindowActive(&window))
        return false;
    DocumentWidget* doc = window.openPath(m_path);
    if (!QTest::qWaitFor([doc] { return doc->state() != DocumentWidget::State::Loading; }, 20000))
        return false;
    return doc->state() == DocumentWidget::State::Loaded && doc->selectTensor(tensor);
}

void TestUiAnomalies::expectAt(MainWindow& window, const std::vector<std::uint64_t>& shape,
                               std::uint64_t flat)
{
    TensorVisualsPanel* panel = visuals(window);
    const std::uint64_t cols = shape.back(), rows = shape[shape.size() - 2];
    const std::uint64_t plane = flat / (rows * cols);
    const auto row = static_cast<int>(flat / cols % rows), col = static_cast<int>(flat % cols);
    const QModelIndex current = panel->valueGrid()->view()->currentIndex();
    QVERIFY2(current.row() == row && current.column() == col,
             qPrintable(QStringLiteral("element %1: the grid is at (%2, %3), not (%4, %5)")
                            .arg(flat)
                            .arg(current.row())
                            .arg(current.column())
                            .arg(row)
                            .arg(col)));
    QCOMPARE(panel->valueGrid()->gridModel()->plane().base, plane * rows * cols);
    // The heatmap outlines the element, in its plane, and reads a window around it whole.
    HeatmapPanel* heatmap = panel->heatmap();
    const auto focused = heatmap->focusedCell();
    QVERIFY(focused);
    QCOMPARE(focused->row, std::uint64_t(row));
    QCOMPARE(focused->col, std::uint64_t(col));
    QTRY_VERIFY_WITH_TIMEOUT(!heatmap->isComputing() && heatmap->grid().rows > 0, 10000);
    const HeatmapGrid& g = heatmap->grid();
    QVERIFY(g.rowBegin <= std::uint64_t(row) && std::uint64_t(row) < g.rowBegin + g.srcRows);
    QVERIFY(g.colBegin <= std::uint64_t(col) && std::uint64_t(col) < g.colBegin + g.srcCols);
    QCOMPARE(std::uint64_t(g.rows), g.srcRows); // every element shown
    const std::vector<std::uint64_t> fixed = heatmap->axisPicker()->spec().fixed;
    QCOMPARE(fixed.empty() ? std::uint64_t{0} : fixed[0], plane);
}

void TestUiAnomalies::f3WalksTheMatrixAndWraps()
{
    MainWindow window;
    QVERIFY(open(window, QStringLiteral("w")));
    AnomalyNavigator* nav = visuals(window)->anomalies();
    QTRY_VERIFY_WITH_TIMEOUT(nav->index(), 20000);
    QCOMPARE(nav->index()->positions().size(), kMatrixAnomalies.size());
    QVERIFY2(nav->statusText().contains(QStringLiteral("2 NaN")), qPrintable(nav->statusText()));

    for (const std::uint64_t flat : kMatrixAnomalies) {
        QTest::keyClick(&window, Qt::Key_F3);
        EXPECT_AT(kMatrixShape, flat);
        if (flat == 777) { // (15, 27): the ring is drawn where a person looks for it
            QVERIFY2(ringPixels(*visuals(window)->heatmap(), 15, 27) > 10, "no ring around the element");
            QCOMPARE(ringPixels(*visuals(window)->heatmap(), 35, 10), 0); // and nowhere else
        }
    }
    QVERIFY2(nav->statusText().startsWith(QStringLiteral("NaN 2 of 2")), qPrintable(nav->statusText()));
    // Past the last: back to the first.
    QTest::keyClick(&window, Qt::Key_F3);
    EXPECT_AT(kMatrixShape, kMatrixAnomalies.front());
    QVERIFY2(nav->statusText().startsWith(QStringLiteral("NaN 1 of 2")), qPrintable(nav->statusText()));
    // Shift+F3 walks back, wrapping to the last.
    for (auto it = kMatrixAnomalies.rbegin(); it != kMatrixAnomalies.rend(); ++it) {
        QTest::keyClick(&window, Qt::Key_F3, Qt::ShiftModifier);
        EXPECT_AT(kMatrixShape, *it);
    }
    // The buttons are these actions (Help > Keyboard Shortcuts lists every action with a shortcut).
    QCOMPARE(nav->nextAction()->shortcut(), QKeySequence(Qt::Key_F3));
    QCOMPARE(nav->previousAction()->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F3));
    // Not a check: TS_UI_SCREENSHOT=out.png saves the window at the outlier, for a look.
    if (const QString shot = qEnvironmentVariable("TS_UI_SCREENSHOT"); !shot.isEmpty()) {
        window.resize(1280, 820);
        for (int i = 0; i < 2; ++i) // from the first anomaly to the outlier
            QTest::keyClick(&window, Qt::Key_F3);
        QTRY_VERIFY(!visuals(window)->heatmap()->isComputing());
        QTest::qWait(200);
        window.grab().save(shot);
    }
}

void TestUiAnomalies::f3ChangesPlanesInA3dTensor()
{
    MainWindow window;
    QVERIFY(open(window, QStringLiteral("cube")));
    AnomalyNavigator* nav = visuals(window)->anomalies();
    // Asked for at once: taken when the positions arrive.
    QTest::keyClick(&window, Qt::Key_F3);
    QTRY_VERIFY_WITH_TIMEOUT(nav->index(), 20000);
    QTRY_VERIFY(visuals(window)->valueGrid()->view()->currentIndex().isValid());
    EXPECT_AT(kCubeShape, kCubeAnomalies[0]);
    for (std::size_t i = 1; i < kCubeAnomalies.size(); ++i) {
        QTest::keyClick(&window, Qt::Key_F3);
        EXPECT_AT(kCubeShape, kCubeAnomalies[i]);
    }
    QTest::keyClick(&window, Qt::Key_F3, Qt::ShiftModifier);
    EXPECT_AT(kCubeShape, kCubeAnomalies[1]);
    QVERIFY2(nav->statusText().startsWith(QStringLiteral("Outlier 1 of 1")), qPrintable(nav->statusText()));
}

void TestUiAnomalies::kindFilterAndCleanTensor()
{
    MainWindow window;
    QVERIFY(open(window, QStringLiteral("w")));
    AnomalyNavigator* nav = visuals(window)->anomalies();
    QTRY_VERIFY_WITH_TIMEOUT(nav->index(), 20000);
    auto* kinds = child<QComboBox>(nav, "anomalyKinds");
    kinds->setCurrentIndex(kinds->findText(QStringLiteral("Inf")));
    QTest::keyClick(&window, Qt::Key_F3);
    EXPECT_AT(kMatrixShape, 777);
    QTest::keyClick(&window, Qt::Key_F3);
    EXPECT_AT(kMatrixShape, 1500);
    QTest::keyClick(&window, Qt::Key_F3);
    EXPECT_AT(kMatrixShape, 777);

    // A tensor without anomalies: nothing to walk to, and it says so.
    QVERIFY(window.currentDocument()->selectTensor(QStringLiteral("clean")));
    QTRY_VERIFY_WITH_TIMEOUT(nav->index(), 20000);
    QCOMPARE(nav->index()->total(), std::uint64_t{0});
    QVERIFY(!nav->nextAction()->isEnabled());
    QVERIFY2(nav->statusText().contains(QStringLiteral("No NaN")), qPrintable(nav->statusText()));
}

// An audit finding opens its element (DocumentWidget::selectTensorAt, as a double-click in the
// audit list does); F3 and Shift+F3 then go on from there, not from the first anomaly.
void TestUiAnomalies::walkGoesOnFromAnAuditFinding()
{
    MainWindow window;
    QVERIFY(open(window, QStringLiteral("w")));
    DocumentWidget* doc = window.currentDocument();
    AnomalyNavigator* nav = visuals(window)->anomalies();
    QTRY_VERIFY_WITH_TIMEOUT(nav->index(), 20000);
    const auto& model = *doc->result().model;
    const std::uint64_t offset =
        model.tensors()[static_cast<std::size_t>(model.indexOf(QStringLiteral("w")))].offset;
    QVERIFY(doc->selectTensorAt(QStringLiteral("w"), offset + 1234 * 4));
    QCOMPARE(visuals(window)->valueGrid()->view()->currentIndex().row(), 24); // the finding still opens
    QTest::keyClick(&window, Qt::Key_F3);
    EXPECT_AT(kMatrixShape, 1500);
    QVERIFY(doc->selectTensorAt(QStringLiteral("w"), offset + 1234 * 4));
    QTest::keyClick(&window, Qt::Key_F3, Qt::ShiftModifier);
    EXPECT_AT(kMatrixShape, 777);
}

// The positions of a tensor the user has left behind arrive late and are dropped: selecting
// "clean" while the index of "w" is being found leaves "clean" with none.
void TestUiAnomalies::lateIndexOfAnotherTensorIsDropped()
{
    MainWindow window;
    QVERIFY(open(window, QStringLiteral("cube")));
    DocumentWidget* doc = window.currentDocument();
    AnomalyNavigator* nav = visuals(window)->anomalies();
    QTRY_VERIFY_WITH_TIMEOUT(nav->index(), 20000);
    // The navigator starts the index job from StatsJob::ready; this connection runs after its own
    // in the same emission, so the job has started and cannot have delivered yet.
    bool switched = false;
    QList<std::uint64_t> delivered; // the totals of every index the navigator took after the switch
    auto* stats = doc->findChild<StatsJob*>();
    QVERIFY(stats);
    connect(stats, &StatsJob::ready, &window, [&](int, int) {
        if (switched || !nav->isSearching())
            return;
        switched = true;
        QVERIFY(doc->selectTensor(QStringLiteral("clean")));
    });
    connect(nav, &AnomalyNavigator::indexReady, &window, [&] {
        if (switched)
            delivered << nav->index()->total();
    });
    QVERIFY(doc->selectTensor(QStringLiteral("w")));
    QTRY_VERIFY_WITH_TIMEOUT(switched, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!delivered.isEmpty(), 20000);
    QTest::qWait(500); // time enough for the job of "w" to deliver, were it not dropped
    QCOMPARE(delivered, QList<std::uint64_t>{0});
    QCOMPARE(nav->index()->total(), std::uint64_t{0});
    QVERIFY(!nav->nextAction()->isEnabled());
}

QTEST_MAIN(TestUiAnomalies)
#include "tst_ui_anomalies.moc"
