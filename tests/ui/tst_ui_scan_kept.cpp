// A scan's results outlive what does not change the values: our own metadata save and a Reload of
// a file unchanged on disk keep the table, the audit list's findings and the summary's verdict; a
// file rewritten by another program loses them. A cancelled scan shows what it finished.
#include "UiTestUtils.h"
#include "document/DocumentWidget.h"
#include "metadata/MetadataModel.h"
#include "metadata/MetadataView.h"
#include "scan/ScanTableModel.h"
#include "scan/ScanView.h"
#include "summary/AuditModel.h"
#include "summary/SummaryView.h"
#include "summary/ValuesVerdict.h"
#include "window/Preferences.h"

#include <QFile>
#include <QProgressBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

#include <limits>
#include <memory>

using namespace ts;
using namespace ts::ui;
using namespace ts::test;

namespace {

bool loaded(DocumentWidget& doc)
{
    return QTest::qWaitFor([&doc] { return doc.state() != DocumentWidget::State::Loading; }, 20000) &&
           doc.state() == DocumentWidget::State::Loaded;
}

ValuesVerdict* verdictOf(DocumentWidget& doc)
{
    return doc.summaryView()->valuesVerdict();
}

int auditRows(DocumentWidget& doc, const QString& code)
{
    AuditModel* audit = doc.summaryView()->auditModel();
    int n = 0;
    for (int row = 0; row < audit->rowCount(); ++row)
        n += audit->diagnostic(row).code == code;
    return n;
}

// Eight F32 tensors; `nanIn` gets a NaN at element 3 (-1: none).
bool writeModel(const QString& path, int nanIn, const QString& note)
{
    std::vector<TestTensor> tensors;
    for (int i = 0; i < 8; ++i) {
        std::vector<float> v = smallWeights(4096, 0.1f * static_cast<float>(i + 1));
        if (i == nanIn)
            v[3] = std::numeric_limits<float>::quiet_NaN();
        tensors.push_back({QStringLiteral("layers.%1.weight").arg(i), Dtype::F32, {64, 64}, bytesOf(v)});
    }
    Metadata metadata;
    metadata.set(QStringLiteral("note"), note);
    return writeSafetensors(path, tensors, metadata, 256);
}

// A model too big to scan before a Cancel lands: 32 F32 tensors of 16 MiB, zeros (a sparse
// file) but one NaN in the first.
bool writeBigSparseModel(const QString& path)
{
    constexpr std::uint64_t kTensorBytes = 16u << 20;
    QByteArray json = "{";
    for (int i = 0; i < 32; ++i) {
        json += QStringLiteral("%1\"layers.%2.weight\":{\"dtype\":\"F32\",\"shape\":[4096,1024],"
                               "\"data_offsets\":[%3,%4]}")
                    .arg(i ? QStringLiteral(",") : QString())
                    .arg(i)
                    .arg(i * kTensorBytes)
                    .arg((i + 1) * kTensorBytes)
                    .toLatin1();
    }
    json += "}";
    while (json.size() % 8)
        json += ' ';
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    quint64 n = qToLittleEndian<quint64>(static_cast<quint64>(json.size()));
    f.write(reinterpret_cast<const char*>(&n), 8);
    f.write(json);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    f.seek(8 + json.size() + 40);
    f.write(reinterpret_cast<const char*>(&nan), sizeof nan);
    return f.resize(8 + json.size() + 32 * kTensorBytes);
}

} // namespace

