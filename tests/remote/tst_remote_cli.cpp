// tensorscope-cli on URLs, end to end: the binary this build made, against nginx and the
// scripted server on 127.0.0.1. What it prints for a URL is what it prints for the local file;
// the token it is given appears nowhere it writes.
#include "NginxServer.h"
#include "RemoteTestFiles.h"
#include "ScriptedServer.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace ts::test;

namespace {

const QString kToken = QStringLiteral("hf_tok3n-that-must-stay-secret");

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

} // namespace

class TestRemoteCli : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_root;
    QTemporaryDir m_home; // XDG_CACHE_HOME and XDG_CONFIG_HOME of the runs
    NginxServer m_nginx;
    ScriptedServer m_scripted;

    Run cli(const QStringList& args, const QStringList& env = {})
    {
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("XDG_CACHE_HOME"), m_home.filePath(QStringLiteral("cache")));
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.filePath(QStringLiteral("config")));
        e.insert(QStringLiteral("HF_HOME"), m_home.filePath(QStringLiteral("hf")));
        e.remove(QStringLiteral("HF_TOKEN"));
        for (const QString& kv : env)
            e.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
        p.setProcessEnvironment(e);
        p.start(QStringLiteral(TS_CLI_PATH), args);
        p.waitForFinished(120000);
        Run r{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
              p.readAllStandardError()};
        if (r.exitCode == -1)
            qWarning("tensorscope-cli crashed:\n%s", r.err.constData());
        return r;
    }
    QString local(const QString& name) const { return QDir(m_root.path()).filePath(name); }

