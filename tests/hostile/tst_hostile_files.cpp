// Files that change under us, and inputs that are not files: truncated or grown while open and
// mapped, unreadable, paths with spaces and unicode, folders, a named pipe, /dev/zero. A clear
// error (exit status 2 from the CLI), never SIGBUS, never a hang.
#include "HostileSupport.h"

#include "format/SafetensorsFile.h"
#include "io/MappedFile.h"
#include "write/SafetensorsWriter.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <grp.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ts::test;

namespace {

QByteArray sampleFile()
{
    return u8Safetensors({{QStringLiteral("a"), 300'000}, {QStringLiteral("b"), 700'000}},
                         QByteArrayLiteral("{\"k\":\"v\"}"));
}

QStringList leftovers(const QString& dir)
{
    return QDir(dir).entryList({QStringLiteral(".*tensorscope-*")}, QDir::Files | QDir::Hidden);
}

} // namespace

class TestHostileFiles : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    // Truncated while open and mapped: read() and a save from the open file fail with
    // FileChanged; nothing touches the dead pages, so no SIGBUS.
    void truncatedWhileMapped_data()
    {
        QTest::addColumn<qint64>("newSize");
        QTest::newRow("truncated to half") << qint64(500'000);
        QTest::newRow("truncated to zero") << qint64(0);
        QTest::newRow("truncated then grown past the end") << qint64(3'000'000);
    }
    void truncatedWhileMapped()
    {
        QFETCH(qint64, newSize);
        const QString path = m_tmp.filePath(QStringLiteral("changing.safetensors"));
        QVERIFY(writeFile(path, sampleFile()));
        auto opened = ts::SafetensorsFile::open(path);
        QVERIFY(opened);
        const ts::SafetensorsFile& file = **opened;
        // The mapping is live: touch it first so the pages are really mapped.
        const auto mapped = file.source()->view(file.header().dataOffset(), 4096);
        QVERIFY(!mapped.empty());
        QCOMPARE(static_cast<char>(mapped[0]), static_cast<char>(7));

        QCOMPARE(::truncate(QFile::encodeName(path).constData(), 0), 0);
        if (newSize > 0)
            QCOMPARE(::truncate(QFile::encodeName(path).constData(), newSize), 0);

        const ts::TensorInfo& b = file.tensors().back();
        QByteArray buffer(static_cast<qsizetype>(b.byteSize()), '\0');
        auto read = file.source()->read(file.location(b).offset,
                                        std::as_writable_bytes(std::span(buffer.data(), buffer.size())));
        QVERIFY(!read);
        QCOMPARE(read.error().code, ts::ErrorCode::FileChanged);
        QVERIFY(file.source()->changedOnDisk());

        const QString out = m_tmp.filePath(QStringLiteral("saved.safetensors"));
        auto saved = ts::SafetensorsWriter::rewriteMetadata(file, ts::Metadata{}, out);
        QVERIFY(!saved);
        QCOMPARE(saved.error().code, ts::ErrorCode::FileChanged);
        QVERIFY(!QFile::exists(out));
        // Saving over the changed file itself is refused the same way and leaves it alone.
        auto inPlace = ts::SafetensorsWriter::rewriteMetadata(file, ts::Metadata{}, path);
        QVERIFY(!inPlace);
        QCOMPARE(QFileInfo(path).size(), newSize);
        QVERIFY2(leftovers(m_tmp.path()).isEmpty(),
                 qPrintable(leftovers(m_tmp.path()).join(QLatin1Char(' '))));
    }

    // Without read permission: exit 2 and a sentence that says so. As root, permissions do not
    // apply, so the CLI is run as user "nobody" (setgid/setuid in the child) when the test is root.
    void unreadableFile()
    {
        QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/hostile-perm-XXXXXX"));
        QVERIFY(dir.isValid());
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                              QFile::ReadOther | QFile::ExeOther | QFile::ReadGroup |
                                              QFile::ExeGroup);
        const QString path = dir.filePath(QStringLiteral("secret.safetensors"));
        QVERIFY(writeFile(path, sampleFile()));
        QCOMPARE(::chmod(QFile::encodeName(path).constData(), 0), 0);
        const bool root = ::geteuid() == 0;
        const ProcessRun run = runCli({QStringLiteral("validate"), path}, withTimeout(30000, [root] {
                                          if (root) {
                                              ::setgroups(0, nullptr);
                                              if (::setgid(65534) != 0 || ::setuid(65534) != 0)
                                                  ::_exit(126);
                                          }
                                      }));
        if (root && run.exitCode == 126)
            QSKIP("cannot switch to user nobody");
        if (root && run.exitCode == 127)
            QSKIP("user nobody cannot execute the CLI (its folder is not world-readable)");
        HOSTILE_EXPECT_EXIT(run, 2);
        QVERIFY2(run.out.contains("permission denied") || run.err.contains("permission denied"),
                 qPrintable(run.describe()));
    }

    // A file on a read-only file system (a tmpfs remounted read-only: root only, as CI runs):
    // reading works; a metadata save in place and a convert into that folder fail with a sentence
    // that says why, and the file is unchanged.
    void readOnlyFileSystem()
    {
        QTemporaryDir mountPoint;
        const QByteArray where = QFile::encodeName(mountPoint.path());
        if (::mount("tmpfs", where.constData(), "tmpfs", 0, "size=4m") != 0)
            QSKIP("cannot mount a tmpfs here (not root, or in a container without CAP_SYS_ADMIN)");
        const QString path = mountPoint.filePath(QStringLiteral("model.safetensors"));
        const QByteArray original = sampleFile();
        QVERIFY(writeFile(path, original));
        const bool remounted =
            ::mount("tmpfs", where.constData(), "tmpfs", MS_REMOUNT | MS_RDONLY, "size=4m") == 0;
        if (remounted) {
            HOSTILE_EXPECT_EXIT(runCli({QStringLiteral("validate"), path}), 0);
            HOSTILE_EXPECT_EXIT(runCli({QStringLiteral("scan"), path}), 0);
            const ProcessRun meta =
                runCli({QStringLiteral("meta"), path, QStringLiteral("--set"), QStringLiteral("k=w")});
            HOSTILE_EXPECT_EXIT(meta, 2);
            QVERIFY2(meta.err.contains("Read-only file system") && meta.err.contains("nothing was changed"),
                     qPrintable(meta.describe()));
            const ProcessRun convert = runCli({QStringLiteral("convert"), path, QStringLiteral("-o"),
                                               mountPoint.filePath(QStringLiteral("out.safetensors"))});
            HOSTILE_EXPECT_EXIT(convert, 2);
            QVERIFY2(convert.err.contains("Read-only file system") &&
                         convert.err.contains("nothing was changed"),
                     qPrintable(convert.describe()));
            QCOMPARE(readFile(path), original);
        }
        ::umount2(where.constData(), MNT_DETACH);
        QVERIFY(remounted);
    }

    // Spaces, unicode and a leading dash-free odd name all work end to end, including a save.
    void spacesAndUnicode()
    {
        const QString dir = m_tmp.filePath(QStringLiteral("a folder with spaces/ünïcødé 模型 😀"));
        QVERIFY(QDir().mkpath(dir));
        const QString path = dir + QStringLiteral("/my model ✓ (copy).safetensors");
        QVERIFY(writeFile(path, sampleFile()));
        for (const char* command : {"validate", "info", "ls", "meta"})
            HOSTILE_EXPECT_EXIT(runCli({QLatin1String(command), path}), 0);
        HOSTILE_EXPECT_EXIT(
            runCli({QStringLiteral("meta"), path, QStringLiteral("--set"), QStringLiteral("naïve=ü ✓")}), 0);
        const ProcessRun meta = runCli({QStringLiteral("meta"), path});
        HOSTILE_EXPECT_EXIT(meta, 0);
        QVERIFY2(meta.out.contains(QStringLiteral("naïve = ü ✓").toUtf8()), qPrintable(meta.describe()));
        QVERIFY(leftovers(dir).isEmpty());
    }

    // Not a file: exit status 2 with a sentence, within the timeout (a FIFO must not block).
    void notAFile_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QByteArray>("says");
        QTest::newRow("empty folder") << QStringLiteral("folder") << QByteArray("no .safetensors file");
        QTest::newRow("folder named .safetensors")
            << QStringLiteral("folder.safetensors") << QByteArray("no .safetensors file");
        QTest::newRow("named pipe") << QStringLiteral("fifo") << QByteArray("named pipe");
        QTest::newRow("named pipe as an index")
            << QStringLiteral("fifo.index.json") << QByteArray("not a regular file");
        QTest::newRow("/dev/zero") << QStringLiteral("/dev/zero") << QByteArray("character device");
        QTest::newRow("link to /dev/zero as an index")
            << QStringLiteral("zero.index.json") << QByteArray("not a regular file");
        QTest::newRow("missing") << QStringLiteral("missing") << QByteArray("does not exist");
    }
    void notAFile()
    {
        QFETCH(QString, kind);
        QFETCH(QByteArray, says);
        QTemporaryDir dir;
        QString path;
        if (kind == QLatin1String("folder")) {
            path = dir.filePath(QStringLiteral("empty"));
            QVERIFY(QDir().mkdir(path));
        } else if (kind == QLatin1String("folder.safetensors")) {
            path = dir.filePath(QStringLiteral("model.safetensors"));
            QVERIFY(QDir().mkdir(path));
        } else if (kind.startsWith(QLatin1String("fifo"))) {
            path =
                dir.filePath(kind == QLatin1String("fifo") ? QStringLiteral("pipe.safetensors")
                                                           : QStringLiteral("model.safetensors.index.json"));
            QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0644), 0);
        } else if (kind == QLatin1String("zero.index.json")) {
            path = dir.filePath(QStringLiteral("model.safetensors.index.json"));
            QVERIFY(QFile::link(QStringLiteral("/dev/zero"), path));
        } else if (kind == QLatin1String("missing")) {
            path = dir.filePath(QStringLiteral("nothing here.safetensors"));
        } else {
            path = kind;
        }
        for (const char* command : {"validate", "info"}) {
            const ProcessRun run = runCli({QLatin1String(command), path}, withTimeout(10000));
            HOSTILE_EXPECT_EXIT(run, 2);
            QVERIFY2(run.out.contains(says) || run.err.contains(says), qPrintable(run.describe()));
        }
    }

    // A folder given as the output of a save: refused, the input untouched, nothing left behind.
    void folderAsOutput()
    {
        const QString path = m_tmp.filePath(QStringLiteral("in.safetensors"));
        const QByteArray original = sampleFile();
        QVERIFY(writeFile(path, original));
        const QString folder = m_tmp.filePath(QStringLiteral("out-folder"));
        QVERIFY(QDir().mkpath(folder));
        const ProcessRun run = runCli({QStringLiteral("meta"), path, QStringLiteral("--set"),
                                       QStringLiteral("k=v"), QStringLiteral("-o"), folder});
        HOSTILE_EXPECT_EXIT(run, 2);
        QVERIFY2(run.err.contains("folder"), qPrintable(run.describe()));
        QCOMPARE(readFile(path), original);
        QVERIFY(QDir(folder).isEmpty(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot));
        QVERIFY(leftovers(m_tmp.path()).isEmpty());
    }

private:
    QTemporaryDir m_tmp;
};

QTEST_GUILESS_MAIN(TestHostileFiles)
#include "tst_hostile_files.moc"
