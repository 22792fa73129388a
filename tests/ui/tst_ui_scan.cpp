// The whole-model scan in the window: it runs off the UI thread, can be cancelled, lists the
// planted anomalies of age_gender_anomalies_f32 (and nothing else as NaN/Inf), puts its findings
// in the summary's audit list, jumps to a tensor on double-click, and feeds the per-layer chart.

#include "UiTestUtils.h"
#include "charts/LayerChartView.h"
#include "document/DocumentWidget.h"
#include "scan/ScanTableModel.h"
#include "scan/ScanView.h"
#include "summary/AuditModel.h"
#include "summary/SummaryView.h"
#include "tensor/TensorBrowser.h"
#include "tensor/TensorDetailsView.h"

#include <QAbstractItemModelTester>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <limits>
#include <set>

using namespace ts;
using namespace ts::ui;
using namespace ts::test;

namespace {

bool loaded(DocumentWidget& doc)
{
    return QTest::qWaitFor([&doc] { return doc.state() != DocumentWidget::State::Loading; }, 10000) &&
           doc.state() == DocumentWidget::State::Loaded;
}

bool scanned(DocumentWidget& doc)
{
    doc.startScan();
    return QTest::qWaitFor([&doc] { return !doc.scanView()->isRunning(); }, 60000);
}

} // namespace

class TestUiScan : public QObject {
    Q_OBJECT
private slots:
    void scanListsPlantedAnomalies();
    void nanInfCheckListsOnlyNanAndInf();
    void scanCanBeCancelled();
    void layerChartHasOnePointPerBlock();
    void layerChartOnFixtureBlocks();
    void scanTableSortsNamesNaturally();
    void scanTableSharesTheScansStatistics();

private:
    QTemporaryDir m_dir;
};

void TestUiScan::scanListsPlantedAnomalies()
{
    const QString path = realFixture(QStringLiteral("age_gender_anomalies_f32.safetensors"));
    TS_REQUIRE_FIXTURE(path);
    QFile plantedFile(realFixture(QStringLiteral("age_gender_anomalies_f32.planted.json")));
    QVERIFY2(plantedFile.open(QIODevice::ReadOnly), "the .planted.json beside the fixture is missing");
    const QJsonObject planted = QJsonDocument::fromJson(plantedFile.readAll()).object();
    std::set<QString> expectNan, expectInf;
    QString expectZero, expectBig;
    for (auto it = planted.begin(); it != planted.end(); ++it) {
        const QString kind = it.value().toObject().value(QStringLiteral("kind")).toString();
        if (kind == QLatin1String("nan"))
            expectNan.insert(it.key());
        else if (kind.endsWith(QLatin1String("inf")))
            expectInf.insert(it.key());
        else if (kind == QLatin1String("zero_all"))
            expectZero = it.key();
        else if (kind == QLatin1String("big"))
            expectBig = it.key();
    }
    QVERIFY(!expectNan.empty() && !expectInf.empty() && !expectZero.isEmpty() && !expectBig.isEmpty());

    DocumentWidget doc(path);
    QVERIFY(loaded(doc));
    ScanView* scan = doc.scanView();
    new QAbstractItemModelTester(scan->tableModel(), QAbstractItemModelTester::FailureReportingMode::QtTest,
                                 &doc);
    QSignalSpy finished(scan, &ScanView::scanFinished);
    QVERIFY(scanned(doc));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.first().first().toBool(), true);
    QCOMPARE(doc.currentPage(), DocumentWidget::ScanPage);

    const ScanTableModel* table = scan->tableModel();
    QCOMPARE(table->rowCount(), 51);
    std::set<QString> gotNan, gotInf;
    QHash<QString, QString> findings;
    for (int r = 0; r < table->rowCount(); ++r) {
        const QString name = table->index(r, 0).data().toString();
        if (table->index(r, ScanTableModel::NanColumn).data().toString() != QLatin1String("0"))
            gotNan.insert(name);
        if (table->index(r, ScanTableModel::InfColumn).data().toString() != QLatin1String("0"))
            gotInf.insert(name);
        findings.insert(name, table->index(r, ScanTableModel::FindingsColumn).data().toString());
    }
    QCOMPARE(gotNan, expectNan);
    QCOMPARE(gotInf, expectInf);
    for (const QString& name : expectNan)
        QVERIFY(findings.value(name).contains(QStringLiteral("NanValues")));
    for (const QString& name : expectInf)
        QVERIFY(findings.value(name).contains(QStringLiteral("InfValues")));
    QVERIFY(findings.value(expectZero).contains(QStringLiteral("AllZero")));
    // The quantile columns: numbers in order for every tensor with a finite value (the scan asks
    // for them), and the all-zero tensor is 100% zeros with every quantile 0.
    for (int r = 0; r < table->rowCount(); ++r) {
        const QString name = table->index(r, 0).data().toString();
        double previous = -std::numeric_limits<double>::infinity();
        for (int c = ScanTableModel::P1Column; c <= ScanTableModel::P99Column; ++c) {
            const QVariant q = table->index(r, c).data(ScanTableModel::SortRole);
            QVERIFY2(q.isValid() && q.toDouble() >= previous, qPrintable(name));
            previous = q.toDouble();
        }
        if (name == expectZero) {
            QCOMPARE(table->index(r, ScanTableModel::ZeroShareColumn).data().toString(),
                     QStringLiteral("100%"));
            QCOMPARE(table->index(r, ScanTableModel::MedianColumn).data().toString(), QStringLiteral("0"));
        }
    }
    QVERIFY(findings.value(expectBig).contains(QStringLiteral("ExtremeOutlier")));

    // The audit list on the summary holds the same findings, tagged as coming from the scan.
    const AuditModel* audit = doc.summaryView()->auditModel();
    std::set<QString> auditNan;
    int fromScan = 0;
    for (int r = 0; r < audit->rowCount(); ++r) {
        if (audit->index(r, AuditModel::SourceColumn).data().toString() != QLatin1String("scan"))
            continue;
        ++fromScan;
        if (audit->diagnostic(r).code == QLatin1String("NanValues"))
            auditNan.insert(audit->diagnostic(r).tensor);
    }
    QVERIFY(fromScan >= 4);
    QCOMPARE(auditNan, expectNan);

    // Sorting by NaN count puts the NaN tensor first (SortRole is numeric).
    child<QTableView>(scan, "results")->sortByColumn(ScanTableModel::NanColumn, Qt::DescendingOrder);
    const QModelIndex top = child<QTableView>(scan, "results")->model()->index(0, 0);
    QCOMPARE(top.data().toString(), *expectNan.begin());
    // Double-click jumps to the tensor.
    emit child<QTableView>(scan, "results")->doubleClicked(top);
    QCOMPARE(doc.currentPage(), DocumentWidget::TensorsPage);
    QCOMPARE(doc.tensorBrowser()->details()->field(QStringLiteral("name")), *expectNan.begin());
}

