// Reading never writes: a model folder from a stranger with planted save
// journals, symlinks and forged records. Every read command leaves every byte and every name as it
// was, and `recover` applies only a journal bound to the file the user named, inside its header
// region, describing a metadata-only change.
#include "HostileSupport.h"

#include "format/HeaderParser.h"
#include "format/SafetensorsFile.h"
#include "write/MetadataSave.h"
#include "write/SaveJournal.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

using namespace ts::test;
using ts::JournalInspection;
using ts::SaveJournal;

namespace {

QByteArray le64Bytes(std::uint64_t n)
{
    return le64(n);
}

// The journal format the first wave used (FNV checksum, no binding to a file): what an attacker
// would plant to overwrite a file "back" to bytes of their choice.
QByteArray forgedV1(const QByteArray& oldHeader, std::uint64_t fileSize)
{
    QByteArray record =
        QByteArrayLiteral("TSJRNL01") + le64Bytes(fileSize) + le64Bytes(oldHeader.size()) + oldHeader;
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (char c : record) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ull;
    }
    return record + le64Bytes(h);
}

// Path -> sha256 of every entry under `root` (links by their target text, not followed), plus
// the files given in `extra` (followed): what "nothing changed" means.
QMap<QString, QByteArray> snapshot(const QString& root, const QStringList& extra = {})
{
    QMap<QString, QByteArray> state;
    QDirIterator it(root, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QFileInfo info(path);
        if (info.isSymLink())
            state[path] = "link:" + info.symLinkTarget().toUtf8();
        else if (info.isFile())
            state[path] = QCryptographicHash::hash(readFile(path), QCryptographicHash::Sha256).toHex();
        else
            state[path] = "dir";
    }
    for (const QString& path : extra)
        state[QStringLiteral("extra:") + path] =
            QCryptographicHash::hash(readFile(path), QCryptographicHash::Sha256).toHex();
    return state;
}

QByteArray modelBytes()
{
    return u8Safetensors({{QStringLiteral("layer.0.weight"), 64}, {QStringLiteral("layer.1.weight"), 32}},
                         R"({"format":"pt","note":"original"})");
}

std::uint64_t regionOf(const QByteArray& file)
{
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
        n = (n << 8) | static_cast<unsigned char>(file[i]);
    return 8 + n;
}

// The header region after an in-place save that sets note=`value`.
QByteArray editedRegion(const QString& path, const QString& value)
{
    auto file = ts::SafetensorsFile::open(path);
    if (!file)
        return {};
    ts::Metadata md = (*file)->header().metadata.value_or(ts::Metadata{});
    md.set(QStringLiteral("note"), value);
    return ts::MetadataSave::inPlaceHeader((*file)->header(), md).value_or(QByteArray());
}

// A journal written through the real writer for the file open at `forFile`, with the given
// before/after regions.
bool writeJournal(const QString& forFile, const QByteArray& before, const QByteArray& after)
{
    const int fd = ::open(QFile::encodeName(forFile).constData(), O_RDONLY);
    if (fd < 0)
        return false;
    const bool ok = SaveJournal::write(fd, forFile, before, after).ok();
    ::close(fd);
    return ok;
}

} // namespace

class TestHostileJournal : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }
    void plantedJournalsNeverApplyOnRead();
    void forgedJournalsAreRefused_data();
    void forgedJournalsAreRefused();
    void matchingJournalRestoresOnlyWhenAsked();
    void recoverTouchesOnlyNamedFiles();

private:
    QTemporaryDir m_tmp;
};

