// tensorscope-cli end to end: the real binary on real files, its output and exit statuses.
#include "ChildProcess.h"
#include "Fixtures.h"
#include "TestFiles.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

using ts::test::runCli;
using Run = ts::test::ProcessRun;

QJsonObject json(const QByteArray& text)
{
    return QJsonDocument::fromJson(text).object();
}

using ts::test::fileSha256;

// Names and metadata that try to drive a terminal: set its title, clear it, forge a row, move the
// cursor back, reorder what it shows. Each comes with how the text output must show it.
struct Hazard {
    QString raw;
    QString shown;
};

QList<Hazard> hazardousNames()
{
    return {
        {QStringLiteral("esc\x1b]0;pwned\atitle"), QStringLiteral("esc\\x1b]0;pwned\\x07title")},
        {QStringLiteral("line\nforged  F32  [1]"), QStringLiteral("line\\nforged  F32  [1]")},
        {QStringLiteral("carriage\rreturn"), QStringLiteral("carriage\\rreturn")},
        {QStringLiteral("bidi") + QChar(0x202e) + QStringLiteral("fdp.exe"),
         QStringLiteral("bidi\\u202efdp.exe")},
        {QStringLiteral("back\\x1bslash"), QStringLiteral("back\\\\x1bslash")},
        {QStringLiteral("tab\there"), QStringLiteral("tab\\there")},
        {QStringLiteral("del") + QChar(0x7f) + QStringLiteral(" c1") + QChar(0x85) + QStringLiteral(" iso") +
             QChar(0x2066),
         QStringLiteral("del\\x7f c1\\u0085 iso\\u2066")},
    };
}

// Metadata keys and values that try the same.
const QList<std::pair<QString, QString>>& hazardousMetadata()
{
    static const QList<std::pair<QString, QString>> entries = {
        {QStringLiteral("key\x1b[2J"), QStringLiteral("value\r\nforged = yes")},
        {QStringLiteral("title"), QStringLiteral("\x1b]2;owned\a") + QChar(0x202e)},
    };
    return entries;
}

// A real file whose tensor names and metadata are all of the above (U8 [2] each).
QByteArray hazardousFile(const QList<Hazard>& names)
{
    QJsonObject header;
    int offset = 0;
    for (const Hazard& n : names) {
        header.insert(n.raw, QJsonObject{{QStringLiteral("dtype"), QStringLiteral("U8")},
                                         {QStringLiteral("shape"), QJsonArray{2}},
                                         {QStringLiteral("data_offsets"), QJsonArray{offset, offset + 2}}});
        offset += 2;
    }
    QJsonObject metadata;
    for (const auto& [key, value] : hazardousMetadata())
        metadata.insert(key, value);
    header.insert(QStringLiteral("__metadata__"), metadata);
    QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    json += QByteArray((8 - json.size() % 8) % 8, ' ');
    QByteArray file(8, '\0');
    for (int i = 0; i < 8; ++i)
        file[i] = static_cast<char>((json.size() >> (8 * i)) & 0xff);
    return file + json + QByteArray(offset, '\x05');
}

// What a terminal would act on in UTF-8 text: C0 controls but the line feed, DEL, the C1
// controls, and U+2028..U+202E / U+2066..U+2069. Empty when there is none.
QString terminalHazards(const QByteArray& text)
{
    QStringList found;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const auto b = static_cast<unsigned char>(text[i]);
        const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
        const auto third = i + 2 < text.size() ? static_cast<unsigned char>(text[i + 2]) : 0;
        if ((b < 0x20 && b != '\n') || b == 0x7f || (b == 0xc2 && next >= 0x80 && next <= 0x9f) ||
            (b == 0xe2 && next == 0x80 && third >= 0xa8 && third <= 0xae) ||
            (b == 0xe2 && next == 0x81 && third >= 0xa6 && third <= 0xa9))
            found << QStringLiteral("byte %1 (0x%2)").arg(i).arg(b, 2, 16, QLatin1Char('0'));
    }
    return found.join(QStringLiteral(", "));
}