// The "Check NaN/Inf" button: the same table with NaN/Inf counts and nothing computed left blank,
// only NaN/Inf findings (in the audit list too), and no per-layer chart.
void TestUiScan::nanInfCheckListsOnlyNanAndInf()
{
    const QString path = realFixture(QStringLiteral("age_gender_anomalies_f32.safetensors"));
    TS_REQUIRE_FIXTURE(path);
    DocumentWidget doc(path);
    QVERIFY(loaded(doc));
    ScanView* scan = doc.scanView();
    new QAbstractItemModelTester(scan->tableModel(), QAbstractItemModelTester::FailureReportingMode::QtTest,
                                 &doc);
    // The check on open (Preferences::checkNanInfOnOpen) may still run: the buttons wait for it.
    QVERIFY(QTest::qWaitFor([scan] { return !scan->isRunning(); }, 60000));
    QVERIFY(child<QPushButton>(scan, "checkNanInf")->isEnabled());
    QTest::mouseClick(child<QPushButton>(scan, "checkNanInf"), Qt::LeftButton);
    QVERIFY(QTest::qWaitFor([scan] { return !scan->isRunning(); }, 60000));
    QVERIFY2(scan->statusText().startsWith(QStringLiteral("NaN/Inf check: 51 tensors")),
             qPrintable(scan->statusText()));

    const ScanTableModel* table = scan->tableModel();
    QCOMPARE(table->rowCount(), 51);
    QHash<QString, QString> findings;
    for (int r = 0; r < table->rowCount(); ++r) {
        const QString name = table->index(r, 0).data().toString();
        findings.insert(name, table->index(r, ScanTableModel::FindingsColumn).data().toString());
        for (int c :
             {ScanTableModel::ZerosColumn, ScanTableModel::MeanColumn, ScanTableModel::StdColumn,
              ScanTableModel::ZeroShareColumn, ScanTableModel::MedianColumn, ScanTableModel::P99Column})
            QVERIFY2(!table->index(r, c).data().isValid(), "a statistic the check did not compute is shown");
        if (name == QLatin1String("fc.age.weights"))
            QCOMPARE(table->index(r, ScanTableModel::NanColumn).data().toString(), QStringLiteral("2"));
        if (name == QLatin1String("fc.gender.bias"))
            QCOMPARE(table->index(r, ScanTableModel::InfColumn).data().toString(), QStringLiteral("1"));
    }
    QCOMPARE(findings.value(QStringLiteral("fc.age.weights")), QStringLiteral("NanValues"));
    QCOMPARE(findings.value(QStringLiteral("fc.gender.bias")), QStringLiteral("InfValues"));
    QCOMPARE(findings.value(QStringLiteral("entry_flow.conv_in.bias")), QString()); // all zero: not looked at
    QCOMPARE(child<LayerChartView>(scan)->familyCount(), 0);

    const AuditModel* audit = doc.summaryView()->auditModel();
    auto fromScan = [audit] {
        QStringList codes;
        for (int r = 0; r < audit->rowCount(); ++r) {
            if (audit->index(r, AuditModel::SourceColumn).data().toString() == QLatin1String("scan"))
                codes << audit->diagnostic(r).code;
        }
        codes.sort();
        return codes;
    };
    QCOMPARE(fromScan(), (QStringList{QStringLiteral("InfValues"), QStringLiteral("NanValues")}));

    // After a full scan, a NaN/Inf check replaces only the NaN/Inf findings: the others stand,
    // and nothing is listed twice.
    QVERIFY(scanned(doc));
    const QStringList full = fromScan();
    QCOMPARE(full.size(), 5);
    QTest::mouseClick(child<QPushButton>(scan, "checkNanInf"), Qt::LeftButton);
    QVERIFY(QTest::qWaitFor([scan] { return !scan->isRunning(); }, 60000));
    QVERIFY(scan->statusText().startsWith(QStringLiteral("NaN/Inf check")));
    QCOMPARE(fromScan(), full);
}

