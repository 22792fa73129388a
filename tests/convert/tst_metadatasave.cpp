// Metadata saves: round trips, data buffer preserved, in-place vs full rewrite, and crash safety
// proven by SIGKILLing a real child process at every step of an in-place save.
#include "ConvertTestUtil.h"

#include "format/HeaderSerializer.h"
#include "format/SafetensorsFile.h"
#include "write/MetadataSave.h"
#include "write/SaveJournal.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <spawn.h>
#include <sys/wait.h>

extern char** environ;

using namespace ts;
using namespace ts::test;

namespace {

std::vector<TestTensor> sampleTensors()
{
    std::vector<float> w(1000);
    for (std::size_t i = 0; i < w.size(); ++i)
        w[i] = static_cast<float>(i) * 0.25f - 7.0f;
    std::vector<std::int64_t> ids{1, -2, 3, 1LL << 40};
    std::vector<std::uint16_t> h(64, 0x3c00);
    return {{QStringLiteral("model.w"), Dtype::F32, {10, 100}, bytesOf(w)},
            {QStringLiteral("model.ids"), Dtype::I64, {4}, bytesOf(ids)},
            {QStringLiteral("model.h"), Dtype::F16, {8, 8}, bytesOf(h)},
            {QStringLiteral("empty"), Dtype::BF16, {0, 3}, {}}};
}

Metadata richMetadata()
{
    Metadata m;
    m.set(QStringLiteral("format"), QStringLiteral("pt"));
    m.set(QStringLiteral("ключ ✓ 模型"),
          QStringLiteral("значение 😀 \"quoted\" back\\slash\ttab\nnewline\x01"));
    m.set(QStringLiteral("empty"), QString());
    m.set(QString(), QStringLiteral("empty key"));
    m.set(QStringLiteral("json"), QStringLiteral(R"({"a":[1,2.5,null,true],"b":{"c":"d"}})"));
    return m;
}

QByteArray dataBuffer(const QString& path)
{
    auto file = SafetensorsFile::open(path);
    if (!file)
        return {};
    return readFile(path).mid(static_cast<qsizetype>((*file)->header().dataOffset()));
}

// Spawns the child, waits until it stops itself at the step, then SIGKILLs it.
bool killChildAtStep(const QString& file, const char* step, bool torn)
{
    const QByteArray program = QByteArrayLiteral(TS_SAVE_CHILD_PATH);
    const QByteArray path = QFile::encodeName(file);
    std::vector<char*> argv{const_cast<char*>(program.constData()), const_cast<char*>(path.constData()),
                            const_cast<char*>(step), const_cast<char*>(torn ? "torn" : "clean"), nullptr};
    pid_t pid = 0;
    if (::posix_spawn(&pid, program.constData(), nullptr, nullptr, argv.data(), environ) != 0)
        return false;
    int status = 0;
    if (::waitpid(pid, &status, WUNTRACED) != pid || !WIFSTOPPED(status)) {
        qWarning("child did not stop at %s (status %d)", step, status);
        return false;
    }
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

} // namespace

class TestMetadataSave : public QObject {
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void inPlaceWhenItFits();
    void fullRewriteWhenItDoesNot();
    void cliReportsThePathTaken();
    void realFixtureKeepsItsData();
    void interruptedAtEachStep_data();
    void interruptedAtEachStep();
    void tornJournalIsDiscarded();
    void killedFullRewriteLeavesOldOrNew();

private:
    QTemporaryDir m_dir;
};

void TestMetadataSave::roundTrip_data()
{
    QTest::addColumn<bool>("inPlace");
    QTest::newRow("in place") << true;
    QTest::newRow("full rewrite") << false;
}

void TestMetadataSave::roundTrip()
{
    QFETCH(bool, inPlace);
    const QString path = m_dir.filePath(QStringLiteral("rt.safetensors"));
    QVERIFY(writeSafetensors(path, sampleTensors(), Metadata{}, 4096));
    const QByteArray dataBefore = sha256(dataBuffer(path));
    auto file = SafetensorsFile::open(path);
    QVERIFY(file.ok());
    const Metadata wanted = richMetadata();
    MetadataSaveOptions options;
    options.allowInPlace = inPlace;
    auto saved = MetadataSave::save(**file, wanted, path, options);
    QVERIFY2(saved.ok(), qPrintable(saved.ok() ? QString() : saved.error().toString()));
    QCOMPARE(saved->method, inPlace ? SaveMethod::InPlace : SaveMethod::FullRewrite);
    auto reopened = SafetensorsFile::open(path);
    QVERIFY(reopened.ok());
    QVERIFY((*reopened)->header().metadata.has_value());
    QCOMPARE(*(*reopened)->header().metadata, wanted);
    QCOMPARE(sha256(dataBuffer(path)), dataBefore);
    // Offsets unchanged, tensor for tensor.
    QCOMPARE((*reopened)->tensors().size(), (*file)->tensors().size());
    for (std::size_t i = 0; i < (*file)->tensors().size(); ++i) {
        QCOMPARE((*reopened)->tensors()[i].begin, (*file)->tensors()[i].begin);
        QCOMPARE((*reopened)->tensors()[i].name, (*file)->tensors()[i].name);
    }
    QVERIFY(!QFile::exists(SaveJournal::pathFor(path)));
}

void TestMetadataSave::inPlaceWhenItFits()
{
    const QString path = m_dir.filePath(QStringLiteral("fits.safetensors"));
    Metadata md;
    md.set(QStringLiteral("format"), QStringLiteral("pt"));
    QVERIFY(writeSafetensors(path, sampleTensors(), md, 512));
    const QByteArray before = readFile(path);
    auto file = SafetensorsFile::open(path);
    QVERIFY(file.ok());
    const std::uint64_t n = (*file)->header().headerLength;
    md.set(QStringLiteral("note"), QStringLiteral("a short edit"));
    auto saved = MetadataSave::save(**file, md, path);
    QVERIFY(saved.ok());
    QCOMPARE(saved->method, SaveMethod::InPlace);
    QVERIFY(saved->bytesWritten < 64 * 1024);
    const QByteArray after = readFile(path);
    QCOMPARE(after.size(), before.size());
    // Only the header changed: the prefix (same N) and every data byte are identical.
    QCOMPARE(after.left(8), before.left(8));
    QCOMPARE(after.mid(static_cast<qsizetype>(8 + n)), before.mid(static_cast<qsizetype>(8 + n)));
    // The header is exactly the reference JSON, padded with spaces to the old N.
    QByteArray expected = serializeHeader((*file)->tensors(), md, 0).mid(8);
    while (expected.endsWith(' '))
        expected.chop(1);
    expected.append(QByteArray(static_cast<qsizetype>(n) - expected.size(), ' '));
    QCOMPARE(after.mid(8, static_cast<qsizetype>(n)), expected);
}

void TestMetadataSave::fullRewriteWhenItDoesNot()
{
    const QString path = m_dir.filePath(QStringLiteral("nofit.safetensors"));
    Metadata md;
    md.set(QStringLiteral("format"), QStringLiteral("pt"));
    QVERIFY(writeSafetensors(path, sampleTensors(), md));
    const QByteArray dataBefore = sha256(dataBuffer(path));
    auto file = SafetensorsFile::open(path);
    QVERIFY(file.ok());
    md.set(QStringLiteral("long"), QString(300, QLatin1Char('x')));
    auto saved = MetadataSave::save(**file, md, path);
    QVERIFY(saved.ok());
    QCOMPARE(saved->method, SaveMethod::FullRewrite);
    QVERIFY(saved->whyNotInPlace.contains(QStringLiteral("does not fit")));
    // The result is what the reference writer would write: compact header, then the same data.
    const QByteArray after = readFile(path);
    const QByteArray header = serializeHeader((*file)->tensors(), md, 0);
    QCOMPARE(after.left(header.size()), header);
    QCOMPARE(sha256(after.mid(header.size())), dataBefore);
}

void TestMetadataSave::cliReportsThePathTaken()
{
    const QString path = m_dir.filePath(QStringLiteral("cli.safetensors"));
    QVERIFY(writeSafetensors(path, sampleTensors(), Metadata{}, 256));
    const QByteArray dataBefore = sha256(dataBuffer(path));
    auto r = runCli({QStringLiteral("meta"), path, QStringLiteral("--set"), QStringLiteral("k=v")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("in place"), r.out.constData());
    r = runCli({QStringLiteral("meta"), path, QStringLiteral("--set"), QStringLiteral("k2=v2"),
                QStringLiteral("--no-in-place")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("full rewrite"), r.out.constData());
    r = runCli({QStringLiteral("meta"), path, QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out.trimmed(), QByteArray(R"({"k":"v","k2":"v2"})"));
    QCOMPARE(sha256(dataBuffer(path)), dataBefore);
    // --header-slack on a full rewrite makes room, so the next edit goes in place.
    const QString tight = m_dir.filePath(QStringLiteral("cli-tight.safetensors"));
    QVERIFY(writeSafetensors(tight, sampleTensors(), Metadata{}));
    r = runCli({QStringLiteral("meta"), tight, QStringLiteral("--set"),
                QStringLiteral("a=") + QString(40, QLatin1Char('a')), QStringLiteral("--header-slack"),
                QStringLiteral("1024")});
    QVERIFY2(r.out.contains("full rewrite"), r.out.constData());
    r = runCli({QStringLiteral("meta"), tight, QStringLiteral("--set"),
                QStringLiteral("b=") + QString(500, QLatin1Char('b'))});
    QVERIFY2(r.out.contains("in place"), r.out.constData());
    // -o elsewhere is never in place.
    const QString other = m_dir.filePath(QStringLiteral("cli-copy.safetensors"));
    r = runCli({QStringLiteral("meta"), path, QStringLiteral("--unset"), QStringLiteral("k"),
                QStringLiteral("-o"), other});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("full rewrite"));
}

void TestMetadataSave::realFixtureKeepsItsData()
{
    TS_REQUIRE_FIXTURE(realFixture(QStringLiteral("face_landmark_68_f32.safetensors")));
    const QString path = copyFixture(QStringLiteral("face_landmark_68_f32.safetensors"), m_dir.path(),
                                     QStringLiteral("face.safetensors"));
    QVERIFY(!path.isEmpty());
    const QByteArray dataBefore = sha256(dataBuffer(path));
    // Grows the header: a full rewrite, with slack for the next edit.
    auto r = runCli({QStringLiteral("meta"), path, QStringLiteral("--set"), QStringLiteral("reviewed=✓ yes"),
                     QStringLiteral("--header-slack"), QStringLiteral("512")});
    QVERIFY2(r.exitCode == 0 && r.out.contains("full rewrite"), r.out.constData());
    QCOMPARE(sha256(dataBuffer(path)), dataBefore);
    r = runCli({QStringLiteral("meta"), path, QStringLiteral("--unset"), QStringLiteral("license"),
                QStringLiteral("--set"), QStringLiteral("json={\"k\": [1, 2]}")});
    QVERIFY2(r.exitCode == 0 && r.out.contains("in place"), r.out.constData());
    QCOMPARE(sha256(dataBuffer(path)), dataBefore);
    r = runCli({QStringLiteral("meta"), path, QStringLiteral("--json")});
    QVERIFY2(r.out.contains("\"json\":\"{\\\"k\\\": [1, 2]}\"") && !r.out.contains("license"),
             r.out.constData());
    QCOMPARE(runCli({QStringLiteral("validate"), path}).exitCode, 0);
}

void TestMetadataSave::interruptedAtEachStep_data()
{
    QTest::addColumn<QByteArray>("step");
    QTest::addColumn<bool>("torn");
    QTest::addColumn<bool>("expectNew"); // what the file holds after recovery
    QTest::newRow("after journal synced") << QByteArray("JournalSynced") << false << false;
    QTest::newRow("torn header write") << QByteArray("JournalSynced") << true << false;
    QTest::newRow("after header written") << QByteArray("HeaderWritten") << false << false;
    QTest::newRow("after header synced") << QByteArray("HeaderSynced") << false << false;
    QTest::newRow("after journal removed") << QByteArray("JournalRemoved") << false << true;
}

void TestMetadataSave::interruptedAtEachStep()
{
    QFETCH(QByteArray, step);
    QFETCH(bool, torn);
    QFETCH(bool, expectNew);
    const QString path = m_dir.filePath(QStringLiteral("crash.safetensors"));
    QFile::remove(path);
    Metadata md;
    md.set(QStringLiteral("format"), QStringLiteral("pt"));
    QVERIFY(writeSafetensors(path, sampleTensors(), md, 128));
    const QByteArray before = readFile(path);
    // What a completed save produces, to recognise "new".
    auto file = SafetensorsFile::open(path);
    QVERIFY(file.ok());
    Metadata edited = md;
    edited.set(QStringLiteral("edited"), QStringLiteral("yes"));
    const auto newHeader = MetadataSave::inPlaceHeader((*file)->header(), edited);
    QVERIFY(newHeader.has_value());
    const QByteArray after = *newHeader + before.mid(newHeader->size());

    QVERIFY(killChildAtStep(path, step.constData(), torn));
    QCOMPARE(QFile::exists(SaveJournal::pathFor(path)), !expectNew);
    const QByteArray killed = readFile(path);

    // Reading never writes: every read command leaves the file and the journal as they are, and
    // those that open it report the journal.
    for (const QStringList& args :
         {QStringList{QStringLiteral("meta"), path, QStringLiteral("--json")},
          QStringList{QStringLiteral("validate"), path}, QStringList{QStringLiteral("info"), path}}) {
        const auto r = runCli(args);
        QCOMPARE(readFile(path), killed);
        QCOMPARE(QFile::exists(SaveJournal::pathFor(path)), !expectNew);
        // Opened or not (a torn header does not parse), the journal is what the user is told about.
        if (!expectNew)
            QVERIFY2(QByteArray(r.out + r.err).contains("InterruptedSave"),
                     qPrintable(args.join(u' ') + u'\n' + QString::fromUtf8(r.out + r.err)));
    }
    if (expectNew) {
        QCOMPARE(killed, after);
        return;
    }
    // The explicit act: restore.
    const auto r = runCli({QStringLiteral("recover"), path});
    QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
    QVERIFY(!QFile::exists(SaveJournal::pathFor(path)));
    QVERIFY2(readFile(path) == before, "after recovery the file is not the one from before the save");
    if (step == "JournalSynced" && !torn)
        QVERIFY2(r.out.contains("already as before"), r.out.constData());
    else
        QVERIFY2(r.out.contains("restored the header"), r.out.constData());
    QCOMPARE(runCli({QStringLiteral("validate"), path}).exitCode, 0);
}

void TestMetadataSave::tornJournalIsDiscarded()
{
    const QString path = m_dir.filePath(QStringLiteral("tornjournal.safetensors"));
    QVERIFY(writeSafetensors(path, sampleTensors(), Metadata{}, 64));
    const QByteArray before = readFile(path);
    auto file = SafetensorsFile::open(path);
    QVERIFY(file.ok());
    const auto region = static_cast<qsizetype>((*file)->header().dataOffset());
    // A journal cut short (the crash hit while it was being written): the model was not touched yet.
    {
        QFile model(path);
        QVERIFY(model.open(QIODevice::ReadOnly));
        QVERIFY(SaveJournal::write(model.handle(), path, before.left(region), before.left(region)).ok());
    }
    QFile journal(SaveJournal::pathFor(path));
    QVERIFY(journal.open(QIODevice::ReadWrite));
    QVERIFY(journal.resize(journal.size() - 5));
    journal.close();
    QCOMPARE(SaveJournal::inspect(path).state, JournalInspection::State::Malformed);
    // Never applied: recover refuses, --discard deletes the journal and nothing else.
    auto r = SaveJournal::restore(path);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, ErrorCode::WriteRefused);
    QCOMPARE(readFile(path), before);
    // While a journal exists, a save is refused rather than overwriting it.
    Metadata md;
    md.set(QStringLiteral("k"), QStringLiteral("v"));
    auto refused = MetadataSave::save(**file, md, path);
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().code, ErrorCode::FileChanged);
    QCOMPARE(readFile(path), before);
    const auto cli = runCli({QStringLiteral("recover"), path, QStringLiteral("--discard")});
    QCOMPARE(cli.exitCode, 0);
    QVERIFY(!QFile::exists(SaveJournal::pathFor(path)));
    QCOMPARE(readFile(path), before);
}

void TestMetadataSave::killedFullRewriteLeavesOldOrNew()
{
    // A 48 MiB file so the rewrite takes long enough to be killed half way.
    const QString path = m_dir.filePath(QStringLiteral("big.safetensors"));
    std::vector<std::uint32_t> big(12u << 20);
    for (std::size_t i = 0; i < big.size(); ++i)
        big[i] = static_cast<std::uint32_t>(i * 2654435761u);
    QVERIFY(writeSafetensors(path, {{QStringLiteral("big"), Dtype::U32, {big.size()}, bytesOf(big)}},
                             Metadata{}));
    const QByteArray oldHash = sha256(readFile(path));
    QByteArray newHash;
    int killedMidway = 0;
    for (int delayMs : {1, 3, 6, 10, 20, 40}) {
        ChildProcess cli;
        QVERIFY(cli.start(cliPath(), {QStringLiteral("meta"), path, QStringLiteral("--set"),
                                      QStringLiteral("k=v"), QStringLiteral("--no-in-place")}));
        // Not synchronisation: the delay is what this test varies, the moment in the rewrite the
        // kill lands at (from before the first write to after the rename).
        QTest::qSleep(delayMs);
        ::kill(cli.pid(), SIGKILL);
        killedMidway += cli.wait().signal == SIGKILL;
        const QByteArray hash = sha256(readFile(path));
        if (hash != oldHash) {
            // Must be exactly the completed new file.
            auto reopened = SafetensorsFile::open(path);
            QVERIFY(reopened.ok());
            QCOMPARE((*reopened)->header().metadata->value(QStringLiteral("k")).value_or(QString()),
                     QStringLiteral("v"));
            QCOMPARE(sha256(dataBuffer(path)), sha256(bytesOf(big)));
            break; // the file now is "new"; later runs would not change it meaningfully
        }
    }
    qInfo("full rewrites killed midway: %d", killedMidway);
    // Leftover temporaries of killed runs are hidden files; the model itself is never partial.
    QVERIFY(SafetensorsFile::open(path).ok());
}

QTEST_GUILESS_MAIN(TestMetadataSave)
#include "tst_metadatasave.moc"
