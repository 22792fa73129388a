// The tensor view's visuals on real files: statistics and histogram of a selected tensor, the
// heatmap's pooling keeping a single outlier, the value grid's decoding of F32/F16/BF16/F8, the
// line plot's envelope keeping a spike.

#include "UiTestUtils.h"
#include "base/Format.h"
#include "charts/HeatmapPanel.h"
#include "charts/HistogramPanel.h"
#include "charts/LinePlotPanel.h"
#include "document/DocumentWidget.h"
#include "tensor/AxisPicker.h"
#include "tensor/StatsJob.h"
#include "tensor/StatsPanel.h"
#include "tensor/TensorBrowser.h"
#include "tensor/TensorDetailsView.h"
#include "tensor/ValueGridModel.h"
#include "tensor/ValueGridPanel.h"
#include "view/LayerGroups.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>

using namespace ts;
using namespace ts::ui;
using namespace ts::test;

namespace {

const QString kAnomalies = QStringLiteral("age_gender_anomalies_f32.safetensors");

} // namespace

class TestUiVisuals : public QObject {
    Q_OBJECT
private slots:
    void selectingTensorFillsStatsAndHistogram_data();
    void selectingTensorFillsStatsAndHistogram();
    void histogramBinsAndCacheFollowSelection();
    void heatmapMaxAbsKeepsSingleOutlier();
    void heatmapSlicesNdTensor();
    void valueGridDecodesDtypes();
    void valueGridSlicesAndCopies();
    void linePlotKeepsSpike();
    void linePlotSaysWhenThereIsNothingToDraw();
    void layerFamiliesGroupNumberedBlocks();

private:
    QTemporaryDir m_dir;
};

void TestUiVisuals::selectingTensorFillsStatsAndHistogram_data()
{
    QTest::addColumn<QString>("tensor");
    QTest::addColumn<QString>("count");
    QTest::addColumn<QString>("nan");
    QTest::addColumn<QString>("posinf");
    QTest::addColumn<qulonglong>("finite");
    QTest::addColumn<QString>("nonFinite"); // the histogram line names only the kinds that occur
    // From the fixture's .planted.json: two NaN in fc.age.weights [512, 1], +Inf at 1 of fc.gender.bias [2].
    QTest::newRow("nan") << QStringLiteral("fc.age.weights") << QStringLiteral("512") << QStringLiteral("2")
                         << QStringLiteral("0") << qulonglong(510) << QStringLiteral(" \u00b7 NaN 2");
    QTest::newRow("inf") << QStringLiteral("fc.gender.bias") << QStringLiteral("2") << QStringLiteral("0")
                         << QStringLiteral("1") << qulonglong(1) << QStringLiteral(" \u00b7 +Inf 1");
    QTest::newRow("clean") << QStringLiteral("exit_flow.separable_conv.pointwise_filter")
                           << QStringLiteral("131,072") << QStringLiteral("0") << QStringLiteral("0")
                           << qulonglong(131072) << QStringLiteral(" \u00b7 no NaN or Inf");
}

void TestUiVisuals::selectingTensorFillsStatsAndHistogram()
{
    QFETCH(QString, tensor);
    QFETCH(QString, count);
    QFETCH(QString, nan);
    QFETCH(QString, posinf);
    QFETCH(qulonglong, finite);
    QFETCH(QString, nonFinite);
    const QString path = realFixture(kAnomalies);
    TS_REQUIRE_FIXTURE(path);
    // The real document: the panels are found the way the window wires them.
    DocumentWidget doc(path);
    QTRY_VERIFY_WITH_TIMEOUT(doc.state() == DocumentWidget::State::Loaded, 10000);
    auto* stats = doc.findChild<StatsPanel*>();
    auto* histogram = doc.findChild<HistogramPanel*>();
    QVERIFY(stats && histogram);
    QVERIFY(doc.selectTensor(tensor));
    QCOMPARE(doc.tensorBrowser()->details()->field(QStringLiteral("name")), tensor);
    QTRY_VERIFY_WITH_TIMEOUT(!stats->isComputing(), 20000);
    QCOMPARE(stats->value(QStringLiteral("count")), count);
    QCOMPARE(stats->value(QStringLiteral("nan")), nan);
    QCOMPARE(stats->value(QStringLiteral("posinf")), posinf);
    QVERIFY(!stats->value(QStringLiteral("std")).isEmpty());
    // The quantiles are computed with the statistics (F32: in the histogram's pass) and lie in
    // order between the extremes; with one finite value every one is that value.
    const auto number = [&](const char* key) { return stats->value(QLatin1String(key)).toDouble(); };
    QVERIFY(number("min") <= number("p1") && number("p1") <= number("p5") && number("p5") <= number("p25"));
    QVERIFY(number("p25") <= number("p50") && number("p50") <= number("p75") &&
            number("p75") <= number("p95"));
    QVERIFY(number("p95") <= number("p99") && number("p99") <= number("max"));
    if (finite == 1)
        QCOMPARE(stats->value(QStringLiteral("p50")), stats->value(QStringLiteral("min")));
    QVERIFY(stats->value(QStringLiteral("zeroshare")).endsWith(QLatin1Char('%')));
    QCOMPARE(histogram->binCount(), 64); // the default
    QCOMPARE(histogram->plottedTotal(), std::uint64_t(finite));
    // One line at the default size: kinds of non-finite value that do not occur are left out.
    const QString line = histogram->summaryText();
    QVERIFY2(line.startsWith(formatGrouped(finite) + QStringLiteral(" finite in 64 bins \u00b7 zeros ")),
             qPrintable(line));
    QVERIFY2(line.endsWith(nonFinite), qPrintable(line));
    const int named = nonFinite.contains(QStringLiteral("no NaN")) ? 2 : 1; // "no NaN or Inf" names both
    QVERIFY2(line.count(QStringLiteral("Inf")) + line.count(QStringLiteral("NaN")) == named,
             qPrintable(line));
}

