// The single-instance socket against other local users (security issue). It used to sit at a
// predictable name in the shared temp folder, where another user could bind it first: that user
// then received every path the victim opened, and the victim's window never appeared. Now it lives
// in $XDG_RUNTIME_DIR or a private folder of our own, and both ends check the other's uid.
//
// The foreign user is real where the test runs as root (CI): a forked child drops to nobody
// (65534) and listens or connects; the parent never changes its own uid.
#include "Fixtures.h"
#include "window/PrivateSocketDir.h"
#include "window/SingleInstance.h"

#include <QCoreApplication>
#include <QDataStream>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <future>
#include <optional>

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ts::ui;

namespace {

constexpr uid_t kNobody = 65534;

const QString kBinary = QStringLiteral(TS_BINARY_DIR "/bin/tensorscope");

QString fixture(const char* name)
{
    return ts::test::realFixture(QLatin1String(name));
}

// Sets (or, with a null value, unsets) an environment variable for one scope.
class EnvGuard {
public:
    EnvGuard(const char* name, const QString& value)
        : m_name(name), m_old(qgetenv(name)), m_had(qEnvironmentVariableIsSet(name))
    {
        if (value.isNull())
            qunsetenv(name);
        else
            qputenv(name, QFile::encodeName(value));
    }
    ~EnvGuard()
    {
        if (m_had)
            qputenv(m_name, m_old);
        else
            qunsetenv(m_name);
    }
    EnvGuard(const EnvGuard&) = delete;
    EnvGuard& operator=(const EnvGuard&) = delete;

private:
    const char* m_name;
    QByteArray m_old;
    bool m_had;
};

mode_t modeOf(const QString& path)
{
    struct stat st {};
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 ? (st.st_mode & 07777) : 0;
}

bool dropToNobody()
{
    return ::setgroups(0, nullptr) == 0 && ::setgid(kNobody) == 0 && ::setuid(kNobody) == 0 &&
           ::getuid() == kNobody;
}

// A child process running as nobody, at one end of a Unix socket at `path`. Only async-signal-safe
// calls after fork(): the test process has threads, and one may hold malloc's lock.
class ForeignPeer {
public:
    enum class Role { Listen, Connect };

    // Listen: binds `path` and reads whatever every connection sends. Connect: connects to `path`,
    // writes `send` and reads any reply. Either way the child reports how many bytes it received.
    ForeignPeer(Role role, const QString& path, const QByteArray& send = {})
        : m_path(QFile::encodeName(path)), m_send(send)
    {
        if (::pipe(m_report) != 0 || ::pipe(m_stop) != 0)
            return;
        m_pid = ::fork();
        if (m_pid == 0)
            ::_exit(runChild(role));
        ::close(m_report[1]);
        ::close(m_stop[0]);
    }
    ~ForeignPeer() { (void)finish(); }
    ForeignPeer(const ForeignPeer&) = delete;
    ForeignPeer& operator=(const ForeignPeer&) = delete;

    // The child's first word: 'R' once it listens (or has connected and written), 'E' on failure.
    bool ready()
    {
        char c = 0;
        return m_pid > 0 && readFully(m_report[0], &c, 1, 10000) && c == 'R';
    }

    // The child has stopped reading by itself (the other end closed) and its count is waiting:
    // what a test waits for rather than guessing how long the other end takes to decide.
    bool reported() const
    {
        pollfd p{m_report[0], POLLIN, 0};
        return m_pid > 0 && ::poll(&p, 1, 0) == 1;
    }

