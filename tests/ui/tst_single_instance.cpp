// A second launch hands its file to the running window, which opens it as a tab; the second
// process exits at once. Runs the real binary offscreen with a private instance key.
#include "Fixtures.h"
#include "window/SingleInstance.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLocalSocket>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include <future>

namespace {

const QString kBinary = QStringLiteral(TS_BINARY_DIR "/bin/tensorscope");

QString fixture(const char* name)
{
    return ts::test::realFixture(QLatin1String(name));
}

} // namespace

class TestSingleInstance : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void secondLaunchOpensATabInTheFirst()
    {
        TS_REQUIRE_FIXTURE(fixture("face_landmark_68_f32.safetensors"));
        const QString key = QStringLiteral("tensorscope-test-%1").arg(QCoreApplication::applicationPid());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("TENSORSCOPE_INSTANCE_KEY"), key);
        env.insert(QStringLiteral("TENSORSCOPE_TRACE_OPENS"), QStringLiteral("1"));

        QProcess first;
        first.setProcessEnvironment(env);
        first.start(kBinary, {fixture("face_landmark_68_f32.safetensors")});
        QVERIFY(first.waitForStarted());
        QByteArray log; // stderr arrives in pieces: accumulate before searching
        auto logged = [&](const char* text) {
            log += first.readAllStandardError();
            return log.contains(text);
        };
        QTRY_VERIFY_WITH_TIMEOUT(logged("loaded: face_landmark_68_f32.safetensors"), 20000);

        ts::ui::SingleInstance probe(key);
        QTRY_VERIFY_WITH_TIMEOUT(([&] {
                                     QLocalSocket s;
                                     s.connectToServer(probe.serverName());
                                     return s.waitForConnected(200);
                                 }()),
                                 10000);

        QProcess second;
        second.setProcessEnvironment(env);
        QElapsedTimer timer;
        timer.start();
        second.start(kBinary, {fixture("tiny_face_detector_u8.safetensors")});
        QVERIFY(second.waitForFinished(15000));
        QCOMPARE(second.exitStatus(), QProcess::NormalExit);
        QCOMPARE(second.exitCode(), 0);
        // The first window now shows the second file.
        QTRY_VERIFY_WITH_TIMEOUT(logged("loaded: tiny_face_detector_u8.safetensors"), 20000);
        QCOMPARE(first.state(), QProcess::Running);

        // --new-window does not hand over: it is its own instance (exits after its screenshot).
        QProcess separate;
        separate.setProcessEnvironment(env);
        separate.start(kBinary, {QStringLiteral("--new-window"), QStringLiteral("--screenshot"),
                                 QDir::temp().filePath(key + QStringLiteral(".png")),
                                 fixture("face_landmark_68_f32.safetensors")});
        QVERIFY(separate.waitForFinished(30000));
        QCOMPARE(separate.exitCode(), 0);
        QFile::remove(QDir::temp().filePath(key + QStringLiteral(".png")));

        first.terminate();
        QVERIFY(first.waitForFinished(10000));
    }

    void aStaleSocketDoesNotBlockANewInstance()
    {
        // A crashed instance leaves its socket behind; the next one must still start.
        const QString key = QStringLiteral("tensorscope-stale-%1").arg(QCoreApplication::applicationPid());
        {
            ts::ui::SingleInstance crashed(key);
            QVERIFY(crashed.listen());
        } // destroyed without answering: like a process that died
        ts::ui::SingleInstance next(key);
        QVERIFY(!next.forwardToRunningInstance({QStringLiteral("x")}, 300));
        QVERIFY(next.listen());
    }

    // The hand-off carries the launcher's startup id and activation token (real sockets; the
    // second launch runs on another thread, since it waits for the answer this thread's loop gives).
    void theHandOffCarriesTheLaunchTokens()
    {
        const QString key = QStringLiteral("tensorscope-token-%1").arg(QCoreApplication::applicationPid());
        ts::ui::SingleInstance running(key);
        QVERIFY(running.listen());
        QSignalSpy opened(&running, &ts::ui::SingleInstance::openRequested);
        auto handedOver = std::async(std::launch::async, [key] {
            ts::ui::SingleInstance second(key);
            const ts::ui::LaunchActivation launch{"launcher-42_TIME1234", "wayland-token-7"};
            return second.forwardToRunningInstance({QStringLiteral("/tmp/m.safetensors")}, launch, 5000);
        });
        QTRY_COMPARE(opened.count(), 1);
        QVERIFY(handedOver.get());
        QCOMPARE(opened.front().at(0).toStringList(), QStringList{QStringLiteral("/tmp/m.safetensors")});
        const auto launch = opened.front().at(1).value<ts::ui::LaunchActivation>();
        QCOMPARE(launch.startupId, QByteArray("launcher-42_TIME1234"));
        QCOMPARE(launch.activationToken, QByteArray("wayland-token-7"));
    }

    // The real second launch reads both from its environment (before Qt's xcb plugin would take
    // DESKTOP_STARTUP_ID away) and forwards them with its file.
    void aSecondLaunchForwardsItsEnvironmentTokens()
    {
        const QString key = QStringLiteral("tensorscope-envtoken-%1").arg(QCoreApplication::applicationPid());
        ts::ui::SingleInstance running(key);
        QVERIFY(running.listen());
        QSignalSpy opened(&running, &ts::ui::SingleInstance::openRequested);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("TENSORSCOPE_INSTANCE_KEY"), key);
        env.insert(QStringLiteral("DESKTOP_STARTUP_ID"), QStringLiteral("filemanager-1_TIME99"));
        env.insert(QStringLiteral("XDG_ACTIVATION_TOKEN"), QStringLiteral("token-from-compositor"));
        QProcess second;
        second.setProcessEnvironment(env);
        second.start(kBinary, {fixture("face_landmark_68_f32.safetensors")});
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 15000);
        // The event loop of the wait above may already have seen it exit: waitForFinished() would
        // then say false.
        QTRY_COMPARE_WITH_TIMEOUT(second.state(), QProcess::NotRunning, 15000);
        QCOMPARE(second.exitStatus(), QProcess::NormalExit);
        QCOMPARE(second.exitCode(), 0);
        const auto launch = opened.front().at(1).value<ts::ui::LaunchActivation>();
        QCOMPARE(launch.startupId, QByteArray("filemanager-1_TIME99"));
        QCOMPARE(launch.activationToken, QByteArray("token-from-compositor"));
    }
};

QTEST_MAIN(TestSingleInstance)
#include "tst_single_instance.moc"
