// The per-layer charts of the Scan page: on a model written here with one block scaled 100x and
// one NaN, the overview (every family at once) and the family chart mark exactly those, say the
// block, tensor and numbers on hover, and open the tensor on a click; on a real model they mark
// nothing. The overview is judged by its pixels: the odd block must be red where it is drawn.

#include "UiTestUtils.h"
#include "charts/LayerChartView.h"
#include "charts/LayerOverviewPlot.h"
#include "document/DocumentWidget.h"
#include "scan/ScanView.h"
#include "tensor/TensorBrowser.h"
#include "tensor/TensorDetailsView.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

#include <cmath>
#include <limits>
#include <random>

using namespace ts;
using namespace ts::ui;
using namespace ts::test;

namespace {

constexpr int kBlocks = 8;
constexpr int kScaledBlock = 5; // its mlp.weight is 100x its siblings'
constexpr int kNanBlock = 2;    // its attn.weight holds one NaN

const QString kScaled = QStringLiteral("model.layers.5.mlp.weight");
const QString kWithNan = QStringLiteral("model.layers.2.attn.weight");

// Families in pattern order: the overview's rows.
enum Row { AttnRow, MlpRow, NormRow };

QString writeModel(const QString& dir)
{
    std::mt19937 rng(11);
    std::normal_distribution<float> unit(0.0f, 1.0f);
    std::vector<TestTensor> tensors;
    auto add = [&](const QString& name, std::vector<std::uint64_t> shape, float sigma, float mean,
                   float scale) {
        std::uint64_t n = 1;
        for (auto d : shape)
            n *= d;
        std::vector<float> v(n);
        for (float& x : v)
            x = scale * (mean + sigma * unit(rng));
        if (name == kWithNan)
            v[37] = std::numeric_limits<float>::quiet_NaN();
        tensors.push_back({name, Dtype::F32, std::move(shape), bytesOf(v)});
    };
    for (int b = 0; b < kBlocks; ++b) {
        const float depth = 1.0f + 0.3f * static_cast<float>(b) / kBlocks;
        const QString p = QStringLiteral("model.layers.%1.").arg(b);
        add(p + QStringLiteral("attn.weight"), {16, 32}, 0.03f * depth, 0, 1);
        add(p + QStringLiteral("mlp.weight"), {32, 32}, 0.02f * depth, 0, b == kScaledBlock ? 100.0f : 1.0f);
        add(p + QStringLiteral("norm.weight"), {256}, 0.05f, 1.0f, 1);
    }
    add(QStringLiteral("lm_head.weight"), {8, 32}, 0.02f, 0, 1);
    const QString path = dir + QStringLiteral("/layers.safetensors");
    return writeSafetensors(path, tensors) ? path : QString();
}

bool scanned(DocumentWidget& doc)
{
    if (!QTest::qWaitFor([&doc] { return doc.state() != DocumentWidget::State::Loading; }, 10000) ||
        doc.state() != DocumentWidget::State::Loaded)
        return false;
    doc.startScan();
    return QTest::qWaitFor([&doc] { return !doc.scanView()->isRunning(); }, 60000);
}

// The colour drawn at `at` in the plot as it is on screen now.
QColor pixelAt(QCustomPlot* plot, QPoint at)
{
    return plot->toPixmap(plot->width(), plot->height()).toImage().pixelColor(at);
}

bool isRed(const QColor& c)
{
    return c.red() > 150 && c.green() < 90 && c.blue() < 90;
}

// Near the white of z = 0, as a sibling in line with the rest is drawn.
bool isPale(const QColor& c)
{
    return c.red() > 170 && c.green() > 170 && c.blue() > 170;
}

// Moves the pointer onto `at` and returns the tooltip it raised.
QString hover(QWidget* widget, QPoint at)
{
    QToolTip::hideText();
    QTest::mouseMove(widget, at + QPoint(1, 0));
    QTest::mouseMove(widget, at);
    (void)QTest::qWaitFor([] { return !QToolTip::text().isEmpty(); }, 2000); // empty says it failed
    return QToolTip::text();
}

} // namespace

class TestUiLayerChart : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void overviewShowsTheOddBlockInItsColour();
    void overviewSwitchesToTheNanCount();
    void overviewClickOpensTheTensor();
    void familyChartMarksHoversAndOpens();
    void captionSaysWhyCellsAreGrey();
    void realModelIsUnmarked_data();
    void realModelIsUnmarked();

private:
    // A scanned document shown at a real window size, on its Scan page.
    std::unique_ptr<DocumentWidget> openScanned(const QString& path);

    QTemporaryDir m_dir;
    QString m_path;
};

void TestUiLayerChart::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_path = writeModel(m_dir.path());
    QVERIFY(!m_path.isEmpty());
}

