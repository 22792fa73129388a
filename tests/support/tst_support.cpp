// The test-support library's child runner: the hostile suites judge the CLI by what it reports
// (exit status, signal, timeout, peak RSS), so each of those is checked on a child whose ending is
// known. The children are /bin/sh one-liners.
#include "ChildProcess.h"
#include "Fixtures.h"

#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace ts::test;

namespace {

QString shell()
{
    return QStringLiteral("/bin/sh");
}

ProcessRun sh(const QString& script, const ProcessOptions& options = {})
{
    return runProcess(shell(), {QStringLiteral("-c"), script}, options);
}

} // namespace

class TestSupport : public QObject {
    Q_OBJECT
private slots:
    void exitStatusAndOutput()
    {
        const ProcessRun run = sh(QStringLiteral("printf out; printf err >&2; exit 3"));
        QCOMPARE(run.exitCode, 3);
        QCOMPARE(run.signal, 0);
        QVERIFY(!run.timedOut);
        QCOMPARE(run.out, QByteArray("out"));
        QCOMPARE(run.err, QByteArray("err"));
    }

    // More than a pipe holds (64 KiB): the child must not wait for a reader.
    void largeOutputDoesNotBlock()
    {
        const ProcessRun run = sh(QStringLiteral("head -c 1000000 /dev/zero"));
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.size(), 1000000);
    }

    void stdinEnvironmentAndWorkingDirectory()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ProcessOptions options;
        options.stdinBytes = "from stdin\n";
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TS_SUPPORT_PROBE"), QStringLiteral("probe"));
        options.environment = env;
        options.workingDirectory = dir.path();
        const ProcessRun run = sh(QStringLiteral("cat; echo \"$TS_SUPPORT_PROBE\"; pwd -P"), options);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, "from stdin\nprobe\n" + QFile::encodeName(QDir(dir.path()).canonicalPath()) + "\n");
        // Without input the child reads end of file at once rather than waiting on a terminal.
        QCOMPARE(sh(QStringLiteral("cat")).out, QByteArray());
    }

    void signalIsReportedAsACrash()
    {
        const ProcessRun run = sh(QStringLiteral("kill -SEGV $$"));
        QCOMPARE(run.signal, SIGSEGV);
        QCOMPARE(run.exitCode, -1);
        QVERIFY(run.crashed());
        QVERIFY(run.describe().contains(QStringLiteral("CRASHED with signal 11")));
    }

    // The child's own sleep is what is tested here: a child that never ends is cut at the timeout.
    void hangIsCutAtTheTimeout()
    {
        ProcessOptions options;
        options.timeoutMs = 300;
        const ProcessRun run = sh(QStringLiteral("exec sleep 60"), options);
        QVERIFY(run.timedOut);
        QCOMPARE(run.signal, SIGKILL);
        QVERIFY(!run.crashed());
        QVERIFY2(run.elapsedMs < 30000, qPrintable(run.describe()));
    }

    // 256 MiB the child writes show in its peak, beyond what it inherited at fork.
    void peakRssIsTheChilds()
    {
        const ProcessRun small = sh(QStringLiteral("exit 0"));
        const ProcessRun big = runProcess(QStringLiteral("/usr/bin/python3"),
                                          {QStringLiteral("-c"), QStringLiteral("b = b'x' * (256 << 20)")});
        QCOMPARE(big.exitCode, 0);
        QVERIFY2(big.peakRssKb > small.peakRssKb + 200 * 1024,
                 qPrintable(QStringLiteral("%1 KiB vs %2 KiB").arg(big.peakRssKb).arg(small.peakRssKb)));
    }

    void unknownProgramExits127()
    {
        QCOMPARE(runProcess(QStringLiteral("/nonexistent/program"), {}).exitCode, 127);
    }

    void missingFixtureIsSaidPlainly()
    {
        QVERIFY(missingFixture(conformanceDir()).isEmpty());
        const QString said = missingFixture(realFixture(QStringLiteral("no-such-fixture.safetensors")));
        QVERIFY(said.contains(QStringLiteral("no-such-fixture.safetensors is missing")));
    }
};

QTEST_GUILESS_MAIN(TestSupport)
#include "tst_support.moc"
