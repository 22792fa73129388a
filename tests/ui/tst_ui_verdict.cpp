// The summary says whether the values were checked (ValuesVerdict): not before a check, the NaN/Inf
// check on open for models under the size limit (Preferences), and a verdict after any check.
#include "UiTestUtils.h"
#include "document/DocumentWidget.h"
#include "scan/ScanView.h"
#include "summary/AuditModel.h"
#include "summary/SummaryView.h"
#include "summary/ValuesVerdict.h"
#include "window/Preferences.h"

#include <QFile>
#include <QFontMetrics>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QtEndian>

#include <limits>
#include <memory>

using namespace ts;
using namespace ts::ui;
using namespace ts::test;

namespace {

const QString kAnomalies = QStringLiteral("age_gender_anomalies_f32.safetensors");

bool loaded(DocumentWidget& doc)
{
    return QTest::qWaitFor([&doc] { return doc.state() != DocumentWidget::State::Loading; }, 10000) &&
           doc.state() == DocumentWidget::State::Loaded;
}

ValuesVerdict* verdictOf(DocumentWidget& doc)
{
    return doc.findChild<SummaryView*>()->valuesVerdict();
}

Diagnostic finding(const char* code, Severity severity, const char* tensor)
{
    return {QString::fromLatin1(code), severity, QString(), QString::fromLatin1(tensor), std::nullopt};
}

} // namespace