#define VERIFY_NO_TERMINAL_HAZARDS(run)                                                                      \
    do {                                                                                                     \
        QVERIFY2(terminalHazards((run).out).isEmpty(),                                                       \
                 qPrintable(terminalHazards((run).out) + QStringLiteral(" in stdout:\n") +                   \
                            QString::fromUtf8((run).out)));                                                  \
        QVERIFY2(terminalHazards((run).err).isEmpty(),                                                       \
                 qPrintable(terminalHazards((run).err) + QStringLiteral(" in stderr:\n") +                   \
                            QString::fromUtf8((run).err)));                                                  \
    } while (0)

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void validateEveryConformanceFileInOneCall()
    {
        const QDir cases(ts::test::conformanceDir() + QStringLiteral("/cases"));
        QStringList files;
        for (const QString& name :
             cases.entryList({QStringLiteral("*.safetensors")}, QDir::Files, QDir::Name))
            files << cases.filePath(name);
        QVERIFY(files.size() >= 106);
        const Run r = runCli(QStringList{QStringLiteral("validate"), QStringLiteral("--json")} + files);
        QCOMPARE(r.exitCode, 1); // some are invalid
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), files.size());

        QHash<QString, QJsonObject> expected;
        QFile f(ts::test::conformanceDir() + QStringLiteral("/expected.jsonl"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        while (!f.atEnd()) {
            const QJsonObject o = json(f.readLine());
            expected.insert(o.value(QStringLiteral("file")).toString(), o);
        }
        for (const QByteArray& line : lines) {
            const QJsonObject got = json(line);
            const QString name = QFileInfo(got.value(QStringLiteral("file")).toString()).fileName();
            const QJsonObject want = expected.value(name);
            QVERIFY2(!want.isEmpty(), qPrintable(name));
            QCOMPARE(got.value(QStringLiteral("ok")).toBool(), want.value(QStringLiteral("ok")).toBool());
            if (!want.value(QStringLiteral("ok")).toBool()) {
                QCOMPARE(got.value(QStringLiteral("error")).toString(),
                         want.value(QStringLiteral("error")).toString());
                QVERIFY(!got.contains(QStringLiteral("tensors")));
            } else {
                QVERIFY(got.value(QStringLiteral("error")).isNull());
                QCOMPARE(got.value(QStringLiteral("tensors")).toArray().size(),
                         want.value(QStringLiteral("tensors")).toArray().size());
                QCOMPARE(got.value(QStringLiteral("metadata")), want.value(QStringLiteral("metadata")));
                QVERIFY(got.value(QStringLiteral("warnings")).isArray());
            }
        }
    }

    void validateTextNamesTheProblem()
    {
        const Run r =
            runCli({QStringLiteral("validate"),
                    ts::test::conformanceDir() + QStringLiteral("/cases/i_offsets_overlap.safetensors")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.contains("INVALID"));
        QVERIFY(r.out.contains("i_offsets_overlap.safetensors"));
        QVERIFY(r.out.contains("\"b\""));
        QVERIFY(r.out.contains("[InvalidOffset]"));
    }

    void infoOnRealFixtures()
    {
        TS_REQUIRE_SHARED_FIXTURES();
        const Run r = runCli({QStringLiteral("info"), QStringLiteral("--json"),
                              ts::test::realFixture(QStringLiteral("face_landmark_68_f32.safetensors"))});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = json(r.out);
        QCOMPARE(o.value(QStringLiteral("tensor_count")).toInt(), 49);
        QCOMPARE(o.value(QStringLiteral("size")).toInteger(), 1431968);
        const QJsonArray dtypes = o.value(QStringLiteral("dtypes")).toArray();
        QCOMPARE(dtypes.size(), 1);
        QCOMPARE(dtypes[0].toObject().value(QStringLiteral("dtype")).toString(), QStringLiteral("F32"));
        QCOMPARE(dtypes[0].toObject().value(QStringLiteral("bytes")).toInteger() +
                     o.value(QStringLiteral("header_bytes")).toInteger(),
                 o.value(QStringLiteral("size")).toInteger());
        QCOMPARE(o.value(QStringLiteral("parameters")).toInteger() * 4,
                 dtypes[0].toObject().value(QStringLiteral("bytes")).toInteger());

        const Run text = runCli(
            {QStringLiteral("info"), ts::test::realFixture(QStringLiteral("face_recognition_sharded"))});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("Shards:"));
        QVERIFY(text.out.contains("Tensors:      117") || text.out.contains("117"));
    }

    void lsFilterAndJsonShape()
    {
        TS_REQUIRE_SHARED_FIXTURES();
        const QString file = ts::test::realFixture(QStringLiteral("face_recognition_f16.safetensors"));
        const Run all = runCli({QStringLiteral("ls"), QStringLiteral("--json"), file});
        QCOMPARE(all.exitCode, 0);
        const QJsonObject o = json(all.out);
        QCOMPARE(o.value(QStringLiteral("tensors")).toArray().size(), 117);
        const QJsonObject first = o.value(QStringLiteral("tensors")).toArray()[0].toObject();
        QVERIFY(first.contains(QStringLiteral("name")) && first.contains(QStringLiteral("dtype")) &&
                first.contains(QStringLiteral("shape")) && first.contains(QStringLiteral("data_offsets")));
        QVERIFY(o.contains(QStringLiteral("metadata")));

        const Run some = runCli({QStringLiteral("ls"), QStringLiteral("--json"), QStringLiteral("--filter"),
                                 QStringLiteral("*.bias"), file});
        const QJsonArray filtered = json(some.out).value(QStringLiteral("tensors")).toArray();
        QVERIFY(!filtered.isEmpty());
        QVERIFY(filtered.size() < 117);
        for (const QJsonValue& t : filtered)
            QVERIFY(t.toObject().value(QStringLiteral("name")).toString().endsWith(QLatin1String(".bias")));
    }

    void metaEditsWriteAtomicallyAndKeepData()
    {
        TS_REQUIRE_SHARED_FIXTURES();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("model with spaces ✓.safetensors"));
        QVERIFY(QFile::copy(ts::test::realFixture(QStringLiteral("face_landmark_68_f32.safetensors")), path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        const QByteArray original = fileSha256(path);

        const QString out = dir.filePath(QStringLiteral("out.safetensors"));
        Run r = runCli({QStringLiteral("meta"), path, QStringLiteral("--set"), QStringLiteral("author=Zoë"),
                        QStringLiteral("--unset"), QStringLiteral("format"), QStringLiteral("-o"), out});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(fileSha256(path), original); // -o leaves the input alone
        r = runCli({QStringLiteral("meta"), QStringLiteral("--json"), out});
        const QJsonObject meta = json(r.out);
        QCOMPARE(meta.value(QStringLiteral("author")).toString(), QStringLiteral("Zoë"));
        QVERIFY(!meta.contains(QStringLiteral("format")));
        QCOMPARE(runCli({QStringLiteral("validate"), out}).exitCode, 0);

        // In place on FILE itself.
        r = runCli({QStringLiteral("meta"), path, QStringLiteral("--set"), QStringLiteral("k=v")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(json(runCli({QStringLiteral("meta"), QStringLiteral("--json"), path}).out)
                     .value(QStringLiteral("k"))
                     .toString(),
                 QStringLiteral("v"));
    }

    // Text output shows every control character of a name, a metadata entry or a path escaped:
    // nothing reaches the terminal that it would act on, and a line break in a name cannot forge
    // a row. Through the real binary, on a real file, command by command.
    void textOutputEscapesWhatCouldDriveTheTerminal()
    {
        QTemporaryDir dir;
        const QList<Hazard> names = hazardousNames();
        // The file name itself is hostile too: a user may run `validate *`.
        const QString path = dir.filePath(QStringLiteral("model\x1b[2J\n.safetensors"));
        const QByteArray shownPath =
            QFile::encodeName(dir.filePath(QStringLiteral("model\\x1b[2J\\n.safetensors")));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(hazardousFile(names));
        }
        const auto shows = [](const Run& r, const QString& text) {
            return r.out.contains(text.toUtf8()) || r.err.contains(text.toUtf8());
        };

        const Run ls = runCli({QStringLiteral("ls"), path});
        QCOMPARE(ls.exitCode, 0);
        VERIFY_NO_TERMINAL_HAZARDS(ls);
        QCOMPARE(ls.out.trimmed().split('\n').size(), names.size() + 1); // the header row and one per tensor
        for (const Hazard& n : names)
            QVERIFY2(shows(ls, n.shown),
                     qPrintable(n.shown + QStringLiteral(" not in:\n") + QString::fromUtf8(ls.out)));

        const Run info = runCli({QStringLiteral("info"), path});
        QCOMPARE(info.exitCode, 0);
        VERIFY_NO_TERMINAL_HAZARDS(info);
        QVERIFY2(info.out.contains(shownPath), info.out.constData());
        QVERIFY(shows(info, QStringLiteral("  key\\x1b[2J = value\\r\\nforged = yes")));
        QVERIFY(shows(info, QStringLiteral("  title = \\x1b]2;owned\\x07\\u202e")));
        QVERIFY(shows(info,
                      QStringLiteral("[ControlCharacterInName] tensor name \"esc\\x1b]0;pwned\\x07title\"")));

        const Run validate = runCli({QStringLiteral("validate"), path});
        QCOMPARE(validate.exitCode, 0);
        VERIFY_NO_TERMINAL_HAZARDS(validate);
        QVERIFY2(validate.out.startsWith(QByteArray(QByteArray("OK       ") + shownPath)),
                 validate.out.constData());
        QVERIFY(shows(validate, QStringLiteral("tensor name \"line\\nforged  F32  [1]\"")));

        const Run meta = runCli({QStringLiteral("meta"), path});
        QCOMPARE(meta.exitCode, 0);
        VERIFY_NO_TERMINAL_HAZARDS(meta);
        QCOMPARE(meta.out,
                 QByteArray("key\\x1b[2J = value\\r\\nforged = yes\ntitle = \\x1b]2;owned\\x07\\u202e\n"));

        const Run stats = runCli({QStringLiteral("stats"), path});
        QCOMPARE(stats.exitCode, 0);
        VERIFY_NO_TERMINAL_HAZARDS(stats);
        for (const Hazard& n : names)
            QVERIFY2(shows(stats, n.shown + QStringLiteral("  U8 [2]")), qPrintable(n.shown));

        const Run scan = runCli({QStringLiteral("scan"), path});
        VERIFY_NO_TERMINAL_HAZARDS(scan);
        const Run report = runCli({QStringLiteral("convert"), path, QStringLiteral("--dry-run")});
        QCOMPARE(report.exitCode, 0);
        VERIFY_NO_TERMINAL_HAZARDS(report);
        QVERIFY(shows(report, names.front().shown));

        // Errors: a name or a path from the command line, a name from a broken file.
        const Run missing = runCli({QStringLiteral("export"), path, QStringLiteral("no\x1b]0;such\a"),
                                    QStringLiteral("-o"), dir.filePath(QStringLiteral("t.npy"))});
        QCOMPARE(missing.exitCode, 2);
        VERIFY_NO_TERMINAL_HAZARDS(missing);
        QVERIFY(shows(missing, QStringLiteral("has no tensor named \"no\\x1b]0;such\\x07\"")));
        const Run badOption = runCli({QStringLiteral("ls"), QStringLiteral("--\x1b[2J"), path});
        QCOMPARE(badOption.exitCode, 2);
        VERIFY_NO_TERMINAL_HAZARDS(badOption);
        QVERIFY(shows(badOption, QStringLiteral("\\x1b[2J")));
        const Run unknown = runCli({QStringLiteral("\x1b]0;x\a")});
        QCOMPARE(unknown.exitCode, 2);
        VERIFY_NO_TERMINAL_HAZARDS(unknown);

        const QString broken = dir.filePath(QStringLiteral("broken.safetensors"));
        {
            // JSON's own escapes: the name holds ESC, CR and LF once decoded.
            QByteArray json =
                "{\"bad\\u001b[2J\\r\\n\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,4]}}";
            json += QByteArray((8 - json.size() % 8) % 8, ' ');
            QByteArray bytes(8, '\0');
            bytes[0] = static_cast<char>(json.size());
            QFile f(broken);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes + json + QByteArray(4, '\0'));
        }
        const Run invalid = runCli({QStringLiteral("validate"), broken});
        QCOMPARE(invalid.exitCode, 1);
        VERIFY_NO_TERMINAL_HAZARDS(invalid);
        QVERIFY2(invalid.out.contains("INVALID  ") && invalid.out.contains("\"bad\\x1b[2J\\r\\n\""),
                 invalid.out.constData());
        QCOMPARE(invalid.out.count('\n'), 1);
        const Run lsBroken = runCli({QStringLiteral("ls"), broken});
        QCOMPARE(lsBroken.exitCode, 1);
        VERIFY_NO_TERMINAL_HAZARDS(lsBroken);
        QVERIFY(lsBroken.err.contains("\"bad\\x1b[2J\\r\\n\""));
    }

    // --json keeps the exact names and values (JSON's own escaping only): parsed back, they are
    // the bytes of the file.
    // `ls` lines its columns up in a terminal whatever script the names are in: padded by UTF-16
    // length, a Chinese name's row had its DTYPE, SHAPE... cells shifted by one column per character.
    void lsAlignsColumnsOfWideAndCombiningNames()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("scripts.safetensors"));
        const QStringList names{QStringLiteral("\u6a21\u578b.\u5c42.0.\u6743\u91cd"),
                                QStringLiteral("e\u0301tat.biais"), QStringLiteral("emoji.\U0001F600.bias"),
                                QStringLiteral("plain.layer.weight"),
                                QStringLiteral("\ubaa8\ub378.\uac00\uc911\uce58")};
        {
            QList<Hazard> hazards;
            for (const QString& n : names)
                hazards.append({n, n});
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(hazardousFile(hazards));
        }
        const Run ls = runCli({QStringLiteral("ls"), path});
        QCOMPARE(ls.exitCode, 0);
        // Columns counted here by the scripts' own rule, not by the code under test: CJK ideographs,
        // Hangul syllables and the emoji take two, the combining accent none.
        const auto columnsOf = [](const QString& text) {
            int n = 0;
            for (const char32_t c : text.toUcs4()) {
                if ((c >= 0x4e00 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7a3) || c == 0x1f600)
                    n += 2;
                else if (c != 0x301)
                    n += 1;
            }
            return n;
        };
        const QStringList lines = QString::fromUtf8(ls.out).trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), names.size() + 1);
        for (const QString& cell :
             {QStringLiteral("DTYPE"), QStringLiteral("SHAPE"), QStringLiteral("PARAMS")}) {
            const int at = columnsOf(lines.front().left(lines.front().indexOf(cell)));
            const QString rowCell = cell == QStringLiteral("DTYPE")   ? QStringLiteral("U8")
                                    : cell == QStringLiteral("SHAPE") ? QStringLiteral("[2]")
                                                                      : QStringLiteral("2 ");
            for (const QString& line : lines.mid(1)) {
                const qsizetype found = line.indexOf(QLatin1Char(' ') + rowCell) + 1;
                QVERIFY2(found > 0, qPrintable(line));
                QVERIFY2(columnsOf(line.left(found)) == at,
                         qPrintable(QStringLiteral("%1 at column %2, not %3:\n%4")
                                        .arg(cell)
                                        .arg(columnsOf(line.left(found)))
                                        .arg(at)
                                        .arg(QString::fromUtf8(ls.out))));
            }
        }
    }

    void jsonOutputKeepsHazardousNamesExact()
    {
        QTemporaryDir dir;
        const QList<Hazard> names = hazardousNames();
        const QString path = dir.filePath(QStringLiteral("model.safetensors"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(hazardousFile(names));
        }
        QStringList want;
        for (const Hazard& n : names)
            want << n.raw;
        want.sort();
        QJsonObject wantMetadata;
        for (const auto& [key, value] : hazardousMetadata())
            wantMetadata.insert(key, value);
        const auto namesOf = [](const QJsonArray& tensors) {
            QStringList got;
            for (const QJsonValue& t : tensors)
                got << t.toObject().value(QStringLiteral("name")).toString();
            got.sort();
            return got;
        };

        const Run ls = runCli({QStringLiteral("ls"), QStringLiteral("--json"), path});
        QCOMPARE(ls.exitCode, 0);
        QCOMPARE(namesOf(json(ls.out).value(QStringLiteral("tensors")).toArray()), want);
        QCOMPARE(json(ls.out).value(QStringLiteral("metadata")).toObject(), wantMetadata);
        const Run validate = runCli({QStringLiteral("validate"), QStringLiteral("--json"), path});
        QCOMPARE(namesOf(json(validate.out).value(QStringLiteral("tensors")).toArray()), want);
        const Run info = runCli({QStringLiteral("info"), QStringLiteral("--json"), path});
        QCOMPARE(json(info.out).value(QStringLiteral("metadata")).toObject(), wantMetadata);
        bool warned = false;
        for (const QJsonValue& w : json(info.out).value(QStringLiteral("warnings")).toArray())
            warned = warned ||
                     w.toObject().value(QStringLiteral("message")).toString().contains(names.front().raw);
        QVERIFY2(warned, info.out.constData()); // warnings keep the raw name too
        const Run meta = runCli({QStringLiteral("meta"), QStringLiteral("--json"), path});
        QCOMPARE(json(meta.out), wantMetadata);
        const Run stats = runCli({QStringLiteral("stats"), QStringLiteral("--json"), path});
        QCOMPARE(namesOf(json(stats.out).value(QStringLiteral("tensors")).toArray()), want);
    }

    void exitStatuses()
    {
        QCOMPARE(runCli({}).exitCode, 2);
        QCOMPARE(runCli({QStringLiteral("frobnicate")}).exitCode, 2);
        QCOMPARE(runCli({QStringLiteral("info")}).exitCode, 2);
        QCOMPARE(runCli({QStringLiteral("info"), QStringLiteral("--bogus"), QStringLiteral("x")}).exitCode,
                 2);
        const Run missing =
            runCli({QStringLiteral("info"), QStringLiteral("/nonexistent/model.safetensors")});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("does not exist"));
        QCOMPARE(runCli({QStringLiteral("validate"),
                         ts::test::conformanceDir() + QStringLiteral("/cases/v_single_f32.safetensors")})
                     .exitCode,
                 0);
        QCOMPARE(runCli({QStringLiteral("--help")}).exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