void TestHostileJournal::plantedJournalsNeverApplyOnRead()
{
    // The attack this suite exists for: a folder whose journals would "restore" config.json, a file outside
    // the folder through a symlink, and the model's tensor bytes.
    const QString dir = m_tmp.filePath(QStringLiteral("planted"));
    const QString outside = m_tmp.filePath(QStringLiteral("outside.txt"));
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(writeFile(outside, "precious data outside the model folder\n"));
    const QString model = dir + QStringLiteral("/model.safetensors");
    const QByteArray bytes = modelBytes();
    QVERIFY(writeFile(model, bytes));
    QVERIFY(writeFile(dir + QStringLiteral("/config.json"), R"({"num_hidden_layers": 2})"));
    QVERIFY(QFile::link(outside, dir + QStringLiteral("/notes.txt")));
    QByteArray evil = bytes;
    evil.replace(evil.size() - 32, 32, QByteArray(32, '\x7f')); // tensor bytes of the attacker's choice
    QVERIFY(writeFile(dir + QStringLiteral("/.model.safetensors.tensorscope-journal"),
                      forgedV1(evil, bytes.size())));
    QVERIFY(
        writeFile(dir + QStringLiteral("/.config.json.tensorscope-journal"), forgedV1("{\"pwned\":1}", 24)));
    QVERIFY(writeFile(dir + QStringLiteral("/.notes.txt.tensorscope-journal"), forgedV1("pwned", 39)));
    const QString out = m_tmp.filePath(QStringLiteral("planted-out"));
    QVERIFY(QDir().mkpath(out));
    const auto before = snapshot(dir, {outside});

    const QList<QStringList> reads = {
        {QStringLiteral("validate"), dir},
        {QStringLiteral("validate"), model},
        {QStringLiteral("info"), dir},
        {QStringLiteral("info"), model, QStringLiteral("--json")},
        {QStringLiteral("ls"), dir},
        {QStringLiteral("stats"), model},
        {QStringLiteral("scan"), dir},
        {QStringLiteral("scan"), model, QStringLiteral("--nan-inf-only")},
        {QStringLiteral("meta"), dir},
        {QStringLiteral("meta"), model, QStringLiteral("--json")},
        {QStringLiteral("export"), model, QStringLiteral("layer.0.weight"), QStringLiteral("-o"),
         out + QStringLiteral("/w.npy")},
        {QStringLiteral("convert"), dir, QStringLiteral("-o"), out + QStringLiteral("/c.safetensors")},
    };
    for (const QStringList& args : reads) {
        const ProcessRun r = runCli(args);
        QVERIFY2(!r.timedOut && r.signal == 0, qPrintable(r.describe()));
        QVERIFY2(snapshot(dir, {outside}) == before,
                 qPrintable(QStringLiteral("changed by: ") + args.join(u' ')));
    }
    // The model's journal is reported, with the reason it is never applied.
    const ProcessRun info = runCli({QStringLiteral("info"), model, QStringLiteral("--json")});
    HOSTILE_EXPECT_EXIT(info, 0);
    QVERIFY2(info.out.contains("InterruptedSave") && info.out.contains("never applied"),
             info.out.constData());
    // And recover refuses it.
    const ProcessRun recover = runCli({QStringLiteral("recover"), model});
    HOSTILE_EXPECT_EXIT(recover, 1);
    QVERIFY(snapshot(dir, {outside}) == before);
    QCOMPARE(SaveJournal::inspect(model).state, JournalInspection::State::Malformed);
}

void TestHostileJournal::forgedJournalsAreRefused_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("state");
    QTest::newRow("written for another inode") << "inode" << int(JournalInspection::State::OtherFile);
    QTest::newRow("file size differs") << "size" << int(JournalInspection::State::SizeChanged);
    QTest::newRow("restore range beyond the header") << "range" << int(JournalInspection::State::Mismatch);
    QTest::newRow("before changes a tensor") << "tensor" << int(JournalInspection::State::Mismatch);
    QTest::newRow("region neither before nor after") << "foreign" << int(JournalInspection::State::Mismatch);
    QTest::newRow("journal is a symlink") << "symlink" << int(JournalInspection::State::Unreadable);
    QTest::newRow("journal is a folder") << "folder" << int(JournalInspection::State::Unreadable);
    QTest::newRow("one byte flipped") << "flipped" << int(JournalInspection::State::Malformed);
}

