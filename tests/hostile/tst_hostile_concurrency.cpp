// Concurrent saves: real tensorscope-cli processes editing one file at once,
// with a reader between them. No update is lost, no completed save is rolled back, a reader never
// writes, and a writer that cannot get the file in time says so and changes nothing.
#include "HostileSupport.h"

#include "write/SaveJournal.h"
#include "write/SaveLock.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace ts::test;

namespace {

QJsonObject metadataOf(const QString& path)
{
    const ProcessRun r = runCli({QStringLiteral("meta"), path, QStringLiteral("--json")});
    return QJsonDocument::fromJson(r.out).object();
}

} // namespace

class TestHostileConcurrency : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }
    void writersAndReaders_data();
    void writersAndReaders();
    void busyWriterGivesUpWithASentence();

private:
    QTemporaryDir m_tmp;
};

void TestHostileConcurrency::writersAndReaders_data()
{
    QTest::addColumn<bool>("inPlace");
    QTest::addColumn<int>("rounds");
    QTest::newRow("in place, 100 rounds") << true << 100;
    QTest::newRow("full rewrites, 25 rounds") << false << 25;
}

void TestHostileConcurrency::writersAndReaders()
{
    QFETCH(bool, inPlace);
    QFETCH(int, rounds);
    const QString path = m_tmp.filePath(inPlace ? QStringLiteral("inplace.safetensors")
                                                : QStringLiteral("rewrite.safetensors"));
    QVERIFY(writeFile(path, u8Safetensors({{QStringLiteral("w"), 4096}}, R"({"format":"pt"})")));
    // Room for every key of every round, so each in-place save fits.
    HOSTILE_EXPECT_EXIT(
        runCli({QStringLiteral("meta"), path, QStringLiteral("--set"), QStringLiteral("seed=1"),
                QStringLiteral("--header-slack"), QStringLiteral("16384")}),
        0);
    const QByteArray data = readFile(path).right(4096);
    const QStringList how = inPlace ? QStringList{} : QStringList{QStringLiteral("--no-in-place")};
    for (int round = 0; round < rounds; ++round) {
        const QString a = QStringLiteral("r%1a").arg(round);
        const QString b = QStringLiteral("r%1b").arg(round);
        ChildProcess w1, reader, w2;
        QVERIFY(w1.start(
            cliPath(),
            QStringList{QStringLiteral("meta"), path, QStringLiteral("--set"), a + QStringLiteral("=1")} +
                how,
            withTimeout(30000)));
        QVERIFY(reader.start(cliPath(), {QStringLiteral("meta"), path, QStringLiteral("--json")},
                             withTimeout(30000)));
        QVERIFY(w2.start(
            cliPath(),
            QStringList{QStringLiteral("meta"), path, QStringLiteral("--set"), b + QStringLiteral("=2")} +
                how,
            withTimeout(30000)));
        const ProcessRun r1 = w1.wait();
        const ProcessRun rr = reader.wait();
        const ProcessRun r2 = w2.wait();
        HOSTILE_EXPECT_EXIT(r1, 0);
        HOSTILE_EXPECT_EXIT(r2, 0);
        HOSTILE_EXPECT_EXIT(rr, 0);
        // The reader saw one whole header: before, between or after the two saves.
        const QJsonObject seen = QJsonDocument::fromJson(rr.out).object();
        QVERIFY2(seen.contains(QStringLiteral("seed")), rr.out.constData());
        // Every key of every round so far is there: nothing lost, nothing rolled back.
        const QJsonObject md = metadataOf(path);
        for (int k = 0; k <= round; ++k) {
            QVERIFY2(
                md.contains(QStringLiteral("r%1a").arg(k)) && md.contains(QStringLiteral("r%1b").arg(k)),
                qPrintable(QStringLiteral("round %1: lost an update of round %2: %3")
                               .arg(round)
                               .arg(k)
                               .arg(QString::fromUtf8(QJsonDocument(md).toJson(QJsonDocument::Compact)))));
        }
        QVERIFY(!QFileInfo::exists(ts::SaveJournal::pathFor(path)));
        if (inPlace)
            QVERIFY2(r1.out.contains("in place") && r2.out.contains("in place"), r1.out.constData());
    }
    QCOMPARE(readFile(path).right(4096), data);
    HOSTILE_EXPECT_EXIT(runCli({QStringLiteral("validate"), path}), 0);
    const QStringList leftovers =
        QDir(m_tmp.path()).entryList({QStringLiteral(".*tensorscope-*")}, QDir::Files | QDir::Hidden);
    QVERIFY2(leftovers.isEmpty(), qPrintable(leftovers.join(u' ')));
}

void TestHostileConcurrency::busyWriterGivesUpWithASentence()
{
    const QString path = m_tmp.filePath(QStringLiteral("busy.safetensors"));
    QVERIFY(writeFile(path, u8Safetensors({{QStringLiteral("w"), 64}}, R"({"format":"pt"})")));
    const QByteArray before = readFile(path);
    // This test process plays the other writer.
    auto held = ts::SaveLock::acquire(path, std::chrono::milliseconds(0));
    QVERIFY(held.ok());
    const ProcessRun r = runCli({QStringLiteral("meta"), path, QStringLiteral("--set"), QStringLiteral("k=v"),
                                 QStringLiteral("--wait"), QStringLiteral("0.3")});
    HOSTILE_EXPECT_EXIT(r, 2);
    QVERIFY2(r.err.contains("is being saved by another process") && r.err.contains("busy.safetensors"),
             r.err.constData());
    QCOMPARE(readFile(path), before);
    // Readers wait for a writer only briefly and never fail because of one.
    const ProcessRun reader = runCli({QStringLiteral("validate"), path});
    HOSTILE_EXPECT_EXIT(reader, 0);
    QVERIFY2(reader.elapsedMs < 20000, qPrintable(reader.describe()));
}

QTEST_GUILESS_MAIN(TestHostileConcurrency)
#include "tst_hostile_concurrency.moc"