class TestUiScanKept : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        m_settings = std::make_unique<QTemporaryDir>();
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings->path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings->path());
        Preferences::setCheckNanInfOnOpen(false);
    }

    void saveAndReloadKeepTheScan()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("m.safetensors"));
        QVERIFY(writeModel(path, 2, QStringLiteral("first")));
        DocumentWidget doc(path);
        QVERIFY(loaded(doc));
        doc.startScan(ScanView::Check::Full);
        QTRY_COMPARE_WITH_TIMEOUT(verdictOf(doc)->state(), ValuesVerdict::State::Checked, 20000);
        const QString verdict = verdictOf(doc)->text();
        QCOMPARE(doc.scanView()->tableModel()->rowCount(), 8);
        QCOMPARE(auditRows(doc, QStringLiteral("NanValues")), 1);

        // A metadata save (in place: the header has room) keeps everything the scan showed.
        MetadataModel* metadata = doc.metadataView()->model();
        QVERIFY(metadata->setData(metadata->index(metadata->rowOf(QStringLiteral("note")), 1),
                                  QStringLiteral("second")));
        QSignalSpy saved(&doc, &DocumentWidget::saveFinished);
        QSignalSpy reloaded(&doc, &DocumentWidget::loaded);
        QVERIFY(doc.save());
        QVERIFY(saved.wait(20000));
        QVERIFY2(saved.first().at(0).toBool(), qPrintable(saved.first().at(1).toString()));
        QVERIFY(reloaded.count() > 0 || reloaded.wait(20000));
        QCOMPARE(doc.state(), DocumentWidget::State::Loaded);
        QCOMPARE(doc.metadataView()->model()->metadata()->value(QStringLiteral("note")),
                 QStringLiteral("second"));
        QCOMPARE(verdictOf(doc)->state(), ValuesVerdict::State::Checked);
        QCOMPARE(verdictOf(doc)->text(), verdict);
        QCOMPARE(doc.scanView()->tableModel()->rowCount(), 8);
        QCOMPARE(auditRows(doc, QStringLiteral("NanValues")), 1);

        // Save As writes the same tensors elsewhere: still the scanned values.
        const QString copy = dir.filePath(QStringLiteral("copy.safetensors"));
        QVERIFY(metadata->setData(metadata->index(metadata->rowOf(QStringLiteral("note")), 1),
                                  QStringLiteral("third, a longer note that no longer fits in place")));
        reloaded.clear();
        saved.clear();
        QVERIFY(doc.save(copy));
        QVERIFY(saved.wait(20000));
        QVERIFY2(saved.first().at(0).toBool(), qPrintable(saved.first().at(1).toString()));
        QVERIFY(reloaded.count() > 0 || reloaded.wait(20000));
        QCOMPARE(doc.path(), QFileInfo(copy).canonicalFilePath());
        QCOMPARE(verdictOf(doc)->state(), ValuesVerdict::State::Checked);
        QCOMPARE(auditRows(doc, QStringLiteral("NanValues")), 1);

        // A Reload of the unchanged file keeps it too.
        reloaded.clear();
        doc.reload();
        QVERIFY(reloaded.wait(20000));
        QCOMPARE(verdictOf(doc)->state(), ValuesVerdict::State::Checked);
        QCOMPARE(doc.scanView()->tableModel()->rowCount(), 8);

        // Another program rewrites the file, same tensors, other values: the scan is gone.
        const QString replacement = dir.filePath(QStringLiteral("new.safetensors"));
        QVERIFY(writeModel(replacement, -1, QStringLiteral("other")));
        QVERIFY(QFile::remove(copy));
        QVERIFY(QFile::rename(replacement, copy));
        reloaded.clear();
        doc.reload();
        QVERIFY(reloaded.wait(20000));
        QCOMPARE(verdictOf(doc)->state(), ValuesVerdict::State::NotChecked);
        QCOMPARE(doc.scanView()->tableModel()->rowCount(), 0);
        QCOMPARE(auditRows(doc, QStringLiteral("NanValues")), 0);
    }

    void aCancelledScanShowsWhatItFinished()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.safetensors"));
        QVERIFY(writeBigSparseModel(path));
        DocumentWidget doc(path);
        QVERIFY(loaded(doc));
        auto* bar = child<QProgressBar>(doc.scanView());
        QVERIFY(bar);
        // Cancels from the first progress report past 10%: the scan is under way, not over.
        bool cancelled = false;
        connect(bar, &QProgressBar::valueChanged, &doc, [&](int value) {
            if (!cancelled && value >= 100 && value < 1000) {
                cancelled = true;
                doc.scanView()->cancelScan();
            }
        });
        doc.startScan(ScanView::Check::Full);
        QTRY_VERIFY_WITH_TIMEOUT(!doc.scanView()->isRunning(), 60000);
        QVERIFY2(cancelled, "the scan ended before a progress report between 10% and 100%");
        QCOMPARE(verdictOf(doc)->state(), ValuesVerdict::State::Stopped);
        QVERIFY2(verdictOf(doc)->text().contains(QStringLiteral("cancelled after")),
                 qPrintable(verdictOf(doc)->text()));
        QVERIFY(verdictOf(doc)->text().contains(QStringLiteral("not every value was checked")));
        const int rows = doc.scanView()->tableModel()->rowCount();
        QVERIFY2(rows >= 1 && rows <= 32, qPrintable(QString::number(rows)));
        QVERIFY2(doc.scanView()->statusText().startsWith(
                     QStringLiteral("Cancelled after %1 of 32 tensors").arg(rows)),
                 qPrintable(doc.scanView()->statusText()));
        QCOMPARE(auditRows(doc, QStringLiteral("NanValues")), 1);
    }

private:
    std::unique_ptr<QTemporaryDir> m_settings;
};

QTEST_MAIN(TestUiScanKept)
#include "tst_ui_scan_kept.moc"
