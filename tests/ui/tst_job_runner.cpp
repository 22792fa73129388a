// ui/common/JobRunner, the one way the window runs background work: results on the UI thread,
// stale results (a superseded or cancelled job's) dropped, cancel reaching the work, progress
// forwarded throttled, nothing delivered to a receiver that is gone.

#include "common/JobRunner.h"

#include <QCoreApplication>
#include <QScopeGuard>
#include <QSemaphore>
#include <QTest>
#include <QThread>
#include <QThreadPool>

#include <atomic>
#include <chrono>
#include <thread>

using namespace ts;
using namespace ts::ui;

namespace {

// Runs whatever the UI thread has queued so far (the deliveries of jobs that have finished):
// posted calls run in order, so once a call posted now has run, so have they.
bool drainQueuedCalls()
{
    bool ran = false;
    QMetaObject::invokeMethod(
        QCoreApplication::instance(), [&ran] { ran = true; }, Qt::QueuedConnection);
    return QTest::qWaitFor([&ran] { return ran; }, 10000);
}

// Every job has finished and queued its delivery.
bool waitForPool()
{
    return QThreadPool::globalInstance()->waitForDone(10000);
}

} // namespace

class TestJobRunner : public QObject {
    Q_OBJECT
private slots:
    // Jobs that block wait beside the ones they are tested against, on a machine of any size.
    void initTestCase() { QThreadPool::globalInstance()->setMaxThreadCount(4); }
    void deliversOnTheUiThread();
    void supersededJobIsDroppedWhenItEndsLater();
    void resultQueuedBeforeTheNewerStartIsDropped();
    void cancelStopsTheWorkAndDropsIt();
    void requestStopStillDelivers();
    void progressIsThrottledAndEndsAtTheTotal();
    void nothingReachesAReceiverThatIsGone();
    void detachedJobsAreAllDelivered();
};

void TestJobRunner::deliversOnTheUiThread()
{
    QObject receiver;
    JobRunner runner(&receiver);
    QThread* workThread = nullptr;
    QThread* deliverThread = nullptr;
    int value = 0;
    const quint64 id = runner.start(
        [&workThread](const JobControl&) {
            workThread = QThread::currentThread();
            return 42;
        },
        [&](int v) {
            deliverThread = QThread::currentThread();
            value = v;
        });
    QVERIFY(id != 0);
    QCOMPARE(runner.currentJob(), id);
    QVERIFY(runner.isRunning());
    QTRY_COMPARE(value, 42);
    QCOMPARE(deliverThread, QThread::currentThread());
    QVERIFY(workThread != QThread::currentThread());
    QVERIFY(!runner.isRunning());
}

// Tensor A's job is still reading when B is selected, and ends only after B's result is shown:
// A's result must not replace B's. A's work ignores its cancelled token on purpose, the way a
// job that was past its last cancel point when superseded returns a real result.
void TestJobRunner::supersededJobIsDroppedWhenItEndsLater()
{
    QObject receiver;
    JobRunner runner(&receiver);
    QStringList delivered;
    QStringList progressOf;
    QSemaphore started, release;
    auto unblock = qScopeGuard([&release] { release.release(); }); // a failed check must not leave it blocked
    runner.start(
        [&](const JobControl& control) {
            started.release();
            release.acquire();
            control.progress.begin(10);
            control.progress.add(10); // reaching the total is always reported
            return QStringLiteral("A");
        },
        [&](const QString& v) { delivered << v; },
        [&](const Progress&) { progressOf << QStringLiteral("A"); });
    started.acquire();
    runner.start([](const JobControl&) { return QStringLiteral("B"); },
                 [&](const QString& v) { delivered << v; },
                 [&](const Progress&) { progressOf << QStringLiteral("B"); });
    QTRY_COMPARE(delivered, QStringList{QStringLiteral("B")});
    unblock.dismiss();
    release.release();
    QVERIFY(waitForPool());
    QVERIFY(drainQueuedCalls());
    QCOMPARE(delivered, QStringList{QStringLiteral("B")});
    QVERIFY2(!progressOf.contains(QStringLiteral("A")), "a superseded job's progress was shown");
}

// A's job has already finished and queued its result when B is started: the queued result is
// A's and arrives first. It must be dropped on the UI thread; no check on the worker can see it.
void TestJobRunner::resultQueuedBeforeTheNewerStartIsDropped()
{
    QObject receiver;
    JobRunner runner(&receiver);
    QStringList delivered;
    runner.start([](const JobControl&) { return QStringLiteral("A"); },
                 [&](const QString& v) { delivered << v; });
    // A's delivery is queued, not yet run: nothing has returned to the event loop.
    QVERIFY(waitForPool());
    QSemaphore release;
    auto unblock = qScopeGuard([&release] { release.release(); });
    runner.start(
        [&release](const JobControl&) {
            release.acquire();
            return QStringLiteral("B");
        },
        [&](const QString& v) { delivered << v; });
    QVERIFY(drainQueuedCalls());
    QCOMPARE(delivered, QStringList{});
    QVERIFY(runner.isRunning());
    unblock.dismiss();
    release.release();
    QTRY_COMPARE(delivered, QStringList{QStringLiteral("B")});
}

