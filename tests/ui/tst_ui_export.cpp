// Results leave the window: the scan table and the audit list as CSV (what the views show, with
// spreadsheet formulas from hostile tensor names defused) and as JSON, the scan's being exactly
// what `tensorscope-cli scan --json` prints for the same file.
#include "ChildProcess.h"
#include "UiTestUtils.h"
#include "common/TableExport.h"
#include "document/DocumentWidget.h"
#include "scan/ScanTableModel.h"
#include "scan/ScanView.h"
#include "summary/SummaryView.h"
#include "summary/ValuesVerdict.h"
#include "window/Preferences.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>

#include <limits>
#include <memory>

using namespace ts;
using namespace ts::ui;
using namespace ts::test;

namespace {

const QString kHostile = QStringLiteral("=HYPERLINK(\"http://x\",\"a\").weight");

bool writeModel(const QString& path)
{
    std::vector<TestTensor> tensors;
    for (int i = 0; i < 3; ++i) {
        std::vector<float> v = smallWeights(1024, 0.1f * static_cast<float>(i + 1));
        if (i == 1)
            v[5] = std::numeric_limits<float>::infinity();
        tensors.push_back({QStringLiteral("layers.%1.weight").arg(i), Dtype::F32, {32, 32}, bytesOf(v)});
    }
    std::vector<float> nan = smallWeights(16, 1.0f);
    nan[0] = std::numeric_limits<float>::quiet_NaN();
    tensors.push_back({kHostile, Dtype::F32, {16}, bytesOf(nan)});
    return writeSafetensors(path, tensors);
}

QList<QByteArray> csvLines(const QByteArray& csv)
{
    QList<QByteArray> lines = csv.split('\n');
    if (!lines.isEmpty() && lines.back().isEmpty())
        lines.pop_back();
    return lines;
}

} // namespace

class TestUiExport : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        m_settings = std::make_unique<QTemporaryDir>();
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings->path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings->path());
        Preferences::setCheckNanInfOnOpen(false);
    }

    void csvQuotesAndDefusesFormulas()
    {
        QStandardItemModel model(3, 2);
        model.setHorizontalHeaderLabels({QStringLiteral("name"), QStringLiteral("value")});
        model.setData(model.index(0, 0), QStringLiteral("a,b"));
        model.setData(model.index(0, 1), QStringLiteral("-0.5"));
        model.setData(model.index(1, 0), QStringLiteral("say \"hi\"\nthere"));
        model.setData(model.index(1, 1), QStringLiteral("@SUM(A1)"));
        model.setData(model.index(2, 0), QStringLiteral("=1+1"));
        model.setData(model.index(2, 1), QStringLiteral("+inf sign"));
        QCOMPARE(TableExport::csv(model), QByteArray("name,value\r\n"
                                                     "\"a,b\",-0.5\r\n"
                                                     "\"say \"\"hi\"\"\nthere\",'@SUM(A1)\r\n"
                                                     "'=1+1,'+inf sign\r\n"));
    }

    void writeFileReplacesAtomicallyAndNamesTheFileOnError()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("out.csv"));
        QVERIFY(TableExport::writeFile(path, "old").isEmpty());
        QVERIFY(TableExport::writeFile(path, "new").isEmpty());
        QCOMPARE(readFile(path), QByteArray("new"));
        const QString bad = dir.filePath(QStringLiteral("missing/dir/out.csv"));
        const QString error = TableExport::writeFile(bad, "x");
        QVERIFY2(error.contains(bad), qPrintable(error));
    }

    void scanAndAuditExportAsShownAndAsTheCli()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("m.safetensors"));
        QVERIFY(writeModel(path));
        DocumentWidget doc(path);
        QTRY_COMPARE_WITH_TIMEOUT(doc.state(), DocumentWidget::State::Loaded, 20000);
        QVERIFY(doc.scanView()->resultsCsv().isEmpty()); // nothing scanned yet
        doc.startScan(ScanView::Check::Full);
        QTRY_COMPARE_WITH_TIMEOUT(doc.summaryView()->valuesVerdict()->state(), ValuesVerdict::State::Checked,
                                  20000);

        // The scan table: a header and one line per tensor, the hostile name defused and quoted.
        const QList<QByteArray> scanLines = csvLines(doc.scanView()->resultsCsv());
        QCOMPARE(scanLines.size(), 1 + 4);
        QVERIFY(scanLines.front().startsWith("Tensor"));
        QVERIFY2(doc.scanView()->resultsCsv().contains("\"'=HYPERLINK(\"\"http://x\"\",\"\"a\"\").weight\""),
                 doc.scanView()->resultsCsv().constData());

        // The scan's JSON is the CLI's (the window's scan has quantiles), but for the time it took.
        const QJsonObject window = QJsonDocument::fromJson(doc.scanView()->resultsJson()).object();
        const ProcessRun cli =
            runCli({QStringLiteral("scan"), QStringLiteral("--json"), QStringLiteral("--quantiles"), path});
        QCOMPARE(cli.exitCode, 1); // findings of severity error: NaN and Inf
        QJsonObject fromCli = QJsonDocument::fromJson(cli.out).object();
        QVERIFY(!fromCli.isEmpty());
        QVERIFY(window.value(QStringLiteral("seconds")).isDouble());
        QJsonObject windowNoTime = window;
        windowNoTime.remove(QStringLiteral("seconds"));
        fromCli.remove(QStringLiteral("seconds"));
        QCOMPARE(windowNoTime, fromCli);
        QCOMPARE(window.value(QStringLiteral("complete")).toBool(), true);
        QCOMPARE(window.value(QStringLiteral("tensors")).toArray().size(), 4);

        // The audit list: CSV as shown, JSON in the CLI's findings shape.
        const QByteArray auditCsv = doc.summaryView()->auditCsv();
        QVERIFY(auditCsv.contains("NanValues"));
        QVERIFY(auditCsv.contains("InfValues"));
        const QJsonObject audit = QJsonDocument::fromJson(doc.summaryView()->auditJson()).object();
        QCOMPARE(audit.value(QStringLiteral("file")).toString(), doc.summaryView()->summary().path);
        QStringList codes;
        for (const QJsonValue& f : audit.value(QStringLiteral("findings")).toArray())
            codes << f.toObject().value(QStringLiteral("code")).toString();
        QVERIFY2(codes.contains(QStringLiteral("NanValues")) && codes.contains(QStringLiteral("InfValues")),
                 qPrintable(codes.join(QLatin1Char(' '))));
        QCOMPARE(codes.size(), csvLines(auditCsv).size() - 1);
    }

private:
    std::unique_ptr<QTemporaryDir> m_settings;
};

QTEST_MAIN(TestUiExport)
#include "tst_ui_export.moc"
