// core/base's CancelToken and ProgressSink, what every long operation of the core is steered by:
// a cancel seen by every copy, reports throttled but never losing the end, counts that only grow
// whatever thread reports.

#include "base/JobControl.h"

#include <QTest>

#include <chrono>
#include <thread>
#include <vector>

using namespace ts;
using namespace std::chrono_literals;

class TestJobControl : public QObject {
    Q_OBJECT
private slots:
    void cancelIsSharedByCopies()
    {
        const CancelToken token;
        const CancelToken copy = token; // what a job captures
        QVERIFY(!copy.isCancelled());
        token.cancel();
        QVERIFY(copy.isCancelled());
        QVERIFY(!CancelToken().isCancelled()); // a new token is its own
    }

    void defaultSinkReportsNowhere()
    {
        const ProgressSink sink;
        sink.begin(10);
        sink.add(10);
        sink.flush();
        QCOMPARE(sink.progress().bytesDone, std::uint64_t(0));
    }

    void throttledButTheTotalAndFlushAlwaysReport()
    {
        std::vector<Progress> seen;
        const ProgressSink sink([&seen](const Progress& p) { seen.push_back(p); }, 1h);
        sink.begin(100);
        for (int i = 0; i < 99; ++i)
            sink.add(1);
        QVERIFY(seen.empty()); // nothing is due within the hour
        QCOMPARE(sink.progress().bytesDone, std::uint64_t(99));
        sink.add(1);
        QCOMPARE(seen.size(), std::size_t(1));
        QCOMPARE(seen.back().bytesDone, std::uint64_t(100));
        QCOMPARE(seen.back().bytesTotal, std::uint64_t(100));
        sink.add(5); // past the total: not the moment it is reached again
        QCOMPARE(seen.size(), std::size_t(1));
        sink.flush();
        QCOMPARE(seen.size(), std::size_t(2));
        QCOMPARE(seen.back().bytesDone, std::uint64_t(105));
        // begin() starts over.
        sink.begin(3);
        QCOMPARE(sink.progress().bytesDone, std::uint64_t(0));
        sink.add(3);
        QCOMPARE(seen.size(), std::size_t(3));
        QCOMPARE(seen.back().bytesTotal, std::uint64_t(3));
    }

    void everyReportWithoutAnInterval()
    {
        std::vector<std::uint64_t> done;
        const ProgressSink sink([&done](const Progress& p) { done.push_back(p.bytesDone); }, 0ms);
        sink.begin(0); // total unknown: nothing is forced, the interval alone decides
        sink.add(1);
        sink.add(2);
        QCOMPARE(done, (std::vector<std::uint64_t>{1, 3}));
    }

    // Workers of a scan report at once: one listener call at a time (so it needs no lock of its
    // own), each seeing at least what the one before it saw.
    void concurrentReportsAreSerialAndMonotonic()
    {
        std::vector<std::uint64_t> done;
        int inside = 0;
        bool overlapped = false;
        const ProgressSink sink(
            [&](const Progress& p) {
                overlapped = overlapped || ++inside > 1;
                done.push_back(p.bytesDone);
                --inside;
            },
            0ms);
        constexpr int kThreads = 4, kAdds = 20000;
        sink.begin(std::uint64_t(kThreads) * kAdds);
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t)
            threads.emplace_back([&sink] {
                for (int i = 0; i < kAdds; ++i)
                    sink.add(1);
            });
        for (std::thread& t : threads)
            t.join();
        QVERIFY(!overlapped);
        QVERIFY(!done.empty());
        for (std::size_t i = 1; i < done.size(); ++i)
            QVERIFY(done[i] >= done[i - 1]);
        QCOMPARE(done.back(), std::uint64_t(kThreads) * kAdds); // the total's report is never skipped
    }
};

QTEST_GUILESS_MAIN(TestJobControl)
#include "tst_job_control.moc"