void TestUiVisuals::histogramBinsAndCacheFollowSelection()
{
    const QString path = realFixture(kAnomalies);
    TS_REQUIRE_FIXTURE(path);
    std::shared_ptr<const Checkpoint> model = openCheckpoint(path);
    QVERIFY(model);
    StatsJob job;
    job.setModel(model);
    StatsPanel stats(&job);
    HistogramPanel histogram(&job);
    const int a = model->indexOf(QStringLiteral("fc.age.weights"));
    const int b = model->indexOf(QStringLiteral("exit_flow.separable_conv.pointwise_filter"));
    // Selecting b right after a: a's job is cancelled and its late result must not show up.
    stats.showTensor(model, a);
    histogram.showTensor(model, a);
    stats.showTensor(model, b);
    histogram.showTensor(model, b);
    QTRY_VERIFY_WITH_TIMEOUT(!stats.isComputing(), 20000);
    QCOMPARE(stats.value(QStringLiteral("count")), QStringLiteral("131,072"));
    QCOMPARE(histogram.plottedTotal(), std::uint64_t(131072));
    histogram.setBins(16);
    QTRY_COMPARE_WITH_TIMEOUT(histogram.binCount(), 16, 20000);
    QCOMPARE(histogram.plottedTotal(), std::uint64_t(131072));
    // log10|x| bins cover the non-zero finite values.
    histogram.setLogMagnitude(true);
    QCOMPARE(histogram.binCount(), 16);
    QVERIFY(histogram.plottedTotal() > 0 && histogram.plottedTotal() <= 131072);
    QVERIFY(histogram.binTextAt(0).startsWith(QLatin1Char('[')));
    QVERIFY(histogram.binTextAt(15).contains(QLatin1Char(']')));
    // Back to a: now cached per tensor and bin count, so shown without a job.
    histogram.setLogMagnitude(false);
    stats.showTensor(model, a);
    histogram.showTensor(model, a);
    QTRY_VERIFY_WITH_TIMEOUT(!stats.isComputing(), 20000);
    QCOMPARE(stats.value(QStringLiteral("nan")), QStringLiteral("2"));
    QCOMPARE(histogram.plottedTotal(), std::uint64_t(510));
    stats.showTensor(model, b);
    QVERIFY(!stats.isComputing()); // cache hit
    QVERIFY(!job.isRunning());
    const QString png = m_dir.filePath(QStringLiteral("hist.png"));
    const QString svg = m_dir.filePath(QStringLiteral("hist.svg"));
    histogram.resize(500, 300);
    QVERIFY(histogram.exportTo(png));
    QVERIFY(histogram.exportTo(svg));
    QVERIFY(QFileInfo(png).size() > 0 && QFileInfo(svg).size() > 0);
}

