// SigbusGuard: a mapped file that shrinks under a reader reads zeros and is reported, instead of
// killing the process; SIGBUS anywhere else still kills it; a full table falls back to pread.
#include "io/MappedFile.h"
#include "io/SigbusGuard.h"

#include "TestFiles.h"

#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace ts;

namespace {

constexpr qint64 kSize = 256 * 1024;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kUnderAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kUnderAsan = true;
#else
constexpr bool kUnderAsan = false;
#endif
#else
constexpr bool kUnderAsan = false;
#endif

QString writeFile(const QTemporaryDir& dir, const QString& name)
{
    const QString path = dir.filePath(name);
    if (!ts::test::writeFile(path, QByteArray(kSize, '\x5a')))
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

bool shrink(const QString& path, qint64 size)
{
    return ::truncate(QFile::encodeName(path).constData(), size) == 0;
}

} // namespace

class TestSigbusGuard : public QObject {
    Q_OBJECT

private slots:
    void viewOfShrunkenFileReadsZerosAndIsReported()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("a.bin"));
        auto file = MappedFile::open(path);
        QVERIFY(file);
        const auto view = (*file)->view(0, kSize);
        QCOMPARE(view.size(), std::size_t(kSize));
        QCOMPARE(static_cast<char>(view[0]), '\x5a');
        QVERIFY((*file)->checkView(0, kSize));

        QVERIFY(shrink(path, 4096)); // the first page stays, the rest is gone
        std::uint64_t sum = 0;
        for (std::byte b : view) // every page past 4096 raises SIGBUS: the process must survive
            sum += static_cast<std::uint8_t>(b);
        QCOMPARE(sum, std::uint64_t(4096) * 0x5a); // the gone pages read as zeros
        const auto check = (*file)->checkView(0, kSize);
        QVERIFY(!check);
        QCOMPARE(check.error().code, ErrorCode::FileChanged);
        QVERIFY2(check.error().message.contains(QStringLiteral("shrank")),
                 qPrintable(check.error().toString()));
        // pread says the same, independently of the guard.
        std::vector<std::byte> buffer(8192);
        QVERIFY(!(*file)->read(0, buffer));
    }

    void slotsAreReturned()
    {
        QTemporaryDir dir;
        const int before = SigbusGuard::watchedCount();
        {
            auto a = MappedFile::open(writeFile(dir, QStringLiteral("a.bin")));
            auto b = MappedFile::open(writeFile(dir, QStringLiteral("b.bin")));
            QVERIFY(a && b);
            QCOMPARE(SigbusGuard::watchedCount(), before + 2);
        }
        QCOMPARE(SigbusGuard::watchedCount(), before);
    }

    // A SIGBUS outside every watched mapping is not ours: the child dies of it as it would have.
    void foreignSigbusStillKills()
    {
        QTemporaryDir dir;
        const QString guarded = writeFile(dir, QStringLiteral("guarded.bin"));
        auto file = MappedFile::open(guarded); // installs the handler before the fork
        QVERIFY(file);
        const QString path = writeFile(dir, QStringLiteral("plain.bin"));
        const QByteArray native = QFile::encodeName(path);
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            const int fd = ::open(native.constData(), O_RDONLY);
            auto* p = static_cast<volatile const char*>(::mmap(nullptr, kSize, PROT_READ, MAP_SHARED, fd, 0));
            if (p == MAP_FAILED || ::ftruncate(::open(native.constData(), O_WRONLY), 0) != 0)
                ::_exit(3);
            const char c = p[kSize - 1]; // SIGBUS
            ::_exit(c == 0 ? 4 : 5);     // reached only if the fault was swallowed
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY2(WIFSIGNALED(status),
                 qPrintable(QStringLiteral("child exited with %1").arg(WEXITSTATUS(status))));
        // SIGBUS from the default action; under ASan the previous handler is ASan's, which reports
        // the fault and aborts (abort_on_error=1): either way the fault was not swallowed.
        QVERIFY2(WTERMSIG(status) == SIGBUS || (kUnderAsan && WTERMSIG(status) == SIGABRT),
                 qPrintable(QStringLiteral("child killed by signal %1").arg(WTERMSIG(status))));
    }

    // With every slot taken, a file is still readable, through pread only (no unguarded view).
    void fullTableFallsBackToPread()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("a.bin"));
        static const char dummy[1] = {};
        std::vector<int> taken;
        for (int slot = SigbusGuard::watch(dummy, 1); slot >= 0; slot = SigbusGuard::watch(dummy, 1))
            taken.push_back(slot);
        QVERIFY(taken.size() > 1000);
        auto file = MappedFile::open(path);
        for (int slot : taken)
            SigbusGuard::unwatch(slot);
        QVERIFY(file);
        QVERIFY((*file)->view(0, 16).empty());
        std::vector<std::byte> buffer(16);
        QVERIFY((*file)->read(0, buffer));
        QCOMPARE(static_cast<char>(buffer[0]), '\x5a');
    }
};

// -nocrashhandler: Qt Test's own SIGBUS handler would otherwise be the "previous handler" the
// forked child forwards to, and it runs gdb for a backtrace before dying; with it off the previous
// disposition is the default one, which is what a real application has.
int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    TestSigbusGuard test;
    QStringList args = app.arguments();
    args << QStringLiteral("-nocrashhandler");
    return QTest::qExec(&test, args);
}
#include "tst_sigbus_guard.moc"