    // Tells the child to stop and returns the bytes it received, or nothing if it failed.
    std::optional<long> finish()
    {
        if (m_pid <= 0)
            return std::nullopt;
        ::close(m_stop[1]);
        long received = -1;
        const bool ok = readFully(m_report[0], reinterpret_cast<char*>(&received), sizeof received, 10000);
        int status = 0;
        ::waitpid(m_pid, &status, 0);
        ::close(m_report[0]);
        m_pid = -1;
        if (!ok || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
            return std::nullopt;
        return received;
    }

private:
    static bool readFully(int fd, char* out, std::size_t n, int timeoutMs)
    {
        std::size_t got = 0;
        while (got < n) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, timeoutMs) <= 0)
                return false;
            const ssize_t r = ::read(fd, out + got, n - got);
            if (r <= 0)
                return false;
            got += static_cast<std::size_t>(r);
        }
        return true;
    }

    // Reads from `fd` until EOF or the stop pipe closes; adds what it read to `total`.
    void drain(int fd, long& total) const
    {
        char buffer[4096];
        for (;;) {
            pollfd p[2] = {{fd, POLLIN, 0}, {m_stop[0], POLLIN, 0}};
            if (::poll(p, 2, 10000) <= 0 || (p[1].revents != 0 && !(p[0].revents & POLLIN)))
                return;
            const ssize_t r = ::read(fd, buffer, sizeof buffer);
            if (r <= 0)
                return;
            total += r;
        }
    }

    int runChild(Role role)
    {
        ::close(m_report[0]);
        ::close(m_stop[1]);
        auto fail = [this] {
            (void)!::write(m_report[1], "E", 1);
            return 1;
        };
        if (!dropToNobody())
            return fail();
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        if (static_cast<std::size_t>(m_path.size()) >= sizeof address.sun_path)
            return fail();
        std::memcpy(address.sun_path, m_path.constData(), static_cast<std::size_t>(m_path.size()));
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        long total = 0;
        if (role == Role::Listen) {
            if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
                ::listen(fd, 8) != 0)
                return fail();
            (void)!::write(m_report[1], "R", 1);
            // Every connection until told to stop: a victim that trusted us would write its paths.
            for (;;) {
                pollfd p[2] = {{fd, POLLIN, 0}, {m_stop[0], POLLIN, 0}};
                if (::poll(p, 2, 60000) <= 0 || p[1].revents != 0)
                    break;
                const int client = ::accept(fd, nullptr, nullptr);
                if (client >= 0) {
                    drain(client, total);
                    ::close(client);
                }
            }
        } else {
            if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0)
                return fail();
            if (::write(fd, m_send.constData(), static_cast<std::size_t>(m_send.size())) != m_send.size())
                return fail();
            (void)!::write(m_report[1], "R", 1);
            drain(fd, total); // an instance that trusted us would answer "ok"
        }
        (void)!::write(m_report[1], &total, sizeof total);
        return 0;
    }

    QByteArray m_path;
    QByteArray m_send;
    pid_t m_pid = -1;
    int m_report[2] = {-1, -1};
    int m_stop[2] = {-1, -1};
};

// What a second launch sends: the framed path list (SingleInstance's wire format).
QByteArray handOffMessage(const QStringList& paths)
{
    QByteArray message;
    {
        QDataStream stream(&message, QIODevice::WriteOnly);
        stream << paths;
    }
    QByteArray framed;
    {
        QDataStream stream(&framed, QIODevice::WriteOnly);
        stream << static_cast<quint32>(message.size());
    }
    return framed + message;
}

} // namespace