void TestUiVisuals::heatmapMaxAbsKeepsSingleOutlier()
{
    // 1024 x 1024 small weights with one planted outlier: 4 x 4 source cells per heatmap cell.
    const std::uint64_t n = 1024;
    std::vector<float> values = smallWeights(n * n, 0.02f);
    const std::uint64_t row = 517, col = 301;
    values[row * n + col] = 50.0f;
    const QString path = m_dir.filePath(QStringLiteral("outlier.safetensors"));
    QVERIFY(writeSafetensors(path, {{QStringLiteral("w"), Dtype::F32, {n, n}, bytesOf(values)}}));
    std::shared_ptr<const Checkpoint> model = openCheckpoint(path);
    QVERIFY(model);
    HeatmapPanel panel;
    panel.showTensor(model, 0);
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isComputing() && panel.grid().rows > 0, 20000);
    const HeatmapGrid& g = panel.grid();
    QCOMPARE(g.rows, HeatmapPanel::kMaxCells);
    QCOMPARE(g.cols, HeatmapPanel::kMaxCells);
    const int r = static_cast<int>(row * 256 / n), c = static_cast<int>(col * 256 / n);
    QCOMPARE(g.at(r, c), 50.0);
    QCOMPARE(g.absmax, 50.0);
    // Every other cell is a small weight: the outlier is the only hot cell.
    int hot = 0;
    for (double v : g.values)
        hot += std::abs(v) > 1.0;
    QCOMPARE(hot, 1);
    QVERIFY(panel.cellText(double(col), double(row)).contains(QStringLiteral("50")));
    // Mean pooling dilutes it 16-fold (and 256-fold for a 4096 matrix): why max-|x| is the default.
    panel.setPooling(Pooling::Mean);
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isComputing() && panel.grid().rows > 0, 20000);
    QVERIFY2(std::abs(panel.grid().at(r, c) - 50.0 / 16) < 0.05,
             qPrintable(QString::number(panel.grid().at(r, c))));
    QVERIFY(panel.grid().absmax < 4.0);
}

void TestUiVisuals::heatmapSlicesNdTensor()
{
    // [3, 40, 50]: the outlier sits in plane 2 only.
    std::vector<float> values = smallWeights(3 * 40 * 50, 0.1f);
    values[2 * 2000 + 10 * 50 + 20] = -9.0f;
    const QString path = m_dir.filePath(QStringLiteral("nd.safetensors"));
    QVERIFY(writeSafetensors(path, {{QStringLiteral("t"), Dtype::F32, {3, 40, 50}, bytesOf(values)}}));
    std::shared_ptr<const Checkpoint> model = openCheckpoint(path);
    QVERIFY(model);
    HeatmapPanel panel;
    panel.showTensor(model, 0);
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isComputing() && panel.grid().rows > 0, 20000);
    QCOMPARE(panel.grid().rows, 40); // no pooling below kMaxCells
    QCOMPARE(panel.grid().cols, 50);
    QVERIFY(panel.grid().absmax < 1.0); // plane 0
    PlaneSpec spec{1, 2, {2, 0, 0}};
    panel.axisPicker()->setSpec(spec);
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isComputing() && panel.grid().rows > 0, 20000);
    QCOMPARE(panel.grid().at(10, 20), -9.0);
    // Rows over axis 0 and columns over axis 2, axis 1 fixed at 10: the outlier is at (2, 20).
    panel.axisPicker()->setSpec(PlaneSpec{0, 2, {0, 10, 0}});
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isComputing() && panel.grid().rows > 0, 20000);
    QCOMPARE(panel.grid().rows, 3);
    QCOMPARE(panel.grid().at(2, 20), -9.0);
}