private slots:
    void initTestCase()
    {
        for (const char* name : {"face_recognition_f16.safetensors", "age_gender_anomalies_f32.safetensors",
                                 "face_recognition_sharded", "tiny_face_detector_u8.safetensors"})
            QVERIFY2(RemoteTestFiles::copyFixture(QString::fromLatin1(name), m_root.path()), name);
        QFile::setPermissions(m_root.path(), QFile::permissions(m_root.path()) | QFileDevice::ReadOther |
                                                 QFileDevice::ExeOther);
        NginxServer::Options options;
        options.root = m_root.path();
        QVERIFY2(m_nginx.start(options), qPrintable(m_nginx.error()));
        QVERIFY2(m_scripted.start(m_root.path(), kToken), qPrintable(m_scripted.error()));
    }

    void readCommandsPrintWhatTheyPrintForTheLocalFile_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("name");
        const QString f16 = QStringLiteral("face_recognition_f16.safetensors");
        const QString u8 = QStringLiteral("tiny_face_detector_u8.safetensors");
        const QString bad = QStringLiteral("age_gender_anomalies_f32.safetensors");
        const QString index = QStringLiteral("face_recognition_sharded/model.safetensors.index.json");
        QTest::newRow("info") << QStringList{QStringLiteral("info")} << u8;
        QTest::newRow("info --json") << QStringList{QStringLiteral("info"), QStringLiteral("--json")} << u8;
        QTest::newRow("ls") << QStringList{QStringLiteral("ls")} << f16;
        QTest::newRow("ls index --json")
            << QStringList{QStringLiteral("ls"), QStringLiteral("--json")} << index;
        QTest::newRow("validate --json")
            << QStringList{QStringLiteral("validate"), QStringLiteral("--json")} << f16;
        QTest::newRow("stats") << QStringList{QStringLiteral("stats"), QStringLiteral("--bins"),
                                              QStringLiteral("8")}
                               << bad;
        QTest::newRow("scan --nan-inf-only")
            << QStringList{QStringLiteral("scan"), QStringLiteral("--nan-inf-only")} << bad;
        QTest::newRow("scan index") << QStringList{QStringLiteral("scan"), QStringLiteral("--json")} << index;
    }

    void readCommandsPrintWhatTheyPrintForTheLocalFile()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, name);
        const Run remote = cli(args + QStringList{m_nginx.url(name)});
        const Run fromFile = cli(args + QStringList{local(name)});
        QCOMPARE(remote.exitCode, fromFile.exitCode);
        const auto normalise = [](QByteArray text, const QString& where) {
            // The location differs, and so do a scan's timings; nothing else may.
            QString t = QString::fromUtf8(text.replace(where.toUtf8(), "MODEL"));
            t.replace(QRegularExpression(QStringLiteral("\"seconds\":[0-9.e+-]+")),
                      QStringLiteral("\"seconds\":0"));
            t.replace(QRegularExpression(QStringLiteral("^(Scanned|Checked) .*$"),
                                         QRegularExpression::MultilineOption),
                      QStringLiteral("TIMINGS"));
            return t;
        };
        QCOMPARE(normalise(remote.out, m_nginx.url(name)), normalise(fromFile.out, local(name)));
        QCOMPARE(remote.err, fromFile.err);
    }

    void convertFromAUrlWritesWhatConvertFromTheFileWrites()
    {
        QTemporaryDir out;
        const QString name = QStringLiteral("face_recognition_f16.safetensors");
        const Run remote =
            cli({QStringLiteral("convert"), m_nginx.url(name), QStringLiteral("-o"),
                 out.filePath(QStringLiteral("remote.safetensors")), QStringLiteral("--dtype"),
                 QStringLiteral("BF16"), QStringLiteral("--set"), QStringLiteral("origin=url")});
        QCOMPARE(remote.exitCode, 0);
        const Run fromFile =
            cli({QStringLiteral("convert"), local(name), QStringLiteral("-o"),
                 out.filePath(QStringLiteral("local.safetensors")), QStringLiteral("--dtype"),
                 QStringLiteral("BF16"), QStringLiteral("--set"), QStringLiteral("origin=url")});
        QCOMPARE(fromFile.exitCode, 0);
        QFile a(out.filePath(QStringLiteral("remote.safetensors"))),
            b(out.filePath(QStringLiteral("local.safetensors")));
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QVERIFY(a.size() > 1000);
        QVERIFY(a.readAll() == b.readAll());
    }

    void theCacheSizeOptionBoundsAndTurnsOffTheCache()
    {
        const QString url = m_nginx.url(QStringLiteral("age_gender_anomalies_f32.safetensors"));
        QDir(m_home.filePath(QStringLiteral("cache"))).removeRecursively();
        m_nginx.clearLog();
        QCOMPARE(
            cli({QStringLiteral("scan"), QStringLiteral("--cache-size"), QStringLiteral("0"), url}).exitCode,
            1);
        QVERIFY(!QFileInfo::exists(m_home.filePath(QStringLiteral("cache/tensorscope/remote"))));
        const int first = static_cast<int>(m_nginx.waitForRequests(2).size());
        QCOMPARE(
            cli({QStringLiteral("scan"), QStringLiteral("--cache-size"), QStringLiteral("0"), url}).exitCode,
            1);
        QCOMPARE(m_nginx.waitForRequests(2 * first).size(), 2 * first); // all of it again
        // With a cache, a second scan asks for the probe alone.
        m_nginx.clearLog();
        QCOMPARE(cli({QStringLiteral("scan"), QStringLiteral("--cache-size"), QStringLiteral("1GiB"), url})
                     .exitCode,
                 1);
        const int cached = static_cast<int>(m_nginx.waitForRequests(2).size());
        QCOMPARE(cli({QStringLiteral("scan"), url}).exitCode, 1);
        QCOMPARE(m_nginx.waitForRequests(cached + 1).size(), cached + 1);
        const Run bad =
            cli({QStringLiteral("info"), QStringLiteral("--cache-size"), QStringLiteral("lots"), url});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("--cache-size takes a size"));
    }

    void failuresExitTwoWithTheirSentence_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("says");
        QTest::newRow("404") << QStringLiteral("status/404/m.safetensors") << QStringLiteral("[NotFound]");
        QTest::newRow("401") << QStringLiteral("auth/face_recognition_f16.safetensors")
                             << QStringLiteral("asks for an access token (HTTP 401): set HF_TOKEN");
        QTest::newRow("no ranges") << QStringLiteral("norange/face_recognition_f16.safetensors")
                                   << QStringLiteral("[RangeNotSupported]");
        QTest::newRow("folder") << QStringLiteral("files/") << QStringLiteral("names a folder");
    }

    void failuresExitTwoWithTheirSentence()
    {
        QFETCH(QString, path);
        QFETCH(QString, says);
        const Run r = cli({QStringLiteral("info"), m_scripted.url(path)});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(says.toUtf8()), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void aRemoteModelIsNotEditedInPlace()
    {
        const Run r =
            cli({QStringLiteral("meta"), m_nginx.url(QStringLiteral("face_recognition_f16.safetensors")),
                 QStringLiteral("--set"), QStringLiteral("a=b")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("convert URL -o OUT --set"), r.err.constData());
    }

    void theTokenOpensAndIsNeverWritten()
    {
        const QStringList env{QStringLiteral("HF_TOKEN=") + kToken,
                              QStringLiteral("TENSORSCOPE_TOKEN_HOSTS=127.0.0.1:%1").arg(m_scripted.port()),
                              // Qt's own debug output too, all of it.
                              QStringLiteral("QT_LOGGING_RULES=*.debug=true")};
        const QString file = QStringLiteral("face_recognition_f16.safetensors");
        QList<Run> runs;
        runs << cli({QStringLiteral("info"), QStringLiteral("--json"),
                     m_scripted.url(QStringLiteral("auth/") + file)},
                    env);
        QCOMPARE(runs.back().exitCode, 0);
        runs << cli({QStringLiteral("scan"), m_scripted.url(QStringLiteral("auth/") + file)}, env);
        QCOMPARE(runs.back().exitCode, 0);
        runs << cli({QStringLiteral("validate"), QStringLiteral("--json"),
                     m_scripted.url(QStringLiteral("status/403/") + file)},
                    env);
        QCOMPARE(runs.back().exitCode, 2);
        runs << cli({QStringLiteral("ls"), m_scripted.url(QStringLiteral("status/401/") + file)}, env);
        QCOMPARE(runs.back().exitCode, 2);
        QVERIFY2(runs.back().err.contains("did not accept the access token"), runs.back().err.constData());
        // A URL with a password: the password is not printed either.
        runs << cli({QStringLiteral("info"),
                     QStringLiteral("http://user:pa55word@127.0.0.1:%1/status/404/x.safetensors")
                         .arg(m_scripted.port())},
                    env);
        QCOMPARE(runs.back().exitCode, 2);
        for (const Run& r : runs) {
            QVERIFY(!r.out.contains(kToken.toUtf8()));
            QVERIFY(!r.err.contains(kToken.toUtf8()));
            QVERIFY(!r.out.contains("pa55word"));
            QVERIFY(!r.err.contains("pa55word"));
        }
        // The server got it; the disk cache holds bytes of the model, not the token.
        bool accepted = false;
        for (const QJsonObject& r : m_scripted.requests())
            accepted = accepted || r.value(QStringLiteral("auth_ok")).toBool();
        QVERIFY(accepted);
        QDirIterator it(m_home.path(), QDir::Files, QDirIterator::Subdirectories);
        int files = 0;
        while (it.hasNext()) {
            QFile f(it.next());
            QVERIFY(f.open(QIODevice::ReadOnly));
            QVERIFY2(!f.readAll().contains(kToken.toUtf8()), qPrintable(f.fileName()));
            ++files;
        }
        QVERIFY(files > 0);
    }

    void helpSaysUrlsAreRead()
    {
        const Run r = cli({QStringLiteral("scan"), QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("--cache-size"));
        const Run top = cli({QStringLiteral("--help")});
        QVERIFY(top.out.contains("https://"));
    }
};

QTEST_GUILESS_MAIN(TestRemoteCli)
#include "tst_remote_cli.moc"