void TestJobRunner::cancelStopsTheWorkAndDropsIt()
{
    QObject receiver;
    JobRunner runner(&receiver);
    QSemaphore started;
    std::atomic<bool> sawCancel{false};
    bool delivered = false;
    runner.start(
        [&](const JobControl& control) {
            started.release();
            while (!control.cancel.isCancelled())
                std::this_thread::yield();
            sawCancel = true;
            return 0;
        },
        [&delivered](int) { delivered = true; });
    started.acquire();
    runner.cancel();
    QVERIFY(!runner.isRunning()); // at once: nobody waits for it
    QVERIFY(waitForPool());       // returns only because the work saw the cancel
    QVERIFY(sawCancel);
    QVERIFY(drainQueuedCalls());
    QVERIFY(!delivered);
}

void TestJobRunner::requestStopStillDelivers()
{
    QObject receiver;
    JobRunner runner(&receiver);
    QSemaphore started;
    QString delivered;
    runner.start(
        [&started](const JobControl& control) {
            started.release();
            while (!control.cancel.isCancelled())
                std::this_thread::yield();
            return QStringLiteral("stopped");
        },
        [&delivered](const QString& v) { delivered = v; });
    started.acquire();
    runner.requestStop();
    QVERIFY(runner.isRunning());
    runner.waitForFinished();
    QTRY_COMPARE(delivered, QStringLiteral("stopped"));
    QVERIFY(!runner.isRunning());
}

void TestJobRunner::progressIsThrottledAndEndsAtTheTotal()
{
    QObject receiver;
    JobRunner runner(&receiver);
    std::vector<Progress> seen;
    bool progressAfterResult = false;
    bool done = false;
    // An interval no job lasts: only the report of the total may come through.
    runner.start(
        [](const JobControl& control) {
            control.progress.begin(1000);
            for (int i = 0; i < 1000; ++i)
                control.progress.add(1);
            return true;
        },
        [&done](bool) { done = true; },
        [&](const Progress& p) {
            progressAfterResult = progressAfterResult || done;
            seen.push_back(p);
        },
        std::chrono::hours(1));
    QTRY_VERIFY(done);
    QCOMPARE(seen.size(), std::size_t(1));
    QCOMPARE(seen.front().bytesDone, std::uint64_t(1000));
    QCOMPARE(seen.front().bytesTotal, std::uint64_t(1000));
    QVERIFY(!progressAfterResult); // the work's reports are queued before its result

    // With no throttle every report arrives, in order, on the UI thread.
    seen.clear();
    done = false;
    runner.start(
        [](const JobControl& control) {
            control.progress.begin(5);
            for (int i = 0; i < 5; ++i)
                control.progress.add(1);
            return true;
        },
        [&done](bool) { done = true; }, [&](const Progress& p) { seen.push_back(p); },
        std::chrono::milliseconds(0));
    QTRY_VERIFY(done);
    QCOMPARE(seen.size(), std::size_t(5));
    for (std::size_t i = 0; i < seen.size(); ++i)
        QCOMPARE(seen[i].bytesDone, std::uint64_t(i + 1));
}

void TestJobRunner::nothingReachesAReceiverThatIsGone()
{
    auto* receiver = new QObject;
    JobRunner runner(receiver);
    QSemaphore release;
    bool delivered = false;
    runner.start(
        [&release](const JobControl&) {
            release.acquire();
            return 1;
        },
        [&delivered](int) { delivered = true; });
    delete receiver; // a closed tab
    release.release();
    QVERIFY(waitForPool());
    QVERIFY(drainQueuedCalls());
    QVERIFY(!delivered);
}

void TestJobRunner::detachedJobsAreAllDelivered()
{
    QObject receiver;
    QSemaphore release;
    auto unblock = qScopeGuard([&release] { release.release(); });
    QStringList delivered;
    JobRunner::startDetached(
        &receiver,
        [&release](const JobControl&) {
            release.acquire();
            return QStringLiteral("first");
        },
        [&](const QString& v) { delivered << v; });
    JobRunner::startDetached(
        &receiver, [](const JobControl&) { return QStringLiteral("second"); },
        [&](const QString& v) { delivered << v; });
    QTRY_COMPARE(delivered, QStringList{QStringLiteral("second")});
    unblock.dismiss();
    release.release();
    QTRY_COMPARE(delivered, (QStringList{QStringLiteral("second"), QStringLiteral("first")}));
}

QTEST_GUILESS_MAIN(TestJobRunner)
#include "tst_job_runner.moc"
