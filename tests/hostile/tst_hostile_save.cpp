// Interrupted and failing saves of `tensorscope-cli meta --set` (a full rewrite): a full disk and
// SIGKILL at random points leave the original byte-identical and no partial file under the final
// name. A hidden temporary `.NAME.tensorscope-XXXXXX` may stay behind after SIGKILL: the next save
// of NAME removes it (AtomicFile::removeStaleTemporaries).
#include "HostileSupport.h"

#include "format/HeaderParser.h"

#include <QCryptographicHash>
#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <cstring>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace ts::test;

namespace {

QStringList hiddenTemporaries(const QString& dir)
{
    return QDir(dir).entryList({QStringLiteral(".*.tensorscope-*")}, QDir::Files | QDir::Hidden);
}

// Byte for byte what makeSparseModel() wrote, without hashing 384 MB each round.
bool isSparseModel(const QString& path, const QByteArray& head, qint64 dataBytes)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || f.size() != head.size() + dataBytes || f.read(head.size()) != head)
        return false;
    const QByteArray zeros(8 << 20, '\0');
    for (qint64 left = dataBytes; left > 0;) {
        const QByteArray chunk = f.read(std::min<qint64>(left, zeros.size()));
        if (chunk.isEmpty() ||
            std::memcmp(chunk.constData(), zeros.constData(), static_cast<std::size_t>(chunk.size())) != 0)
            return false;
        left -= chunk.size();
    }
    return true;
}

QByteArray sparseHead(qint64 dataBytes)
{
    return rawSafetensors("{\"__metadata__\":{\"format\":\"pt\"},\"big\":{\"dtype\":\"U8\",\"shape\":[" +
                          QByteArray::number(dataBytes) + "],\"data_offsets\":[0," +
                          QByteArray::number(dataBytes) + "]}}");
}

// A valid file of `dataBytes` zero bytes in one U8 tensor, sparse on disk so it is made instantly.
bool makeSparseModel(const QString& path, qint64 dataBytes)
{
    const QByteArray head = sparseHead(dataBytes);
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(head) == head.size() &&
           f.resize(head.size() + dataBytes);
}

} // namespace

