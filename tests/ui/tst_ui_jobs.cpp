// The real panels against stale results: tensor A selected, then B before A's job is delivered,
// and what is shown (or cached) must be B's. Jobs are held back deterministically by occupying
// the global thread pool (PoolGate), never by sleeping. And a tensor read that fails because the
// file changed under the document raises its reload banner, naming what failed.

#include "UiTestUtils.h"
#include "charts/HeatmapPanel.h"
#include "charts/LinePlotPanel.h"
#include "document/DocumentWidget.h"
#include "document/ReloadBanner.h"
#include "scan/ScanView.h"
#include "tensor/StatsJob.h"
#include "tensor/StatsPanel.h"
#include "window/Preferences.h"

#include <QApplication>
#include <QFile>
#include <QSemaphore>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <unistd.h>

using namespace ts;
using namespace ts::ui;
using namespace ts::test;

namespace {

// While it lives, the global pool (where every JobRunner job runs) has one thread and it is
// busy: jobs started meanwhile wait in the queue, in order, until release().
class PoolGate {
public:
    PoolGate() : m_pool(QThreadPool::globalInstance()), m_threads(m_pool->maxThreadCount())
    {
        m_pool->waitForDone();
        m_pool->setMaxThreadCount(1);
        m_pool->start([this] {
            m_started.release();
            m_open.acquire();
        });
        m_started.acquire();
    }
    ~PoolGate()
    {
        release();
        m_pool->waitForDone();
        m_pool->setMaxThreadCount(m_threads);
    }
    void release()
    {
        if (!m_released)
            m_open.release();
        m_released = true;
    }

private:
    QThreadPool* m_pool;
    int m_threads;
    QSemaphore m_started, m_open;
    bool m_released = false;
};

// Runs what the UI thread has queued so far (deliveries of jobs that ended are among it).
bool drainQueuedCalls()
{
    bool ran = false;
    QMetaObject::invokeMethod(
        QCoreApplication::instance(), [&ran] { ran = true; }, Qt::QueuedConnection);
    return QTest::qWaitFor([&ran] { return ran; }, 10000);
}

// Every job ended and its delivery is queued; nothing returned to the event loop meanwhile.
bool waitForJobs()
{
    return QThreadPool::globalInstance()->waitForDone(20000);
}

std::shared_ptr<const Checkpoint> openModel(const QString& path)
{
    Result<std::shared_ptr<const Checkpoint>> m = Checkpoint::open(path);
    return m ? m.value() : nullptr;
}

// Tensor "a" holds only `a`, tensor "b" only `b`: whichever result is shown says whose it is.
bool writeTwoTensors(const QString& path, std::vector<std::uint64_t> shape, float a, float b)
{
    std::uint64_t n = 1;
    for (std::uint64_t d : shape)
        n *= d;
    return writeSafetensors(path,
                            {{QStringLiteral("a"), Dtype::F32, shape, bytesOf(std::vector<float>(n, a))},
                             {QStringLiteral("b"), Dtype::F32, shape, bytesOf(std::vector<float>(n, b))}});
}

} // namespace

class TestUiJobs : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void statsOfASupersededTensorAreNeverCached();
    void heatmapShowsOnlyTheLastTensor();
    void linePlotShowsOnlyTheLastTensor();
    void scanResultOfAReplacedScanIsDropped();
    void truncatedFileRaisesTheReloadBannerFromAStatsRead();

private:
    QTemporaryDir m_dir;
};

void TestUiJobs::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // QSettings in a test location, not the user's
    QApplication::setOrganizationName(QStringLiteral("TensorscopeTest"));
    QApplication::setApplicationName(QStringLiteral("tst_ui_jobs"));
    // No NaN/Inf check on open: these tests decide what runs in the pool.
    Preferences::setCheckNanInfOnOpen(false);
}

// Through the real document and tree: a's job is queued, b is selected, a's job then runs with
// its token cancelled and returns a Cancelled error. Cached, that error would be what a user sees
// on going back to a.
void TestUiJobs::statsOfASupersededTensorAreNeverCached()
{
    const QString path = m_dir.filePath(QStringLiteral("stats.safetensors"));
    QVERIFY(writeTwoTensors(path, {32, 32}, 1.5f, -2.5f));
    DocumentWidget doc(path);
    QTRY_VERIFY_WITH_TIMEOUT(doc.state() == DocumentWidget::State::Loaded, 10000);
    auto* panel = doc.findChild<StatsPanel*>();
    auto* job = doc.findChild<StatsJob*>();
    QVERIFY(panel && job);
    QVERIFY(waitForJobs() && drainQueuedCalls());
    {
        PoolGate gate;
        QVERIFY(doc.selectTensor(QStringLiteral("a")));
        QVERIFY(doc.selectTensor(QStringLiteral("b")));
        gate.release();
        QVERIFY(waitForJobs() && drainQueuedCalls());
    }
    QVERIFY(!panel->isComputing());
    QCOMPARE(panel->value(QStringLiteral("mean")), QStringLiteral("-2.5"));
    QVERIFY2(!job->cached(doc.result().model->indexOf(QStringLiteral("a")), job->bins()),
             "the superseded job's result was cached");
    QVERIFY(doc.selectTensor(QStringLiteral("a")));
    QVERIFY(panel->isComputing()); // computed afresh, not the cancelled job's error
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isComputing(), 20000);
    QCOMPARE(panel->value(QStringLiteral("mean")), QStringLiteral("1.5"));
}