void TestUiScan::scanCanBeCancelled()
{
    // 96 MiB of zeros: long enough that Cancel lands while the workers read.
    const std::uint64_t n = 8u << 20;
    std::vector<TestTensor> tensors;
    for (int i = 0; i < 3; ++i)
        tensors.push_back(
            {QStringLiteral("big.%1").arg(i), Dtype::F32, {n}, QByteArray(qsizetype(n * 4), '\0')});
    const QString path = m_dir.filePath(QStringLiteral("big.safetensors"));
    QVERIFY(writeSafetensors(path, tensors));
    tensors.clear();
    DocumentWidget doc(path);
    QVERIFY(loaded(doc));
    ScanView* scan = doc.scanView();
    QSignalSpy finished(scan, &ScanView::scanFinished);
    doc.startScan();
    QVERIFY(scan->isRunning());
    QVERIFY(child<QPushButton>(scan, "cancel")->isEnabled());
    QTest::mouseClick(child<QPushButton>(scan, "cancel"), Qt::LeftButton);
    // The workers stop within one read and deliver what they finished, marked as partial.
    QVERIFY(!child<QPushButton>(scan, "cancel")->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(!scan->isRunning(), 60000);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.first().first().toBool(), false);
    QVERIFY2(scan->statusText().startsWith(QStringLiteral("Cancelled after")),
             qPrintable(scan->statusText()));
    QVERIFY(scan->tableModel()->rowCount() < 3 ||
            scan->statusText().contains(QStringLiteral("of 3 tensors")));
    QVERIFY(QThreadPool::globalInstance()->waitForDone(60000));
    QTRY_VERIFY_WITH_TIMEOUT(jobsDelivered(scan), 60000);
    QCOMPARE(finished.count(), 1);
    // And a new scan afterwards completes.
    QVERIFY(scanned(doc));
    QCOMPARE(scan->tableModel()->rowCount(), 3);
}

void TestUiScan::layerChartHasOnePointPerBlock()
{
    // Six numbered blocks; block 4's weights are ten times wider.
    std::vector<TestTensor> tensors;
    for (int layer = 0; layer < 6; ++layer) {
        const float scale = layer == 4 ? 1.0f : 0.1f;
        tensors.push_back({QStringLiteral("model.layers.%1.mlp.weight").arg(layer),
                           Dtype::F32,
                           {32, 32},
                           bytesOf(smallWeights(32 * 32, scale))});
        tensors.push_back({QStringLiteral("model.layers.%1.norm.weight").arg(layer),
                           Dtype::F32,
                           {32},
                           bytesOf(std::vector<float>(32, 1.0f))});
    }
    tensors.push_back(
        {QStringLiteral("lm_head.weight"), Dtype::F32, {4, 32}, bytesOf(smallWeights(128, 0.1f))});
    const QString path = m_dir.filePath(QStringLiteral("layers.safetensors"));
    QVERIFY(writeSafetensors(path, tensors));
    DocumentWidget doc(path);
    QVERIFY(loaded(doc));
    QVERIFY(scanned(doc));
    LayerChartView* chart = child<LayerChartView>(doc.scanView());
    QCOMPARE(chart->familyCount(), 2);
    chart->setFamily(QStringLiteral("model.layers.#.mlp.weight"));
    QCOMPARE(chart->currentPattern(), QStringLiteral("model.layers.#.mlp.weight"));
    QCOMPARE(chart->pointCount(), 6);
    chart->setStatistic(LayerChartView::Statistic::AbsMax);
    QCOMPARE(chart->pointCount(), 6);
    chart->setFamily(QStringLiteral("model.layers.#.norm.weight"));
    QCOMPARE(chart->pointCount(), 6);
}