void TestHostileJournal::forgedJournalsAreRefused()
{
    QFETCH(QString, kind);
    QFETCH(int, state);
    const QString dir = m_tmp.filePath(QStringLiteral("forged-") + kind);
    QVERIFY(QDir().mkpath(dir));
    const QString model = dir + QStringLiteral("/model.safetensors");
    QByteArray bytes = modelBytes();
    QVERIFY(writeFile(model, bytes));
    const auto region = static_cast<qsizetype>(regionOf(bytes));
    const QByteArray current = bytes.left(region);
    const QByteArray edited = editedRegion(model, QStringLiteral("edited"));
    QCOMPARE(edited.size(), region);
    const QString journal = SaveJournal::pathFor(model);

    if (kind == QLatin1String("inode")) {
        // A perfect journal of a byte-identical copy, moved beside the model.
        const QString copy = dir + QStringLiteral("/copy.safetensors");
        QVERIFY(writeFile(copy, edited + bytes.mid(region)));
        QVERIFY(writeJournal(copy, current, edited));
        QVERIFY(QFile::rename(SaveJournal::pathFor(copy), journal));
        QVERIFY(writeFile(model, edited + bytes.mid(region)));
        QVERIFY(QFile::remove(copy));
    } else if (kind == QLatin1String("size")) {
        QVERIFY(writeFile(model, edited + bytes.mid(region)));
        QVERIFY(writeJournal(model, current, edited));
        QFile f(model);
        QVERIFY(f.open(QIODevice::Append));
        f.write("x");
    } else if (kind == QLatin1String("range")) {
        // "Before" reaches 16 bytes into the tensor data, with the attacker's bytes there.
        QByteArray evilBefore = bytes.left(region + 16);
        evilBefore.replace(region, 16, QByteArray(16, '\x55'));
        QVERIFY(writeJournal(model, evilBefore, bytes.left(region + 16)));
    } else if (kind == QLatin1String("tensor")) {
        // Same length, but "before" swaps two tensors' offsets: a restore would reinterpret data.
        QByteArray evil = current;
        const qsizetype a = evil.indexOf("layer.0.weight");
        const qsizetype b = evil.indexOf("layer.1.weight");
        QVERIFY(a > 0 && b > 0);
        evil[a + 6] = '1';
        evil[b + 6] = '0';
        QVERIFY(ts::parseHeaderBytes(evil.constData(), static_cast<std::size_t>(evil.size()),
                                     static_cast<std::uint64_t>(bytes.size()), model)
                    .ok());
        QVERIFY(writeJournal(model, evil, current));
    } else if (kind == QLatin1String("foreign")) {
        // Valid before/after, but the file holds a third header: not this save's state.
        QVERIFY(writeJournal(model, current, edited));
        bytes.replace(0, region, editedRegion(model, QStringLiteral("third")));
        QVERIFY(writeFile(model, bytes));
    } else if (kind == QLatin1String("symlink")) {
        const QString real = dir + QStringLiteral("/real-journal");
        QVERIFY(writeFile(model, edited + bytes.mid(region)));
        QVERIFY(writeJournal(model, current, edited));
        QVERIFY(QFile::rename(journal, real));
        QVERIFY(QFile::link(real, journal));
    } else if (kind == QLatin1String("folder")) {
        QVERIFY(QDir().mkpath(journal));
    } else if (kind == QLatin1String("flipped")) {
        QVERIFY(writeFile(model, edited + bytes.mid(region)));
        QVERIFY(writeJournal(model, current, edited));
        QByteArray j = readFile(journal);
        j[j.size() / 2] = static_cast<char>(j[j.size() / 2] ^ 1);
        QVERIFY(writeFile(journal, j));
    }
    const auto before = snapshot(dir);
    const JournalInspection found = SaveJournal::inspect(model);
    QVERIFY2(int(found.state) == state,
             qPrintable(SaveJournal::stateName(found.state) + u' ' + found.detail));
    QVERIFY(!found.matches());
    QVERIFY(snapshot(dir) == before);

    // Every read reports it and leaves it; recover refuses it and writes nothing.
    const ProcessRun validate = runCli({QStringLiteral("validate"), model, QStringLiteral("--json")});
    QVERIFY2(!validate.timedOut && validate.signal == 0, qPrintable(validate.describe()));
    const ProcessRun recover = runCli({QStringLiteral("recover"), model});
    HOSTILE_EXPECT_EXIT(recover, 1);
    QVERIFY2(recover.out.contains("refused"), recover.out.constData());
    QVERIFY(snapshot(dir) == before);
    // --discard deletes the journal (a file, never what a link points to) and nothing else.
    const ProcessRun discard = runCli({QStringLiteral("recover"), model, QStringLiteral("--discard")});
    if (kind != QLatin1String("folder")) {
        HOSTILE_EXPECT_EXIT(discard, 0);
        QVERIFY(!QFileInfo(journal).isSymLink() && !QFileInfo::exists(journal));
        QCOMPARE(QCryptographicHash::hash(readFile(model), QCryptographicHash::Sha256).toHex(),
                 before.value(model));
        if (kind == QLatin1String("symlink"))
            QVERIFY(QFileInfo::exists(dir + QStringLiteral("/real-journal")));
    }
}

