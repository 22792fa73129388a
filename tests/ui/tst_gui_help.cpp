// tensorscope's command line before any window: --help and --version answer with no display at
// all (no DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM; a QApplication aborts there), Qt's own
// options still reach Qt, and the generated man page is clean and complete.
#include "ChildProcess.h"
#include "ManPageCheck.h"

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kBinary = QStringLiteral(TS_BINARY_DIR "/bin/tensorscope");
const QString kPage = QStringLiteral(TS_BINARY_DIR "/share/man/man1/tensorscope.1");

const QStringList kOptions = {
    QStringLiteral("--screenshot"), QStringLiteral("--page"), QStringLiteral("--select"),
    QStringLiteral("--size"),       QStringLiteral("--dark"), QStringLiteral("--new-window"),
    QStringLiteral("--shot-delay"), QStringLiteral("--help"), QStringLiteral("--version")};

using Run = ts::test::ProcessRun;

Run headless(const QStringList& args, const QString& workingDir = {})
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QString::fromLatin1(name));
    // A private key: no chance of handing anything to a window someone has open.
    env.insert(QStringLiteral("TENSORSCOPE_INSTANCE_KEY"), QStringLiteral("tst_gui_help"));
    ts::test::ProcessOptions options;
    options.environment = env;
    options.workingDirectory = workingDir;
    options.timeoutMs = 60000;
    return ts::test::runProcess(kBinary, args, options);
}

} // namespace

class TestGuiHelp : public QObject {
    Q_OBJECT

private slots:
    void versionWithoutDisplay_data()
    {
        QTest::addColumn<QString>("flag");
        QTest::newRow("--version") << QStringLiteral("--version");
        QTest::newRow("-v") << QStringLiteral("-v");
    }
    void versionWithoutDisplay()
    {
        QFETCH(QString, flag);
        const Run r = headless({flag});
        QVERIFY2(r.signal == 0, qPrintable(r.describe()));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("Tensorscope " TENSORSCOPE_VERSION "\n"));
    }

    void helpWithoutDisplay_data()
    {
        QTest::addColumn<QString>("flag");
        QTest::newRow("--help") << QStringLiteral("--help");
        QTest::newRow("-h") << QStringLiteral("-h");
    }
    void helpWithoutDisplay()
    {
        QFETCH(QString, flag);
        const Run r = headless({flag});
        QVERIFY2(r.signal == 0, qPrintable(r.describe()));
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("Usage: tensorscope [OPTIONS] [FILE|FOLDER|index.json...]\n"));
        for (const QString& o : kOptions)
            QVERIFY2(r.out.contains(o.toUtf8()), qPrintable(o));
        QVERIFY2(!r.out.contains("platform"), "Qt's hidden options are not listed");
    }

    // A mistake is a usage error printed on stderr, not an abort for want of a display.
    void usageErrorWithoutDisplay()
    {
        const Run r = headless({QStringLiteral("--no-such-option")});
        QVERIFY2(r.signal == 0, qPrintable(r.describe()));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("Unknown option 'no-such-option'"), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    // -platform offscreen is Qt's: parsed early without complaint and handed to QApplication, which
    // then runs without a display. Its value is not taken for a file to open.
    void qtOptionsReachQt()
    {
        QTemporaryDir dir;
        const QString shot = dir.filePath(QStringLiteral("start.png"));
        const Run r = headless({QStringLiteral("-platform"), QStringLiteral("offscreen"),
                                QStringLiteral("--screenshot"), shot, QStringLiteral("--size"),
                                QStringLiteral("640x400")},
                               dir.path());
        QVERIFY2(r.signal == 0, qPrintable(r.describe()));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(QImage(shot).size(), QSize(640, 400));
        QVERIFY2(!r.err.contains("offscreen"), r.err.constData()); // no "cannot open offscreen"
    }

    void manPage()
    {
        QVERIFY2(QFile::exists(kPage), qPrintable(kPage));
        const QString warnings = ts::test::manPageWarnings(kPage, kPage + QStringLiteral(".gz"));
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings));
        QFile f(kPage);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray roff = f.readAll();
        for (const char* section :
             {".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH OPTIONS", ".SH EXIT STATUS",
              ".SH ENVIRONMENT", ".SH FILES", ".SH SEE ALSO", "TENSORSCOPE_INSTANCE_KEY"})
            QVERIFY2(roff.contains(section), section);
        for (const QString& o : kOptions) // in roff an option's leading dashes are \- (a typed minus)
            QVERIFY2(roff.contains(QByteArray("\\-\\-" + o.mid(2).toUtf8())), qPrintable(o));
    }
};

QTEST_GUILESS_MAIN(TestGuiHelp)
#include "tst_gui_help.moc"