// a's grid is ready and queued when b is shown; b's job waits behind the gate. What the panel
// holds once a's delivery has run must still be nothing (b is computing), never a's grid.
void TestUiJobs::heatmapShowsOnlyTheLastTensor()
{
    const QString path = m_dir.filePath(QStringLiteral("heatmap.safetensors"));
    QVERIFY(writeTwoTensors(path, {8, 8}, 1.0f, 2.0f));
    const auto model = openModel(path);
    QVERIFY(model);
    HeatmapPanel panel;
    panel.showTensor(model, model->indexOf(QStringLiteral("a")));
    QVERIFY(waitForJobs());
    PoolGate gate;
    panel.showTensor(model, model->indexOf(QStringLiteral("b")));
    QSignalSpy ready(&panel, &HeatmapPanel::gridReady);
    QVERIFY(drainQueuedCalls());
    QCOMPARE(ready.count(), 0);
    QVERIFY(panel.isComputing());
    QCOMPARE(panel.grid().rows, 0);
    gate.release();
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isComputing() && panel.grid().rows > 0, 20000);
    QCOMPARE(ready.count(), 1);
    QCOMPARE(panel.grid().absmax, 2.0);
}

void TestUiJobs::linePlotShowsOnlyTheLastTensor()
{
    const QString path = m_dir.filePath(QStringLiteral("line.safetensors"));
    QVERIFY(writeTwoTensors(path, {100}, 1.0f, 2.0f));
    const auto model = openModel(path);
    QVERIFY(model);
    LinePlotPanel panel;
    panel.showTensor(model, model->indexOf(QStringLiteral("a")));
    QVERIFY(waitForJobs());
    PoolGate gate;
    panel.showTensor(model, model->indexOf(QStringLiteral("b")));
    QSignalSpy ready(&panel, &LinePlotPanel::envelopeReady);
    QVERIFY(drainQueuedCalls());
    QCOMPARE(ready.count(), 0);
    QVERIFY(panel.isComputing());
    QVERIFY(panel.envelope().x.empty());
    gate.release();
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isComputing() && !panel.envelope().x.empty(), 20000);
    QCOMPARE(ready.count(), 1);
    QCOMPARE(panel.envelope().max.front(), 2.0);
}

// A full scan has finished and queued its result when the NaN/Inf check replaces it: the full
// scan's findings must not reach the audit list as if they were the check's.
void TestUiJobs::scanResultOfAReplacedScanIsDropped()
{
    const QString path = m_dir.filePath(QStringLiteral("scan.safetensors"));
    QVERIFY(writeTwoTensors(path, {16, 16}, 0.0f, 1.0f)); // "a" is all zeros: a finding
    const auto model = openModel(path);
    QVERIFY(model);
    ScanView view;
    view.setModel(model);
    QSignalSpy findings(&view, &ScanView::findingsReady);
    view.startScan(ScanView::Check::Full);
    QVERIFY(waitForJobs());
    PoolGate gate;
    view.startScan(ScanView::Check::NanInfOnly);
    QVERIFY(drainQueuedCalls());
    QCOMPARE(findings.count(), 0);
    QVERIFY(view.isRunning());
    gate.release();
    QTRY_COMPARE_WITH_TIMEOUT(findings.count(), 1, 20000);
    QCOMPARE(findings.front().at(1).value<ScanView::Check>(), ScanView::Check::NanInfOnly);
    QVERIFY(!view.isRunning());
}

// The file is cut under the open document, then a tensor is selected: its statistics read meets
// FileChanged, and the banner says so, naming the tensor. (The file watcher may show its own
// "changed on disk" first; the read's message replaces it.) "b" is a scalar: no heatmap or line
// plot reads it, the statistics job is the only reader that can report.
void TestUiJobs::truncatedFileRaisesTheReloadBannerFromAStatsRead()
{
    const QString path = m_dir.filePath(QStringLiteral("truncated.safetensors"));
    QVERIFY(writeSafetensors(
        path, {{QStringLiteral("a"), Dtype::F32, {512, 512}, bytesOf(std::vector<float>(512 * 512, 1.0f))},
               {QStringLiteral("b"), Dtype::F32, {}, bytesOf(std::vector<float>{2.0f})}}));
    DocumentWidget doc(path);
    QTRY_VERIFY_WITH_TIMEOUT(doc.state() == DocumentWidget::State::Loaded, 10000);
    QVERIFY(!doc.isReloadPromptVisible());
    const auto model = doc.result().model;
    const TensorLocation b = model->location(model->indexOf(QStringLiteral("b")));
    // Keeps the header and "a", and half of "b".
    QVERIFY(::truncate(QFile::encodeName(path).constData(), static_cast<off_t>(b.offset + 2)) == 0);
    QVERIFY(doc.selectTensor(QStringLiteral("b")));
    QTRY_VERIFY_WITH_TIMEOUT(doc.isReloadPromptVisible() &&
                                 doc.reloadBanner()->message().contains(QStringLiteral("\"b\"")),
                             20000);
    QVERIFY2(doc.reloadBanner()->message().contains(QStringLiteral("Reload")),
             qPrintable(doc.reloadBanner()->message()));
}

QTEST_MAIN(TestUiJobs)
#include "tst_ui_jobs.moc"
