// What the heatmap draws, read back from the rendered pixels (offscreen): an outlier at any corner
// or inside a large pooled plane, NaN, +Inf and -Inf each at least 3x3 px in their own colour where
// they belong; every row and column reachable by hover; a zoom re-read at full resolution; a click
// asking for the value under it; colour scales that follow the data's sign.

#include "UiTestUtils.h"
#include "charts/HeatmapPanel.h"
#include "charts/QCustomPlotInclude.h"
#include "checkpoint/Checkpoint.h"
#include "tensor/ValueGridModel.h"
#include "tensor/ValueGridPanel.h"

#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <limits>

using namespace ts;
using namespace ts::ui;
using namespace ts::test;

namespace {

const QColor kOutlier(0x00, 0xc8, 0x53);
const QColor kNaN(0xff, 0x00, 0xff);
const QColor kPosInf(0xff, 0x98, 0x00);
const QColor kNegInf(0x00, 0xbc, 0xd4);

// Pixels of exactly `colour` within `radius` px of the plot position of element (row, col).
int pixelsNear(HeatmapPanel& panel, std::uint64_t row, std::uint64_t col, const QColor& colour,
               int radius = 12)
{
    Plot* plot = panel.plot();
    const QImage image = plot->toPixmap(plot->width(), plot->height()).toImage();
    const int px = static_cast<int>(plot->xAxis->coordToPixel(static_cast<double>(col)));
    const int py = static_cast<int>(plot->yAxis->coordToPixel(static_cast<double>(row)));
    int n = 0;
    for (int y = std::max(0, py - radius); y <= std::min(image.height() - 1, py + radius); ++y) {
        for (int x = std::max(0, px - radius); x <= std::min(image.width() - 1, px + radius); ++x)
            n += image.pixelColor(x, y).rgb() == colour.rgb();
    }
    return n;
}

int pixelsAnywhere(HeatmapPanel& panel, const QColor& colour)
{
    Plot* plot = panel.plot();
    const QImage image = plot->toPixmap(plot->width(), plot->height()).toImage();
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x)
            n += image.pixelColor(x, y).rgb() == colour.rgb();
    }
    return n;
}

} // namespace