std::unique_ptr<DocumentWidget> TestUiLayerChart::openScanned(const QString& path)
{
    auto doc = std::make_unique<DocumentWidget>(path);
    doc->resize(1280, 820);
    doc->show();
    if (!QTest::qWaitForWindowExposed(doc.get()) || !scanned(*doc))
        return nullptr;
    doc->showPage(DocumentWidget::ScanPage);
    QTest::qWait(50);
    return doc;
}

void TestUiLayerChart::overviewShowsTheOddBlockInItsColour()
{
    auto doc = openScanned(m_path);
    QVERIFY(doc);
    LayerChartView* chart = child<LayerChartView>(doc->scanView());
    chart->showOverview();
    LayerOverviewPlot* overview = chart->overview();
    QVERIFY(QTest::qWaitForWindowExposed(overview));
    QCOMPARE(overview->rowCount(), 3);
    QCOMPARE(overview->columnCount(), kBlocks);
    // Exactly the planted block carries a marker: the NaN is not an outlier of the std.
    QCOMPARE(overview->markedCount(), 1);

    const auto odd = overview->cellCentre(MlpRow, kScaledBlock);
    QVERIFY(odd);
    const QColor oddColour = pixelAt(overview, *odd);
    QVERIFY2(isRed(oddColour), qPrintable(oddColour.name()));
    // Its siblings and the other families stay pale.
    for (int b = 0; b < kBlocks; ++b) {
        for (int row : {AttnRow, MlpRow, NormRow}) {
            if (row == MlpRow && b == kScaledBlock)
                continue;
            const QColor c = pixelAt(overview, *overview->cellCentre(static_cast<std::size_t>(row), b));
            QVERIFY2(isPale(c),
                     qPrintable(QStringLiteral("row %1 block %2: %3").arg(row).arg(b).arg(c.name())));
        }
    }
    // The marker's square outline is drawn around the cell, in the text colour: dark pixels
    // around the centre where a pale neighbour has none.
    const int reach =
        std::abs(overview->cellCentre(NormRow, 0)->y() - overview->cellCentre(MlpRow, 0)->y()) / 2 + 2;
    auto darkAround = [&](QPoint centre) {
        const QImage image = overview->toPixmap(overview->width(), overview->height()).toImage();
        int n = 0;
        for (int dy = -reach; dy <= reach; ++dy)
            for (int dx = -reach; dx <= reach; ++dx) {
                const QColor c = image.pixelColor(centre + QPoint(dx, dy));
                n += c.red() < 60 && c.green() < 60 && c.blue() < 60;
            }
        return n;
    };
    QVERIFY2(darkAround(*odd) >= 9, qPrintable(QString::number(darkAround(*odd))));
    QCOMPARE(darkAround(*overview->cellCentre(MlpRow, kScaledBlock - 2)), 0);

    const QString text = hover(overview, *odd);
    QVERIFY2(text.contains(kScaled), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("block 5")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("x the median")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("LayerOutlier")), qPrintable(text));
    QCOMPARE(overview->cellText(MlpRow, kScaledBlock), text);
}

void TestUiLayerChart::overviewSwitchesToTheNanCount()
{
    auto doc = openScanned(m_path);
    QVERIFY(doc);
    LayerChartView* chart = child<LayerChartView>(doc->scanView());
    chart->showOverview();
    chart->setStatistic(LayerChartView::Statistic::NanCount);
    LayerOverviewPlot* overview = chart->overview();
    QVERIFY(QTest::qWaitForWindowExposed(overview));
    // The NaN's block, and the LayerOutlier still (whatever the statistic, a finding is marked).
    QCOMPARE(overview->markedCount(), 2);
    const QColor nan = pixelAt(overview, *overview->cellCentre(AttnRow, kNanBlock));
    QVERIFY2(isRed(nan), qPrintable(nan.name()));
    const QColor clean = pixelAt(overview, *overview->cellCentre(AttnRow, kNanBlock + 1));
    QVERIFY2(isPale(clean), qPrintable(clean.name()));
    QVERIFY(overview->cellText(AttnRow, kNanBlock).contains(QStringLiteral("NaN count 1")));
}

