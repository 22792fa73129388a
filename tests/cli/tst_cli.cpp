// tensorscope-cli end to end: the real binary on real files, its output and exit statuses.
#include "../core/CliRun.h"
#include "../core/TestPaths.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

using ts::test::cli;
using Run = ts::test::CliRun;

QJsonObject json(const QByteArray& text)
{
    return QJsonDocument::fromJson(text).object();
}

QByteArray sha(const QString& path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void validateEveryConformanceFileInOneCall()
    {
        const QDir cases(tspaths::conformanceDir() + QStringLiteral("/cases"));
        QStringList files;
        for (const QString& name : cases.entryList({QStringLiteral("*.safetensors")}, QDir::Files, QDir::Name))
            files << cases.filePath(name);
        QVERIFY(files.size() >= 106);
        const Run r = cli(QStringList{QStringLiteral("validate"), QStringLiteral("--json")} + files);
        QCOMPARE(r.exitCode, 1); // some are invalid
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), files.size());

        QHash<QString, QJsonObject> expected;
        QFile f(tspaths::conformanceDir() + QStringLiteral("/expected.jsonl"));
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
                QCOMPARE(got.value(QStringLiteral("error")).toString(), want.value(QStringLiteral("error")).toString());
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
        const Run r = cli({QStringLiteral("validate"), tspaths::conformanceDir() + QStringLiteral("/cases/i_offsets_overlap.safetensors")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.contains("INVALID"));
        QVERIFY(r.out.contains("i_offsets_overlap.safetensors"));
        QVERIFY(r.out.contains("\"b\""));
        QVERIFY(r.out.contains("[InvalidOffset]"));
    }

    void infoOnRealFixtures()
    {
        REQUIRE_SHARED_FIXTURES();
        const Run r = cli({QStringLiteral("info"), QStringLiteral("--json"), tspaths::realFixture(QStringLiteral("face_landmark_68_f32.safetensors"))});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = json(r.out);
        QCOMPARE(o.value(QStringLiteral("tensor_count")).toInt(), 49);
        QCOMPARE(o.value(QStringLiteral("size")).toInteger(), 1431968);
        const QJsonArray dtypes = o.value(QStringLiteral("dtypes")).toArray();
        QCOMPARE(dtypes.size(), 1);
        QCOMPARE(dtypes[0].toObject().value(QStringLiteral("dtype")).toString(), QStringLiteral("F32"));
        QCOMPARE(dtypes[0].toObject().value(QStringLiteral("bytes")).toInteger() + o.value(QStringLiteral("header_bytes")).toInteger(),
                 o.value(QStringLiteral("size")).toInteger());
        QCOMPARE(o.value(QStringLiteral("parameters")).toInteger() * 4, dtypes[0].toObject().value(QStringLiteral("bytes")).toInteger());

        const Run text = cli({QStringLiteral("info"), tspaths::realFixture(QStringLiteral("face_recognition_sharded"))});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("Shards:"));
        QVERIFY(text.out.contains("Tensors:      117") || text.out.contains("117"));
    }

    void lsFilterAndJsonShape()
    {
        REQUIRE_SHARED_FIXTURES();
        const QString file = tspaths::realFixture(QStringLiteral("face_recognition_f16.safetensors"));
        const Run all = cli({QStringLiteral("ls"), QStringLiteral("--json"), file});
        QCOMPARE(all.exitCode, 0);
        const QJsonObject o = json(all.out);
        QCOMPARE(o.value(QStringLiteral("tensors")).toArray().size(), 117);
        const QJsonObject first = o.value(QStringLiteral("tensors")).toArray()[0].toObject();
        QVERIFY(first.contains(QStringLiteral("name")) && first.contains(QStringLiteral("dtype")) &&
                first.contains(QStringLiteral("shape")) && first.contains(QStringLiteral("data_offsets")));
        QVERIFY(o.contains(QStringLiteral("metadata")));

        const Run some = cli({QStringLiteral("ls"), QStringLiteral("--json"), QStringLiteral("--filter"), QStringLiteral("*.bias"), file});
        const QJsonArray filtered = json(some.out).value(QStringLiteral("tensors")).toArray();
        QVERIFY(!filtered.isEmpty());
        QVERIFY(filtered.size() < 117);
        for (const QJsonValue& t : filtered)
            QVERIFY(t.toObject().value(QStringLiteral("name")).toString().endsWith(QLatin1String(".bias")));
    }

    void metaEditsWriteAtomicallyAndKeepData()
    {
        REQUIRE_SHARED_FIXTURES();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("model with spaces ✓.safetensors"));
        QVERIFY(QFile::copy(tspaths::realFixture(QStringLiteral("face_landmark_68_f32.safetensors")), path));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        const QByteArray original = sha(path);

        const QString out = dir.filePath(QStringLiteral("out.safetensors"));
        Run r = cli({QStringLiteral("meta"), path, QStringLiteral("--set"), QStringLiteral("author=Zoë"),
                     QStringLiteral("--unset"), QStringLiteral("format"), QStringLiteral("-o"), out});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(sha(path), original); // -o leaves the input alone
        r = cli({QStringLiteral("meta"), QStringLiteral("--json"), out});
        const QJsonObject meta = json(r.out);
        QCOMPARE(meta.value(QStringLiteral("author")).toString(), QStringLiteral("Zoë"));
        QVERIFY(!meta.contains(QStringLiteral("format")));
        QCOMPARE(cli({QStringLiteral("validate"), out}).exitCode, 0);

        // In place on FILE itself.
        r = cli({QStringLiteral("meta"), path, QStringLiteral("--set"), QStringLiteral("k=v")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(json(cli({QStringLiteral("meta"), QStringLiteral("--json"), path}).out).value(QStringLiteral("k")).toString(), QStringLiteral("v"));
    }

    void exitStatuses()
    {
        QCOMPARE(cli({}).exitCode, 2);
        QCOMPARE(cli({QStringLiteral("frobnicate")}).exitCode, 2);
        QCOMPARE(cli({QStringLiteral("info")}).exitCode, 2);
        QCOMPARE(cli({QStringLiteral("info"), QStringLiteral("--bogus"), QStringLiteral("x")}).exitCode, 2);
        const Run missing = cli({QStringLiteral("info"), QStringLiteral("/nonexistent/model.safetensors")});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("does not exist"));
        QCOMPARE(cli({QStringLiteral("validate"), tspaths::conformanceDir() + QStringLiteral("/cases/v_single_f32.safetensors")}).exitCode, 0);
        QCOMPARE(cli({QStringLiteral("--help")}).exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