void TestUiVisuals::valueGridDecodesDtypes()
{
    // Bit patterns with values taken from the format specifications, not from our decoder.
    const std::vector<float> f32 = {1.5f,  -2.25f, 0.003f,
                                    1e30f, -0.0f,  std::numeric_limits<float>::infinity()};
    const std::vector<std::uint16_t> f16 = {0x3C00, 0xC000, 0x3555, 0x7BFF, 0x0001, 0x7C00};
    const std::vector<std::uint16_t> bf16 = {0x3F80, 0xC040, 0x4049, 0x7F80, 0xFF80, 0x0001};
    const std::vector<std::uint8_t> f8 = {0x38, 0xC0, 0x7E, 0x7F, 0x01, 0x08};
    const QString path = m_dir.filePath(QStringLiteral("dtypes.safetensors"));
    QVERIFY(writeSafetensors(path, {
                                       {QStringLiteral("f32"), Dtype::F32, {2, 3}, bytesOf(f32)},
                                       {QStringLiteral("f16"), Dtype::F16, {2, 3}, bytesOf(f16)},
                                       {QStringLiteral("bf16"), Dtype::BF16, {2, 3}, bytesOf(bf16)},
                                       {QStringLiteral("f8"), Dtype::F8_E4M3, {2, 3}, bytesOf(f8)},
                                   }));
    std::shared_ptr<const Checkpoint> model = openCheckpoint(path);
    QVERIFY(model);
    ValueGridPanel panel;
    new QAbstractItemModelTester(panel.gridModel(), QAbstractItemModelTester::FailureReportingMode::QtTest,
                                 &panel);
    const double inf = std::numeric_limits<double>::infinity();
    struct Expect {
        const char* tensor;
        int row, col;
        double value;
        const char* text;
    };
    const Expect expected[] = {
        {"f32", 0, 0, 1.5, "1.5"},
        {"f32", 0, 1, -2.25, "-2.25"},
        {"f32", 1, 0, static_cast<double>(1e30f), "1e+30"},
        {"f32", 1, 2, inf, "+Inf"},
        {"f16", 0, 0, 1.0, "1"},
        {"f16", 0, 1, -2.0, "-2"},
        {"f16", 0, 2, 0.333251953125, "0.333252"},
        {"f16", 1, 0, 65504.0, "65504"},
        {"f16", 1, 1, 5.9604644775390625e-08, "5.960464e-08"},
        {"f16", 1, 2, inf, "+Inf"},
        {"bf16", 0, 0, 1.0, "1"},
        {"bf16", 0, 1, -3.0, "-3"},
        {"bf16", 0, 2, 3.140625, "3.140625"},
        {"bf16", 1, 1, -inf, "\u2212Inf"},
        {"bf16", 1, 2, 9.183549615799121e-41, "9.18355e-41"},
        {"f8", 0, 0, 1.0, "1"},
        {"f8", 0, 1, -2.0, "-2"},
        {"f8", 0, 2, 448.0, "448"},
        {"f8", 1, 1, 0.001953125, "0.001953125"},
        {"f8", 1, 2, 0.015625, "0.015625"},
    };
    for (const Expect& e : expected) {
        const int t = model->indexOf(QLatin1String(e.tensor));
        QVERIFY(t >= 0);
        panel.showTensor(model, t);
        QCOMPARE(panel.gridModel()->rowCount(), 2);
        QCOMPARE(panel.gridModel()->columnCount(), 3);
        const std::optional<double> v = panel.gridModel()->value(e.row, e.col);
        QVERIFY2(v.has_value(), e.tensor);
        QVERIFY2(*v == e.value, qPrintable(QStringLiteral("%1[%2,%3] = %4, expected %5")
                                               .arg(QLatin1String(e.tensor))
                                               .arg(e.row)
                                               .arg(e.col)
                                               .arg(*v, 0, 'g', 17)
                                               .arg(e.value, 0, 'g', 17)));
        QCOMPARE(panel.gridModel()->index(e.row, e.col).data().toString(), QString::fromUtf8(e.text));
    }
    // F8_E4M3 (OCP FN) has NaN at S.1111.111 and no Inf.
    panel.showTensor(model, model->indexOf(QStringLiteral("f8")));
    QVERIFY(std::isnan(*panel.gridModel()->value(1, 0)));
    QCOMPARE(panel.gridModel()->index(1, 0).data().toString(), QStringLiteral("NaN"));
}

void TestUiVisuals::valueGridSlicesAndCopies()
{
    std::vector<float> values(2 * 3 * 4);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<float>(i);
    const QString path = m_dir.filePath(QStringLiteral("grid.safetensors"));
    QVERIFY(writeSafetensors(
        path, {{QStringLiteral("t"), Dtype::F32, {2, 3, 4}, bytesOf(values)},
               {QStringLiteral("v"), Dtype::F32, {5}, bytesOf(std::vector<float>{9, 8, 7, 6, 5})}}));
    std::shared_ptr<const Checkpoint> model = openCheckpoint(path);
    QVERIFY(model);
    ValueGridPanel panel;
    new QAbstractItemModelTester(panel.gridModel(), QAbstractItemModelTester::FailureReportingMode::QtTest,
                                 &panel);
    panel.showTensor(model, model->indexOf(QStringLiteral("t")));
    // Default plane: the last two axes at index 0 of axis 0.
    QCOMPARE(panel.gridModel()->rowCount(), 3);
    QCOMPARE(panel.gridModel()->columnCount(), 4);
    QCOMPARE(*panel.gridModel()->value(2, 3), 11.0);
    // Element [1, r, c] = 12 + 4r + c.
    PlaneSpec spec{1, 2, {1, 0, 0}};
    panel.findChild<AxisPicker*>()->setSpec(spec);
    QCOMPARE(*panel.gridModel()->value(0, 0), 12.0);
    QCOMPARE(*panel.gridModel()->value(2, 1), 21.0);
    QVERIFY(panel.goTo(QStringLiteral("2, 1")));
    QVERIFY(!panel.goTo(QStringLiteral("3, 0")));
    panel.view()->clearSelection();
    panel.view()->selectionModel()->select(
        QItemSelection(panel.gridModel()->index(0, 0), panel.gridModel()->index(1, 1)),
        QItemSelectionModel::Select);
    QCOMPARE(panel.selectionText(), QStringLiteral("12\t13\n16\t17"));
    // A vector reads down one column.
    panel.showTensor(model, model->indexOf(QStringLiteral("v")));
    QCOMPARE(panel.gridModel()->rowCount(), 5);
    QCOMPARE(panel.gridModel()->columnCount(), 1);
    QCOMPARE(*panel.gridModel()->value(3, 0), 6.0);
}