void TestUiLayerChart::overviewClickOpensTheTensor()
{
    auto doc = openScanned(m_path);
    QVERIFY(doc);
    LayerChartView* chart = child<LayerChartView>(doc->scanView());
    chart->showOverview();
    LayerOverviewPlot* overview = chart->overview();
    QVERIFY(QTest::qWaitForWindowExposed(overview));
    QSignalSpy opened(doc->scanView(), &ScanView::tensorActivated);
    QTest::mouseClick(overview, Qt::LeftButton, {}, *overview->cellCentre(MlpRow, kScaledBlock));
    QCOMPARE(opened.count(), 1);
    QCOMPARE(opened.first().first().toString(), kScaled);
    QCOMPARE(doc->currentPage(), DocumentWidget::TensorsPage);
    QCOMPARE(doc->tensorBrowser()->details()->field(QStringLiteral("name")), kScaled);
    // The family chart follows to the clicked family.
    QCOMPARE(chart->currentPattern(), QStringLiteral("model.layers.#.mlp.weight"));
}

void TestUiLayerChart::familyChartMarksHoversAndOpens()
{
    auto doc = openScanned(m_path);
    QVERIFY(doc);
    LayerChartView* chart = child<LayerChartView>(doc->scanView());
    // It starts on the family with the finding.
    QCOMPARE(chart->currentPattern(), QStringLiteral("model.layers.#.mlp.weight"));
    chart->showFamily();
    QVERIFY(QTest::qWaitForWindowExposed(chart->familyPlot()));
    QCOMPARE(chart->pointCount(), kBlocks);
    QCOMPARE(chart->markedPointCount(), 1);
    const auto point = chart->pointPixel(kScaledBlock);
    QVERIFY(point);
    const QString text = hover(chart->familyPlot(), *point);
    QVERIFY2(text.contains(kScaled) && text.contains(QStringLiteral("std ")), qPrintable(text));
    QVERIFY(!hover(chart->familyPlot(), *chart->pointPixel(0)).contains(QStringLiteral("LayerOutlier")));

    QSignalSpy opened(chart, &LayerChartView::tensorActivated);
    QTest::mouseClick(chart->familyPlot(), Qt::LeftButton, {}, *chart->pointPixel(kScaledBlock));
    QCOMPARE(opened.count(), 1);
    QCOMPARE(opened.first().first().toString(), kScaled);

    QCOMPARE(doc->currentPage(), DocumentWidget::TensorsPage); // the click opened it
    doc->showPage(DocumentWidget::ScanPage);

    // The counts are statistics too: the NaN's block is the one marked point of its family.
    chart->setFamily(QStringLiteral("model.layers.#.attn.weight"));
    chart->setStatistic(LayerChartView::Statistic::NanCount);
    QCOMPARE(chart->pointCount(), kBlocks);
    QCOMPARE(chart->markedPointCount(), 1);
    const QString nanText = hover(chart->familyPlot(), *chart->pointPixel(kNanBlock));
    QVERIFY2(nanText.contains(kWithNan) && nanText.contains(QStringLiteral("NaN count 1")),
             qPrintable(nanText));
    chart->setStatistic(LayerChartView::Statistic::InfCount);
    QCOMPARE(chart->markedPointCount(), 0);
}