class TestUiVerdict : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        // Fresh settings for every test, never the user's.
        m_settings = std::make_unique<QTemporaryDir>();
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings->path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings->path());
        QVERIFY(QSettings().allKeys().isEmpty());
        if (realFixture(kAnomalies).isEmpty() || !QFile::exists(realFixture(kAnomalies)))
            QFAIL("shared fixture age_gender_anomalies_f32.safetensors is missing (../shared/fixtures/real)");
    }

    void sentencesCountTensorsInWords()
    {
        using Check = ScanView::Check;
        QCOMPARE(
            ValuesVerdict::verdictFor(Check::NanInfOnly, {}),
            QStringLiteral(
                "NaN/Inf check: no NaN or Inf in any tensor. Scan Values looks for the other anomalies."));
        QCOMPARE(ValuesVerdict::verdictFor(Check::NanInfOnly, {finding("NanValues", Severity::Error, "a"),
                                                               finding("InfValues", Severity::Error, "a")}),
                 QStringLiteral("NaN/Inf check: 1 tensor with NaN or Inf (see the audit list)."));
        QCOMPARE(
            ValuesVerdict::verdictFor(Check::Full, {finding("NanValues", Severity::Error, "a"),
                                                    finding("InfValues", Severity::Error, "b"),
                                                    finding("AllZero", Severity::Warning, "c"),
                                                    finding("LayerOutlier", Severity::Warning, "a")}),
            QStringLiteral(
                "Values scanned: 2 tensors with NaN or Inf, 1 tensor with warnings (see the audit list)."));
        QCOMPARE(ValuesVerdict::verdictFor(Check::Full, {finding("DuplicateTensor", Severity::Info, "a")}),
                 QStringLiteral("Values scanned: no NaN, Inf or other anomaly in any tensor."));
    }

    void smallModelsAreCheckedOnOpenWithoutLeavingTheSummary()
    {
        DocumentWidget doc(realFixture(kAnomalies));
        QVERIFY(loaded(doc));
        ValuesVerdict* verdict = verdictOf(doc);
        QTRY_COMPARE_WITH_TIMEOUT(verdict->state(), ValuesVerdict::State::Checked, 20000);
        QCOMPARE(verdict->text(),
                 QStringLiteral("NaN/Inf check: 2 tensors with NaN or Inf (see the audit list)."));
        QCOMPARE(doc.currentPage(), DocumentWidget::SummaryPage);
    }

    void withoutTheCheckTheSummarySaysSoAndOffersIt()
    {
        Preferences::setCheckNanInfOnOpen(false);
        DocumentWidget doc(realFixture(kAnomalies));
        QVERIFY(loaded(doc));
        ValuesVerdict* verdict = verdictOf(doc);
        QCOMPARE(verdict->state(), ValuesVerdict::State::NotChecked);
        QVERIFY2(verdict->text().startsWith(QStringLiteral("Values not checked yet")),
                 qPrintable(verdict->text()));
        QVERIFY(!doc.scanView()->isRunning());

        verdict->nanInfButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(verdict->state(), ValuesVerdict::State::Checked, 20000);
        QVERIFY2(verdict->text().contains(QStringLiteral("2 tensors with NaN or Inf")),
                 qPrintable(verdict->text()));
        QCOMPARE(doc.currentPage(), DocumentWidget::SummaryPage);

        verdict->scanButton()->click(); // the full scan shows its table
        QCOMPARE(doc.currentPage(), DocumentWidget::ScanPage);
        QTRY_COMPARE_WITH_TIMEOUT(verdict->state(), ValuesVerdict::State::Checked, 60000);
        QVERIFY2(verdict->text().startsWith(QStringLiteral("Values scanned: 2 tensors with NaN or Inf")),
                 qPrintable(verdict->text()));
    }

    void modelsOverTheLimitAreNotCheckedOnOpen()
    {
        Preferences::setCheckNanInfLimitBytes(1024); // the fixture holds 1.6 MiB of tensors
        DocumentWidget doc(realFixture(kAnomalies));
        QVERIFY(loaded(doc));
        QCOMPARE(verdictOf(doc)->state(), ValuesVerdict::State::NotChecked);
        QVERIFY(!doc.scanView()->isRunning());
    }

    void modelsWithTooManyTensorsAreNotCheckedOnOpen()
    {
        Preferences::setCheckNanInfMaxTensors(50); // the fixture holds 51
        DocumentWidget doc(realFixture(kAnomalies));
        QVERIFY(loaded(doc));
        QCOMPARE(verdictOf(doc)->state(), ValuesVerdict::State::NotChecked);
        QVERIFY(!doc.scanView()->isRunning());
    }

    void theAuditListsErrorsFirstWithItsCodesInFull()
    {
        // A header note (LeadingWhitespace, a warning) first, then the check's NaN (an error).
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("nan.safetensors"));
        QByteArray header = R"( {"encoder.layer.3.w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
        while ((8 + header.size()) % 8 != 0)
            header += ' ';
        QByteArray bytes(8, '\0');
        qToLittleEndian<quint64>(static_cast<quint64>(header.size()), bytes.data());
        const float values[2] = {std::numeric_limits<float>::quiet_NaN(), 1.0f};
        bytes += header + QByteArray(reinterpret_cast<const char*>(values), sizeof values);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size());
        f.close();
        DocumentWidget doc(path);
        QVERIFY(loaded(doc));
        QTRY_COMPARE_WITH_TIMEOUT(verdictOf(doc)->state(), ValuesVerdict::State::Checked, 20000);
        QTreeView* view = child<QTreeView>(doc.summaryView(), "audit");
        QAbstractItemModel* shown = view->model();
        QCOMPARE(shown->rowCount(), 2);
        QCOMPARE(shown->index(0, AuditModel::CodeColumn).data().toString(), QStringLiteral("NanValues"));
        QCOMPARE(shown->index(1, AuditModel::CodeColumn).data().toString(),
                 QStringLiteral("LeadingWhitespace"));
        // Fitted again when the scan's row arrived: the tensor column was fitted to the header's
        // row, which names no tensor, and would cut the name.
        const QFontMetrics metrics(view->font());
        QVERIFY(view->columnWidth(AuditModel::TensorColumn) >=
                metrics.horizontalAdvance(QStringLiteral("encoder.layer.3.w")));
    }

    void aCancelledCheckSaysNotEveryValueWasChecked()
    {
        Preferences::setCheckNanInfOnOpen(false);
        DocumentWidget doc(realFixture(kAnomalies));
        QVERIFY(loaded(doc));
        doc.scanView()->startScan(ScanView::Check::Full);
        QCOMPARE(verdictOf(doc)->state(), ValuesVerdict::State::Checking);
        doc.scanView()->cancelScan();
        QTRY_COMPARE_WITH_TIMEOUT(verdictOf(doc)->state() == ValuesVerdict::State::Stopped ||
                                      verdictOf(doc)->state() == ValuesVerdict::State::Checked,
                                  true, 20000);
        // A scan this small may finish before the cancel lands; when it did not, the summary says so.
        if (verdictOf(doc)->state() == ValuesVerdict::State::Stopped)
            QVERIFY(verdictOf(doc)->text().contains(QStringLiteral("not every value was checked")));
    }

private:
    std::unique_ptr<QTemporaryDir> m_settings;
};

QTEST_MAIN(TestUiVerdict)
#include "tst_ui_verdict.moc"