void TestHostileJournal::matchingJournalRestoresOnlyWhenAsked()
{
    // The state a crash after the header write leaves: a journal that matches the file exactly.
    const QString dir = m_tmp.filePath(QStringLiteral("matching"));
    QVERIFY(QDir().mkpath(dir));
    const QString model = dir + QStringLiteral("/model.safetensors");
    const QByteArray bytes = modelBytes();
    QVERIFY(writeFile(model, bytes));
    const auto region = static_cast<qsizetype>(regionOf(bytes));
    const QByteArray edited = editedRegion(model, QStringLiteral("edited"));
    QVERIFY(writeJournal(model, bytes.left(region), edited));
    QVERIFY(writeFile(model, edited + bytes.mid(region)));
    const QByteArray afterSave = readFile(model);

    QCOMPARE(SaveJournal::inspect(model).state, JournalInspection::State::Completed);
    for (const QString& cmd : {QStringLiteral("validate"), QStringLiteral("info"), QStringLiteral("meta")}) {
        const ProcessRun r = runCli({cmd, model});
        HOSTILE_EXPECT_EXIT(r, 0);
        QCOMPARE(readFile(model), afterSave);
        QVERIFY(QFileInfo::exists(SaveJournal::pathFor(model)));
    }
    const ProcessRun info = runCli({QStringLiteral("info"), model});
    QVERIFY2(info.out.contains("InterruptedSave") && info.out.contains("\"note\" back"),
             info.out.constData());
    // Commands whose output lists no warnings say it on stderr.
    for (const QString& cmd : {QStringLiteral("ls"), QStringLiteral("scan"), QStringLiteral("stats")}) {
        const ProcessRun r = runCli({cmd, model});
        HOSTILE_EXPECT_EXIT(r, 0);
        QVERIFY2(r.err.contains("[InterruptedSave]"), qPrintable(cmd + u' ' + QString::fromUtf8(r.err)));
    }

    // A torn state (first half new) is restorable too.
    QByteArray torn = afterSave;
    torn.replace(region / 2, region - region / 2, bytes.mid(region / 2, region - region / 2));
    QVERIFY(writeFile(model, torn));
    QCOMPARE(SaveJournal::inspect(model).state, JournalInspection::State::Torn);

    const ProcessRun recover = runCli({QStringLiteral("recover"), model});
    HOSTILE_EXPECT_EXIT(recover, 0);
    QCOMPARE(readFile(model), bytes);
    QVERIFY(!QFileInfo::exists(SaveJournal::pathFor(model)));
}

void TestHostileJournal::recoverTouchesOnlyNamedFiles()
{
    // Two shards with matching journals, and a journal of a file nobody named (a .bin beside them).
    const QString dir = m_tmp.filePath(QStringLiteral("named"));
    QVERIFY(QDir().mkpath(dir));
    const QByteArray bytes = modelBytes();
    const auto region = static_cast<qsizetype>(regionOf(bytes));
    QStringList files{dir + QStringLiteral("/a.safetensors"), dir + QStringLiteral("/b.safetensors"),
                      dir + QStringLiteral("/other.bin")};
    for (const QString& f : files) {
        QVERIFY(writeFile(f, bytes));
        const QByteArray edited = editedRegion(f, QStringLiteral("edited"));
        QVERIFY(writeJournal(f, bytes.left(region), edited));
        QVERIFY(writeFile(f, edited + bytes.mid(region)));
    }
    const QByteArray otherBefore = readFile(files[2]);
    const QByteArray bBefore = readFile(files[1]);

    // One file named: only it.
    HOSTILE_EXPECT_EXIT(runCli({QStringLiteral("recover"), files[0]}), 0);
    QCOMPARE(readFile(files[0]), bytes);
    QCOMPARE(readFile(files[1]), bBefore);
    QVERIFY(QFileInfo::exists(SaveJournal::pathFor(files[1])));
    // The folder: its .safetensors files, never other.bin.
    const ProcessRun folder = runCli({QStringLiteral("recover"), dir, QStringLiteral("--json")});
    HOSTILE_EXPECT_EXIT(folder, 0);
    QCOMPARE(readFile(files[1]), bytes);
    QCOMPARE(readFile(files[2]), otherBefore);
    QVERIFY(QFileInfo::exists(SaveJournal::pathFor(files[2])));
}

QTEST_GUILESS_MAIN(TestHostileJournal)
#include "tst_hostile_journal.moc"