class TestHostileSave : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    // The file size limit (RLIMIT_FSIZE, as a full disk would) hit in the middle of the data.
    void diskFullByFileSizeLimit()
    {
        const QString path = m_tmp.filePath(QStringLiteral("full.safetensors"));
        QVERIFY(writeFile(
            path, u8Safetensors({{QStringLiteral("w"), 4'000'000}}, QByteArrayLiteral("{\"a\":\"b\"}"))));
        const QByteArray before = fileSha256(path);
        const ProcessRun run =
            runCli({QStringLiteral("meta"), path, QStringLiteral("--set"), QStringLiteral("k=v")},
                   withTimeout(30000, [] {
                       struct rlimit limit {
                           1'000'000, 1'000'000
                       };
                       ::setrlimit(RLIMIT_FSIZE, &limit);
                   }));
        HOSTILE_EXPECT_EXIT(run, 2);
        QVERIFY2(run.err.contains("disk is full"), qPrintable(run.describe()));
        QCOMPARE(fileSha256(path), before);
        QVERIFY2(hiddenTemporaries(m_tmp.path()).isEmpty(),
                 qPrintable(hiddenTemporaries(m_tmp.path()).join(QLatin1Char(' '))));
    }

    // A real full file system: a 2 MB tmpfs (needs mount permission: root outside a container).
    void diskFullOnTmpfs()
    {
        QTemporaryDir mountPoint;
        if (::mount("tmpfs", QFile::encodeName(mountPoint.path()).constData(), "tmpfs", 0, "size=2m") != 0)
            QSKIP("cannot mount a tmpfs here (not root, or in a container without CAP_SYS_ADMIN)");
        const QString path = mountPoint.filePath(QStringLiteral("model.safetensors"));
        const bool written = writeFile(path, u8Safetensors({{QStringLiteral("w"), 1'500'000}}));
        const QByteArray before = fileSha256(path);
        const ProcessRun run =
            runCli({QStringLiteral("meta"), path, QStringLiteral("--set"), QStringLiteral("k=v")});
        const QStringList left = hiddenTemporaries(mountPoint.path());
        const QByteArray after = fileSha256(path);
        ::umount2(QFile::encodeName(mountPoint.path()).constData(), MNT_DETACH);
        QVERIFY(written);
        HOSTILE_EXPECT_EXIT(run, 2);
        QVERIFY2(run.err.contains("disk is full"), qPrintable(run.describe()));
        QCOMPARE(after, before);
        QVERIFY2(left.isEmpty(), qPrintable(left.join(QLatin1Char(' '))));
    }

    // SIGKILL at random moments of a full rewrite of a 384 MB file, in place and to another name.
    void sigkillDuringRewrite_data()
    {
        QTest::addColumn<bool>("inPlace");
        QTest::newRow("in place (FILE itself)") << true;
        QTest::newRow("to -o OUT") << false;
    }
    void sigkillDuringRewrite()
    {
        QFETCH(bool, inPlace);
        const qint64 dataBytes = 384LL << 20;
        const QString path = m_tmp.filePath(QStringLiteral("big model.safetensors"));
        const QString out = inPlace ? path : m_tmp.filePath(QStringLiteral("out.safetensors"));
        QVERIFY(makeSparseModel(path, dataBytes));
        const QByteArray head = sparseHead(dataBytes);
        QStringList args{QStringLiteral("meta"), path, QStringLiteral("--set"), QStringLiteral("edited=yes"),
                         QStringLiteral("--no-in-place")};
        if (!inPlace)
            args << QStringLiteral("-o") << out;

        // One uninterrupted run tells how long a save takes here; the kills land inside it.
        const ProcessRun full = runCli(args, withTimeout(120000));
        HOSTILE_EXPECT_EXIT(full, 0);
        const qint64 duration = std::max<qint64>(full.elapsedMs, 20);
        qInfo("a full rewrite of %lld MB takes %lld ms, peak RSS %ld KiB", dataBytes >> 20, full.elapsedMs,
              full.peakRssKb);
        QVERIFY(makeSparseModel(path, dataBytes));
        if (!inPlace)
            QFile::remove(out);

        int killedBefore = 0, completed = 0, leftBehind = 0;
        const int rounds = 6;
        for (int round = 0; round < rounds; ++round) {
            // Points spread over the save (5 %, 20 %, ... 65 % of an uninterrupted run, start-up
            // included) and the last round after it, on the rename path. Fixed fractions rather
            // than random ones: five random points could all land after the rename (seen once in
            // CI), and then nothing tested the "killed before" path.
            const qint64 delay = round + 1 < rounds ? duration * (5 + 15 * round) / 100 : 3 * duration;
            ChildProcess cli;
            QVERIFY(cli.start(cliPath(), args, withTimeout(60000)));
            // Not synchronisation: the delay is what this test varies, the moment of the save the
            // kill lands at.
            QTest::qSleep(static_cast<int>(delay));
            ::kill(cli.pid(), SIGKILL);
            const ProcessRun run = cli.wait();
            QVERIFY(!run.timedOut);
            const bool finished = run.signal == 0 && run.exitCode == 0;
            // Under the final name: the original byte for byte, or (if the kill came after the
            // rename) the complete new file. Never anything in between.
            if (inPlace ? isSparseModel(out, head, dataBytes) : !QFile::exists(out)) {
                ++killedBefore;
            } else {
                const QByteArray bytes = readFile(out);
                auto header = ts::parseHeaderBytes(bytes.constData(), static_cast<std::size_t>(bytes.size()),
                                                   static_cast<std::uint64_t>(bytes.size()), out);
                QVERIFY2(header,
                         qPrintable(QStringLiteral("round %1 (kill after %2 ms): a partial file is under the "
                                                   "final name: %3")
                                        .arg(round)
                                        .arg(delay)
                                        .arg(header ? QString() : header.error().toString())));
                QVERIFY(header->metadata &&
                        header->metadata->value(QStringLiteral("edited")) == QStringLiteral("yes"));
                ++completed;
            }
            if (!inPlace)
                QVERIFY(isSparseModel(path, head, dataBytes));
            (void)finished;
            leftBehind += int(hiddenTemporaries(m_tmp.path()).size());
            // Start the next round from the original again (stale temporaries stay: see below).
            if (!QFile::exists(path) || !isSparseModel(path, head, dataBytes))
                QVERIFY(makeSparseModel(path, dataBytes));
            if (!inPlace)
                QFile::remove(out);
        }
        qInfo("%d kills: %d before the rename (original intact), %d after it (new file complete), %d hidden "
              "temporaries left behind",
              rounds, killedBefore, completed, leftBehind);
        // The next save removes what the killed ones left behind (their flocks died with them).
        QVERIFY(killedBefore > 0);
        const ProcessRun again = runCli(args, withTimeout(120000));
        HOSTILE_EXPECT_EXIT(again, 0);
        QVERIFY2(hiddenTemporaries(m_tmp.path()).isEmpty(),
                 qPrintable(hiddenTemporaries(m_tmp.path()).join(QLatin1Char(' '))));
        QFile::remove(path);
        QFile::remove(out);
    }

    // What a SIGKILL leaves (an unlocked `.NAME.tensorscope-XXXXXX`) is removed by the next save
    // of NAME; a temporary whose writer is alive (it holds an flock) is left alone, and so are
    // the temporaries of other files.
    void staleTemporaryRemovedByNextSave()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("m [1].safetensors"));
        QVERIFY(writeFile(path, u8Safetensors({{QStringLiteral("w"), 1000}})));
        const QString stale = dir.filePath(QStringLiteral(".m [1].safetensors.tensorscope-Ab12Cd"));
        const QString live = dir.filePath(QStringLiteral(".m [1].safetensors.tensorscope-LIVE00"));
        const QString other = dir.filePath(QStringLiteral(".other.safetensors.tensorscope-Ab12Cd"));
        for (const QString& p : {stale, live, other})
            QVERIFY(writeFile(p, QByteArray(100, 'x')));
        QFile liveFile(live);
        QVERIFY(liveFile.open(QIODevice::ReadWrite));
        QCOMPARE(::flock(liveFile.handle(), LOCK_EX | LOCK_NB), 0);
        HOSTILE_EXPECT_EXIT(runCli({QStringLiteral("meta"), path, QStringLiteral("--set"),
                                    QStringLiteral("k=v"), QStringLiteral("--no-in-place")}),
                            0);
        QVERIFY2(!QFile::exists(stale), "the stale temporary of a killed save was not removed");
        QVERIFY2(QFile::exists(live), "a temporary still being written was removed");
        QVERIFY(QFile::exists(other));
    }

private:
    QTemporaryDir m_tmp;
};

QTEST_GUILESS_MAIN(TestHostileSave)
#include "tst_hostile_save.moc"