// The caption over the overview names what the colours mean and why a grey cell is grey: on the
// model above every tensor is compared; a family of 16-value biases is not; blocks that all differ
// in shape leave nothing to compare, which a grid of grey alone would not tell.
void TestUiLayerChart::captionSaysWhyCellsAreGrey()
{
    auto doc = openScanned(m_path);
    QVERIFY(doc);
    LayerChartView* chart = child<LayerChartView>(doc->scanView());
    chart->showOverview();
    QVERIFY(QTest::qWaitForWindowExposed(chart->overview()));
    QCOMPARE(chart->overview()->tensorCellCount(), 3 * kBlocks);
    QCOMPARE(chart->overview()->comparedCellCount(), 3 * kBlocks);
    QString caption = chart->overviewCaption();
    QVERIFY2(caption.startsWith(QStringLiteral("Each cell: a block's std")) &&
                 !caption.contains(QStringLiteral("Grey")),
             qPrintable(caption));
    QLabel* label = nullptr;
    for (QLabel* l : chart->findChildren<QLabel*>())
        label = l->text() == caption ? l : label;
    QVERIFY(label && label->isVisible());
    chart->showFamily(); // the caption speaks of the overview's colours only
    QVERIFY(!label->isVisible());
    chart->showOverview();
    QVERIFY(label->isVisible());
    chart->setStatistic(LayerChartView::Statistic::NanCount);
    QVERIFY2(chart->overviewCaption().startsWith(QStringLiteral("Red: the block's tensor has NaN values")),
             qPrintable(chart->overviewCaption()));

    std::vector<TestTensor> tensors;
    std::mt19937 rng(5);
    std::normal_distribution<float> unit(0.0f, 1.0f);
    auto values = [&](std::size_t n) {
        std::vector<float> v(n);
        for (float& x : v)
            x = 0.02f * unit(rng);
        return bytesOf(v);
    };
    for (int b = 0; b < 4; ++b) {
        const QString p = QStringLiteral("blocks.%1.").arg(b);
        tensors.push_back({p + QStringLiteral("fc.weight"), Dtype::F32, {16, 32}, values(512)});
        tensors.push_back({p + QStringLiteral("fc.bias"), Dtype::F32, {16}, values(16)});
    }
    const QString mixed = m_dir.path() + QStringLiteral("/biases.safetensors");
    QVERIFY(writeSafetensors(mixed, tensors));
    doc = openScanned(mixed);
    QVERIFY(doc);
    chart = child<LayerChartView>(doc->scanView());
    QCOMPARE(chart->overview()->tensorCellCount(), 8);
    QCOMPARE(chart->overview()->comparedCellCount(), 4);
    caption = chart->overviewCaption();
    QVERIFY2(caption.contains(QStringLiteral("Grey: no such tensor in that block, or one not compared")) &&
                 caption.contains(QStringLiteral("(4 of the 8 tensors)")),
             qPrintable(caption));

    // Every tensor compared, but block 3 has no norm: its cell is grey for that reason alone.
    tensors.clear();
    for (int b = 0; b < 4; ++b) {
        const QString p = QStringLiteral("blocks.%1.").arg(b);
        tensors.push_back({p + QStringLiteral("fc.weight"), Dtype::F32, {16, 32}, values(512)});
        if (b < 3)
            tensors.push_back({p + QStringLiteral("norm.weight"), Dtype::F32, {256}, values(256)});
    }
    const QString holes = m_dir.path() + QStringLiteral("/holes.safetensors");
    QVERIFY(writeSafetensors(holes, tensors));
    doc = openScanned(holes);
    QVERIFY(doc);
    chart = child<LayerChartView>(doc->scanView());
    QCOMPARE(chart->overview()->tensorCellCount(), 7);
    QCOMPARE(chart->overview()->comparedCellCount(), 7);
    QVERIFY2(chart->overviewCaption().endsWith(QStringLiteral("Grey: no such tensor in that block.")),
             qPrintable(chart->overviewCaption()));

    // Each block's tensor has its own width, as in the small CNNs Tensorscope ships as samples.
    tensors.clear();
    for (int b = 0; b < 4; ++b) {
        const std::uint64_t width = 64 + 16 * static_cast<std::uint64_t>(b);
        tensors.push_back(
            {QStringLiteral("dense%1.weight").arg(b), Dtype::F32, {width, 8}, values(width * 8)});
    }
    const QString uneven = m_dir.path() + QStringLiteral("/uneven.safetensors");
    QVERIFY(writeSafetensors(uneven, tensors));
    doc = openScanned(uneven);
    QVERIFY(doc);
    chart = child<LayerChartView>(doc->scanView());
    QCOMPARE(chart->familyCount(), 1);
    QCOMPARE(chart->overview()->tensorCellCount(), 4);
    QCOMPARE(chart->overview()->comparedCellCount(), 0);
    QVERIFY2(chart->overviewCaption().startsWith(QStringLiteral("Nothing to compare")),
             qPrintable(chart->overviewCaption()));
}

// Real models: blocks that differ as trained ones do are not marked, under any statistic.
void TestUiLayerChart::realModelIsUnmarked_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("minBlocks");
    // SSD MobileNet: six prediction heads, and conv layers numbered 0-13; face landmarks: dense0-3.
    QTest::newRow("ssd_mobilenetv1_bf16") << QStringLiteral("ssd_mobilenetv1_bf16.safetensors") << 6;
    QTest::newRow("face_landmark_68_f32") << QStringLiteral("face_landmark_68_f32.safetensors") << 4;
}

void TestUiLayerChart::realModelIsUnmarked()
{
    QFETCH(QString, file);
    QFETCH(int, minBlocks);
    const QString path = realFixture(file);
    TS_REQUIRE_FIXTURE(path);
    auto doc = openScanned(path);
    QVERIFY(doc);
    LayerChartView* chart = child<LayerChartView>(doc->scanView());
    chart->showOverview();
    QVERIFY(chart->overview()->rowCount() >= 2);
    QVERIFY2(chart->overview()->columnCount() >= minBlocks,
             qPrintable(QString::number(chart->overview()->columnCount())));
    for (auto s :
         {LayerChartView::Statistic::Std, LayerChartView::Statistic::AbsMax, LayerChartView::Statistic::L2,
          LayerChartView::Statistic::NanCount, LayerChartView::Statistic::InfCount}) {
        chart->setStatistic(s);
        QCOMPARE(chart->overview()->markedCount(), 0);
        QCOMPARE(chart->markedPointCount(), 0);
    }
}

QTEST_MAIN(TestUiLayerChart)
#include "tst_ui_layer_chart.moc"