void TestUiScan::layerChartOnFixtureBlocks()
{
    const QString path = realFixture(QStringLiteral("face_landmark_68_f32.safetensors"));
    TS_REQUIRE_FIXTURE(path);
    DocumentWidget doc(path);
    QVERIFY(loaded(doc));
    QVERIFY(scanned(doc));
    LayerChartView* chart = child<LayerChartView>(doc.scanView());
    // dense0 .. dense3, each with conv0..conv3: 12 families... of 4 blocks each.
    QVERIFY(chart->familyCount() >= 10);
    chart->setFamily(QStringLiteral("dense#.conv3.pointwise_filter"));
    QCOMPARE(chart->currentPattern(), QStringLiteral("dense#.conv3.pointwise_filter"));
    QCOMPARE(chart->pointCount(), 4);
}

void TestUiScan::scanTableSortsNamesNaturally()
{
    // The tree's order in the table too: "lora.2" before "lora.10", "Conv2d_2" before "Conv2d_10".
    std::vector<TestTensor> tensors;
    for (const char* name : {"lora.10.w", "lora.2.w", "lora.1.w", "Conv2d_10.w", "Conv2d_2.w"})
        tensors.push_back({QString::fromLatin1(name), Dtype::F32, {8}, bytesOf(smallWeights(8, 0.1f))});
    const QString path = m_dir.filePath(QStringLiteral("natural.safetensors"));
    QVERIFY(writeSafetensors(path, tensors));
    DocumentWidget doc(path);
    QVERIFY(loaded(doc));
    QVERIFY(scanned(doc));
    QTableView* view = child<QTableView>(doc.scanView(), "results");
    view->sortByColumn(ScanTableModel::TensorColumn, Qt::AscendingOrder);
    QStringList names;
    for (int r = 0; r < view->model()->rowCount(); ++r)
        names << view->model()->index(r, ScanTableModel::TensorColumn).data().toString();
    QCOMPARE(names, (QStringList{QStringLiteral("Conv2d_2.w"), QStringLiteral("Conv2d_10.w"),
                                 QStringLiteral("lora.1.w"), QStringLiteral("lora.2.w"),
                                 QStringLiteral("lora.10.w")}));
}

void TestUiScan::scanTableSharesTheScansStatistics()
{
    // A 100,000-tensor model's statistics are 30 MB: the table reads the scan's own, it does not
    // copy them. Its findings column still gathers each tensor's codes, the worst one deciding
    // the colour.
    auto result = std::make_shared<ScanResult>();
    for (const char* name : {"a", "b", "c"}) {
        TensorStats t;
        t.name = QString::fromLatin1(name);
        t.elements = 4;
        result->tensors.push_back(t);
    }
    result->findings = {
        Diagnostic{QStringLiteral("Outlier"), Severity::Warning, {}, QStringLiteral("b"), {}},
        Diagnostic{QStringLiteral("NanValues"), Severity::Error, {}, QStringLiteral("b"), {}},
        Diagnostic{QStringLiteral("Elsewhere"), Severity::Error, {}, QStringLiteral("z"), {}}};
    ScanTableModel table;
    QAbstractItemModelTester tester(&table);
    table.setResult(result);
    QCOMPARE(table.rowCount(), 3);
    for (int r = 0; r < 3; ++r)
        QCOMPARE(&table.stats(r), &result->tensors[static_cast<std::size_t>(r)]);
    QCOMPARE(table.index(0, ScanTableModel::FindingsColumn).data().toString(), QString());
    QCOMPARE(table.index(1, ScanTableModel::FindingsColumn).data().toString(),
             QStringLiteral("Outlier, NanValues"));
    QVERIFY(
        table.index(1, ScanTableModel::FindingsColumn).data(Qt::ForegroundRole).isValid()); // an error: red
    QVERIFY(table.index(1, ScanTableModel::FindingsColumn).data(ScanTableModel::SortRole).toInt() >
            table.index(2, ScanTableModel::FindingsColumn).data(ScanTableModel::SortRole).toInt());
    table.clear();
    QCOMPARE(table.rowCount(), 0);
}

QTEST_MAIN(TestUiScan)
#include "tst_ui_scan.moc"