class TestSingleInstanceSquat : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        m_tmp.emplace();
        QVERIFY(m_tmp->isValid());
        m_key = QStringLiteral("tensorscope-squat-%1").arg(QCoreApplication::applicationPid());
    }
    void cleanup() { m_tmp.reset(); }

    void socketIsInXdgRuntimeDir()
    {
        const QString runtime = m_tmp->filePath(QStringLiteral("runtime"));
        QVERIFY(QDir().mkdir(runtime));
        QVERIFY(QFile::setPermissions(runtime, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        const EnvGuard xdg("XDG_RUNTIME_DIR", runtime);
        SingleInstance instance(m_key);
        QCOMPARE(instance.serverName(), runtime + QLatin1Char('/') + m_key);
        QVERIFY(instance.listen());
        QVERIFY(QFileInfo(instance.serverName()).exists());
    }

    // No usable $XDG_RUNTIME_DIR (unset, or not private): a folder of our own under the temp
    // folder, made 0700.
    void fallbackIsAPrivateFolderOfOurOwn_data()
    {
        QTest::addColumn<bool>("setRuntime");
        QTest::newRow("XDG_RUNTIME_DIR unset") << false;
        QTest::newRow("XDG_RUNTIME_DIR world-writable") << true;
    }
    void fallbackIsAPrivateFolderOfOurOwn()
    {
        QFETCH(bool, setRuntime);
        const QString shared = m_tmp->filePath(QStringLiteral("shared"));
        QVERIFY(QDir().mkdir(shared));
        QVERIFY(::chmod(QFile::encodeName(shared).constData(), 01777) == 0);
        const EnvGuard xdg("XDG_RUNTIME_DIR", setRuntime ? shared : QString());
        const EnvGuard tmp("TMPDIR", m_tmp->path());
        const QString own = m_tmp->filePath(QStringLiteral("tensorscope-%1").arg(::geteuid()));
        SingleInstance instance(m_key);
        QCOMPARE(instance.serverName(), own + QLatin1Char('/') + m_key);
        QCOMPARE(modeOf(own), mode_t(0700));
        QVERIFY(instance.listen());
    }

    // A fallback folder someone else prepared is not used, and nothing is handed over or served.
    void squattedFallbackIsNotUsed_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("owned by another user") << QStringLiteral("foreign");
        QTest::newRow("mode 0755") << QStringLiteral("mode");
        QTest::newRow("symlink to a private folder") << QStringLiteral("symlink");
        QTest::newRow("a file") << QStringLiteral("file");
    }
    void squattedFallbackIsNotUsed()
    {
        QFETCH(QString, kind);
        const EnvGuard xdg("XDG_RUNTIME_DIR", QString());
        const EnvGuard tmp("TMPDIR", m_tmp->path());
        const QByteArray own =
            QFile::encodeName(m_tmp->filePath(QStringLiteral("tensorscope-%1").arg(::geteuid())));
        if (kind == QLatin1String("foreign")) {
            if (::geteuid() != 0)
                QSKIP("needs root to give a folder to another user");
            QVERIFY(::mkdir(own.constData(), 0700) == 0 && ::chown(own.constData(), kNobody, kNobody) == 0);
        } else if (kind == QLatin1String("mode")) {
            QVERIFY(::mkdir(own.constData(), 0700) == 0 && ::chmod(own.constData(), 0755) == 0);
        } else if (kind == QLatin1String("symlink")) {
            const QByteArray target = QFile::encodeName(m_tmp->filePath(QStringLiteral("elsewhere")));
            QVERIFY(::mkdir(target.constData(), 0700) == 0 &&
                    ::symlink(target.constData(), own.constData()) == 0);
        } else {
            QFile file(QFile::decodeName(own));
            QVERIFY(file.open(QIODevice::WriteOnly));
        }
        QVERIFY(!checkPrivateDir(QFile::decodeName(own)));
        SingleInstance instance(m_key);
        QVERIFY(!instance.isAvailable());
        QVERIFY(instance.serverName().isEmpty());
        QVERIFY(!instance.forwardToRunningInstance({QStringLiteral("/secret/model.safetensors")}, 300));
        QVERIFY(!instance.listen());
    }

    void peerUidOfASocketPair()
    {
        int fds[2] = {-1, -1};
        QVERIFY(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
        QCOMPARE(peerUid(fds[0]), std::optional<uid_t>(::geteuid()));
        ::close(fds[0]);
        ::close(fds[1]);
        const int file = ::open("/dev/null", O_RDONLY);
        QCOMPARE(peerUid(file), std::nullopt);
        ::close(file);
        QCOMPARE(peerUid(-1), std::nullopt);
    }

    // Another user listens on our socket's path (as if the folder had been got round): our paths
    // are not sent to it, and we take the name over.
    void aForeignServerReceivesNoPaths()
    {
        const QString runtime = foreignReachableRuntime();
        if (runtime.isEmpty())
            return;
        const EnvGuard xdg("XDG_RUNTIME_DIR", runtime);
        ForeignPeer squatter(ForeignPeer::Role::Listen, runtime + QLatin1Char('/') + m_key);
        QVERIFY(squatter.ready());
        QVERIFY(::chmod(QFile::encodeName(runtime).constData(), 0700) == 0); // private again: we accept it
        SingleInstance instance(m_key);
        QCOMPARE(instance.serverName(), runtime + QLatin1Char('/') + m_key);
        QVERIFY(!instance.forwardToRunningInstance({QStringLiteral("/secret/model.safetensors")}, 3000));
        QVERIFY(instance.listen()); // the foreign socket is replaced
        QCOMPARE(squatter.finish(), std::optional<long>(0));
    }

    // The same, end to end: the real window still opens, and the squatter gets nothing.
    void theWindowOpensPastASquatter()
    {
        TS_REQUIRE_FIXTURE(fixture("face_landmark_68_f32.safetensors"));
        const QString runtime = foreignReachableRuntime();
        if (runtime.isEmpty())
            return;
        ForeignPeer squatter(ForeignPeer::Role::Listen, runtime + QLatin1Char('/') + m_key);
        QVERIFY(squatter.ready());
        QVERIFY(::chmod(QFile::encodeName(runtime).constData(), 0700) == 0);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtime);
        env.insert(QStringLiteral("TENSORSCOPE_INSTANCE_KEY"), m_key);
        env.insert(QStringLiteral("TENSORSCOPE_TRACE_OPENS"), QStringLiteral("1"));
        QProcess window;
        window.setProcessEnvironment(env);
        window.start(kBinary, {fixture("face_landmark_68_f32.safetensors")});
        QVERIFY(window.waitForStarted());
        QByteArray log;
        QTRY_VERIFY_WITH_TIMEOUT(
            (log += window.readAllStandardError()).contains("loaded: face_landmark_68_f32"), 20000);
        QVERIFY2(log.contains("belongs to uid 65534"), log.constData());
        window.terminate();
        QVERIFY(window.waitForFinished(10000));
        QCOMPARE(squatter.finish(), std::optional<long>(0));
    }

    // Another user connects to our socket and sends paths: they are not opened, and it is not
    // answered; the same message from our own uid is.
    void aForeignClientIsNotServed()
    {
        const QString runtime = m_tmp->filePath(QStringLiteral("runtime"));
        QVERIFY(QDir().mkdir(runtime));
        QVERIFY(::chmod(QFile::encodeName(runtime).constData(), 0700) == 0);
        const EnvGuard xdg("XDG_RUNTIME_DIR", runtime);
        SingleInstance instance(m_key);
        QVERIFY(instance.listen());
        QSignalSpy opened(&instance, &SingleInstance::openRequested);
        if (::geteuid() != 0)
            QSKIP("needs root to connect as another user");
        // Let the foreign user reach the socket, as if the folder's protection had been got round.
        QVERIFY(::chmod(QFile::encodeName(m_tmp->path()).constData(), 0711) == 0);
        QVERIFY(::chmod(QFile::encodeName(runtime).constData(), 0711) == 0);
        QVERIFY(::chmod(QFile::encodeName(instance.serverName()).constData(), 0777) == 0);
        {
            ForeignPeer intruder(ForeignPeer::Role::Connect, instance.serverName(),
                                 handOffMessage({QStringLiteral("/tmp/planted.safetensors")}));
            QVERIFY(intruder.ready());
            // The instance refuses the foreign peer by closing the connection; the peer then
            // reports what it received (nothing, below).
            QTRY_VERIFY_WITH_TIMEOUT(intruder.reported(), 10000);
            QCOMPARE(intruder.finish(), std::optional<long>(0));
        }
        QCOMPARE(opened.count(), 0);
        QVERIFY(::chmod(QFile::encodeName(runtime).constData(), 0700) == 0); // else it is not used
        // Our own second launch is still served. From another thread: the hand-off waits for the
        // instance's answer, which this thread's event loop gives.
        auto handedOver = std::async(std::launch::async, [key = m_key] {
            SingleInstance second(key);
            return second.forwardToRunningInstance({QStringLiteral("/tmp/ours.safetensors")}, 5000);
        });
        QTRY_COMPARE(opened.count(), 1);
        QVERIFY(handedOver.get());
        QCOMPARE(opened.front().front().toStringList(), QStringList{QStringLiteral("/tmp/ours.safetensors")});
    }

private:
    // A runtime folder owned by us that nobody (65534) can create a socket in for now; the caller
    // makes it private again once the foreign peer has bound. Empty (and skipped) unless root.
    QString foreignReachableRuntime()
    {
        if (::geteuid() != 0) {
            QTest::qSkip("needs root to run a listener as another user", __FILE__, __LINE__);
            return {};
        }
        // The temp dir itself may be private to us; the runtime folder sits in one nobody can enter.
        const QString runtime = m_tmp->filePath(QStringLiteral("runtime"));
        if (!QDir().mkdir(runtime) || ::chmod(QFile::encodeName(m_tmp->path()).constData(), 0711) != 0 ||
            ::chmod(QFile::encodeName(runtime).constData(), 0777) != 0) {
            QTest::qFail("cannot prepare the runtime folder", __FILE__, __LINE__);
            return {};
        }
        return runtime;
    }

    std::optional<QTemporaryDir> m_tmp;
    QString m_key;
};

QTEST_MAIN(TestSingleInstanceSquat)
#include "tst_single_instance_squat.moc"