class TestUiHeatmap : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        m_panel = std::make_unique<HeatmapPanel>();
        m_panel->resize(640, 560);
        m_panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
    }
    void cleanup() { m_panel.reset(); }

    void outlierAtEveryCornerIsDrawn_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        QTest::newRow("256x512") << 256 << 512;
        QTest::newRow("1024x4096") << 1024 << 4096;
    }

    void outlierAtEveryCornerIsDrawn()
    {
        QFETCH(int, rows);
        QFETCH(int, cols);
        const std::uint64_t R = static_cast<std::uint64_t>(rows), C = static_cast<std::uint64_t>(cols);
        using Cell = std::pair<std::uint64_t, std::uint64_t>;
        for (const Cell& at :
             {Cell{0, 0}, Cell{0, C - 1}, Cell{R - 1, 0}, Cell{R - 1, C - 1}, Cell{R / 3, C / 2}}) {
            std::vector<float> values = smallWeights(R * C, 0.02f);
            values[at.first * C + at.second] = 50.0f;
            show(values, R, C, Dtype::F32);
            const QString where = QStringLiteral("outlier at (%1, %2)").arg(at.first).arg(at.second);
            QVERIFY2(pixelsNear(*m_panel, at.first, at.second, kOutlier) >= 9, qPrintable(where));
            QCOMPARE(pixelsAnywhere(*m_panel, kOutlier), pixelsNear(*m_panel, at.first, at.second, kOutlier));
            QVERIFY2(m_panel->legendText().contains(QStringLiteral("1 outlier cell")), qPrintable(where));
        }
    }

    void nonFiniteCellsAreDrawnInTheirColours()
    {
        const std::uint64_t R = 1024, C = 4096;
        std::vector<float> values = smallWeights(R * C, 0.02f);
        values[500 * C + 100] = std::numeric_limits<float>::quiet_NaN();
        values[10 * C + 4000] = std::numeric_limits<float>::infinity();
        values[(R - 1) * C + 7] = -std::numeric_limits<float>::infinity();
        show(values, R, C, Dtype::F32);
        QVERIFY(pixelsNear(*m_panel, 500, 100, kNaN) >= 9);
        QVERIFY(pixelsNear(*m_panel, 10, 4000, kPosInf) >= 9);
        QVERIFY(pixelsNear(*m_panel, R - 1, 7, kNegInf) >= 9);
        const QString legend = m_panel->legendText();
        QVERIFY2(legend.contains(QStringLiteral("1 NaN")) && legend.contains(QStringLiteral("1 +Inf")) &&
                     legend.contains(QStringLiteral("1 \u2212Inf")),
                 qPrintable(legend));
    }

    void everyRowAndColumnIsReachableByHover()
    {
        const std::uint64_t R = 256, C = 512;
        std::vector<float> values = smallWeights(R * C, 0.02f);
        values[0] = 70000.0f;
        show(values, R, C, Dtype::F32);
        Plot* plot = m_panel->plot();
        const QRect rect = plot->axisRect()->rect();
        // The first and last pixels of the plot name the corner elements (at 1.7 px per row, one
        // pixel further in is row 1 already).
        auto textAt = [&](int x, int y) {
            return m_panel->cellText(plot->xAxis->pixelToCoord(x), plot->yAxis->pixelToCoord(y));
        };
        QVERIFY2(textAt(rect.left(), rect.top()).startsWith(QStringLiteral("rows 0\u2013")) ||
                     textAt(rect.left(), rect.top()).startsWith(QStringLiteral("[0, 0]")),
                 qPrintable(textAt(rect.left(), rect.top())));
        QVERIFY(textAt(rect.left(), rect.top()).contains(QStringLiteral("70000")));
        const QString last = textAt(rect.right(), rect.bottom());
        QVERIFY2(last.contains(QStringLiteral("255")) && last.contains(QStringLiteral("511")),
                 qPrintable(last));
    }

    void zoomRereadsTheRegionAtFullResolution()
    {
        const std::uint64_t R = 1024, C = 4096;
        std::vector<float> values = smallWeights(R * C, 0.02f);
        show(values, R, C, Dtype::F32);
        QVERIFY(m_panel->grid().isWholePlane());
        m_panel->zoomTo(600, 650, 2000, 2080);
        QTRY_VERIFY_WITH_TIMEOUT(!m_panel->isComputing() && !m_panel->grid().isWholePlane(), 20000);
        const HeatmapGrid& g = m_panel->grid();
        QCOMPARE(g.rows, 50);
        QCOMPARE(g.cols, 80);
        QCOMPARE(g.at(7, 9), double(values[607 * C + 2009]));
        QVERIFY(m_panel->cellText(2009, 607).startsWith(QStringLiteral("[607, 2009]")));
        m_panel->resetZoom();
        QTRY_VERIFY_WITH_TIMEOUT(!m_panel->isComputing() && m_panel->grid().isWholePlane(), 20000);
    }

    void clickAsksForTheValueUnderIt()
    {
        const std::uint64_t R = 64, C = 100;
        std::vector<float> values = smallWeights(R * C, 0.02f);
        show(values, R, C, Dtype::F32);
        QSignalSpy spy(m_panel.get(), &HeatmapPanel::cellActivated);
        Plot* plot = m_panel->plot();
        const QPoint at(static_cast<int>(plot->xAxis->coordToPixel(42)),
                        static_cast<int>(plot->yAxis->coordToPixel(17)));
        QTest::mouseClick(plot, Qt::LeftButton, {}, at);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(1).toULongLong(), 17ull);
        QCOMPARE(spy.at(0).at(2).toULongLong(), 42ull);
        // The value grid goes there.
        ValueGridPanel grid;
        grid.showTensor(m_model, 0);
        QVERIFY(grid.goToCell(spy.at(0).at(0).value<PlaneSpec>(), 17, 42));
        QCOMPARE(grid.view()->currentIndex().row(), 17);
        QCOMPARE(grid.view()->currentIndex().column(), 42);
    }

    void coloursFollowTheDataSign()
    {
        std::vector<std::uint8_t> mask(64 * 64);
        for (std::size_t i = 0; i < mask.size(); ++i)
            mask[i] = static_cast<std::uint8_t>(i % 251);
        show(mask, 64, 64, Dtype::U8);
        QVERIFY(!m_panel->isDiverging());
        QVERIFY(m_panel->colourRange().lower >= 0);
        show(smallWeights(64 * 64, 0.02f), 64, 64, Dtype::F32);
        QVERIFY(m_panel->isDiverging());
        QCOMPARE(m_panel->colourRange().lower, -m_panel->colourRange().upper);
        m_panel->setScale(HeatmapPanel::Scale::LogAbs);
        QVERIFY(!m_panel->isDiverging());
    }

    void oneColumnHasOneColumnTick()
    {
        show(smallWeights(300, 0.02f), 300, 1, Dtype::F32);
        Plot* plot = m_panel->plot();
        plot->replot();
        const QVector<double> ticks = plot->xAxis->tickVector();
        QCOMPARE(ticks.size(), 1);
        QCOMPARE(ticks.front(), 0.0);
    }

private:
    template <typename T>
    void show(const std::vector<T>& values, std::uint64_t rows, std::uint64_t cols, Dtype dtype)
    {
        const QString path = m_dir.filePath(QStringLiteral("plane%1.safetensors").arg(++m_files));
        QVERIFY(writeSafetensors(path, {{QStringLiteral("w"), dtype, {rows, cols}, bytesOf(values)}}));
        m_model = openCheckpoint(path);
        QVERIFY(m_model);
        m_panel->showTensor(m_model, 0);
        QTRY_VERIFY_WITH_TIMEOUT(!m_panel->isComputing() && m_panel->grid().rows > 0, 20000);
        m_panel->plot()->replot();
    }

    QTemporaryDir m_dir;
    int m_files = 0;
    std::shared_ptr<const Checkpoint> m_model;
    std::unique_ptr<HeatmapPanel> m_panel;
};

QTEST_MAIN(TestUiHeatmap)
#include "tst_ui_heatmap.moc"