void TestUiVisuals::linePlotKeepsSpike()
{
    std::vector<float> values = smallWeights(200000, 0.01f);
    values[123457] = 7.0f;
    const QString path = m_dir.filePath(QStringLiteral("line.safetensors"));
    QVERIFY(writeSafetensors(path, {{QStringLiteral("bias"), Dtype::F32, {200000}, bytesOf(values)}}));
    std::shared_ptr<const Checkpoint> model = openCheckpoint(path);
    QVERIFY(model);
    LinePlotPanel panel;
    panel.showTensor(model, 0);
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isComputing() && !panel.envelope().x.empty(), 20000);
    const Envelope& e = panel.envelope();
    QCOMPARE(e.x.size(), std::size_t(LinePlotPanel::kBuckets));
    const std::size_t k = 123457 * e.x.size() / 200000;
    QCOMPARE(e.max[k], 7.0);
    QCOMPARE(*std::max_element(e.max.begin(), e.max.end()), 7.0);
}

void TestUiVisuals::linePlotSaysWhenThereIsNothingToDraw()
{
    // An empty vector finished with "Computing…" left on screen; so did a 1-D tensor whose
    // envelope was cancelled by selecting a 2-D one.
    const QString path = m_dir.filePath(QStringLiteral("empty-line.safetensors"));
    QVERIFY(writeSafetensors(
        path, {{QStringLiteral("empty"), Dtype::F32, {0}, {}},
               {QStringLiteral("long"), Dtype::F32, {4000000}, bytesOf(smallWeights(4000000, 0.1f))},
               {QStringLiteral("matrix"), Dtype::F32, {2, 2}, bytesOf(smallWeights(4, 0.1f))}}));
    std::shared_ptr<const Checkpoint> model = openCheckpoint(path);
    QVERIFY(model);
    LinePlotPanel panel;
    auto* info = panel.findChild<QLabel*>(QStringLiteral("lineInfo"));
    QVERIFY(info);
    panel.showTensor(model, model->indexOf(QStringLiteral("empty")));
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isComputing(), 20000);
    QCOMPARE(info->text(), QStringLiteral("No values: this tensor has no elements."));
    panel.showTensor(model, model->indexOf(QStringLiteral("long")));
    QCOMPARE(info->text(), QStringLiteral("Computing\u2026"));
    panel.showTensor(model, model->indexOf(QStringLiteral("matrix")));
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isComputing(), 20000);
    QCOMPARE(info->text(), QString());
}

void TestUiVisuals::layerFamiliesGroupNumberedBlocks()
{
    const std::vector<QString> names = {QStringLiteral("model.layers.0.mlp.weight"),
                                        QStringLiteral("model.layers.1.mlp.weight"),
                                        QStringLiteral("model.layers.10.mlp.weight"),
                                        QStringLiteral("model.layers.2.mlp.weight"),
                                        QStringLiteral("dense0.conv1.bias"),
                                        QStringLiteral("dense1.conv1.bias"),
                                        QStringLiteral("lm_head.weight"),
                                        QStringLiteral("single3.weight")};
    const std::vector<LayerFamily> families = layerFamilies(names);
    QCOMPARE(families.size(), std::size_t(2));
    QCOMPARE(families[0].pattern, QStringLiteral("dense#.conv1.bias"));
    QCOMPARE(families[1].pattern, QStringLiteral("model.layers.#.mlp.weight"));
    QCOMPARE(families[1].members.size(), std::size_t(4));
    QCOMPARE(families[1].members.back().block, 10); // numeric, not lexical, order
    QCOMPARE(families[1].members.back().tensor, 2);
}

QTEST_MAIN(TestUiVisuals)
#include "tst_ui_visuals.moc"
