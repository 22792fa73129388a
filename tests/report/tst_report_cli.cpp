// tensorscope-cli report, end to end: the formats it writes and where, its exit status, and what
// it refuses to write over.
#include "ChildProcess.h"
#include "Fixtures.h"
#include "ReportTestModels.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

namespace {

ts::test::ProcessRun cli(const QStringList& args)
{
    return ts::test::runCli(args);
}

} // namespace

namespace {

QString fixture(const QString& name)
{
    return ts::test::realFixture(name);
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestReportCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void writesTheThreeFormats();
    void exitStatusFollowsTheFindings();
    void refusesToWriteOverInputsOrExistingFiles();
    void usageErrors();
    void withoutScanAndHashes();
};

void TestReportCli::writesTheThreeFormats()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("report.html"));
    const auto r = cli({QStringLiteral("report"), fixture(QStringLiteral("face_landmark_68_f32.safetensors")),
                        QStringLiteral("-o"), out, QStringLiteral("--json"), QStringLiteral("--md")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    for (const char* name : {"report.html", "report.json", "report.md"})
        QVERIFY2(QFileInfo(dir.filePath(QLatin1String(name))).size() > 0, name);
    QVERIFY(r.out.contains(QByteArray(QByteArray("wrote ") + out.toUtf8())));
    QVERIFY(r.out.contains("0 errors"));
    const QByteArray html = readAll(out);
    QVERIFY(html.startsWith("<!DOCTYPE html>"));
    QVERIFY(html.contains("<svg"));
    const QJsonObject json =
        QJsonDocument::fromJson(readAll(dir.filePath(QStringLiteral("report.json")))).object();
    QCOMPARE(json.value(QLatin1String("summary")).toObject().value(QLatin1String("tensors")).toInt(), 49);
    QCOMPARE(json.value(QLatin1String("files"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QLatin1String("sha256"))
                 .toString()
                 .size(),
             64);
    QVERIFY(json.value(QLatin1String("scan")).toObject().value(QLatin1String("ran")).toBool());
    QVERIFY(readAll(dir.filePath(QStringLiteral("report.md"))).contains("## Files"));
    // The main format follows the name: -o report.md writes Markdown.
    const auto md =
        cli({QStringLiteral("report"), fixture(QStringLiteral("face_landmark_68_f32.safetensors")),
             QStringLiteral("-o"), dir.filePath(QStringLiteral("only.md")), QStringLiteral("--no-scan")});
    QCOMPARE(md.exitCode, 0);
    QVERIFY(readAll(dir.filePath(QStringLiteral("only.md")))
                .startsWith("# Audit report: face\\_landmark\\_68\\_f32.safetensors"));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("only.html"))));
}

void TestReportCli::exitStatusFollowsTheFindings()
{
    QTemporaryDir dir;
    // NaN and Inf in the values: exit 1, like scan.
    auto r = cli({QStringLiteral("report"), fixture(QStringLiteral("age_gender_anomalies_f32.safetensors")),
                  QStringLiteral("-o"), dir.filePath(QStringLiteral("a.json"))});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("a.json"))));
    // A config that contradicts the weights is an error too, values or not.
    QTemporaryDir model;
    QVERIFY(reportmodels::writeDemo(QDir(model.path()).filePath(QStringLiteral("model.safetensors"))));
    QVERIFY(reportmodels::writeConfig(model.path(), 7));
    r = cli({QStringLiteral("report"), model.path(), QStringLiteral("-o"),
             dir.filePath(QStringLiteral("b.json")), QStringLiteral("--no-scan"),
             QStringLiteral("--no-hash")});
    QCOMPARE(r.exitCode, 1);
    const QJsonObject json =
        QJsonDocument::fromJson(readAll(dir.filePath(QStringLiteral("b.json")))).object();
    const QJsonArray findings = json.value(QLatin1String("architectureFindings")).toArray();
    QCOMPARE(findings.size(), 1);
    QVERIFY(findings.first()
                .toObject()
                .value(QLatin1String("message"))
                .toString()
                .contains(QLatin1String("num_hidden_layers is 7, but the weights have 6")));
    QVERIFY(r.out.contains("Llama-style decoder"));
}

void TestReportCli::refusesToWriteOverInputsOrExistingFiles()
{
    QTemporaryDir dir;
    const QString model = dir.filePath(QStringLiteral("model.safetensors"));
    QVERIFY(reportmodels::writeDemo(model));
    QVERIFY(reportmodels::writeConfig(dir.path(), 6));
    const QByteArray before = readAll(model);
    // The model's config.json is an input too: --json beside config.md would write config.json.
    const auto overConfig =
        cli({QStringLiteral("report"), model, QStringLiteral("-o"), dir.filePath(QStringLiteral("config.md")),
             QStringLiteral("--json"), QStringLiteral("--force")});
    QCOMPARE(overConfig.exitCode, 2);
    QVERIFY2(overConfig.err.contains("input"), overConfig.err.constData());
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("config.md"))));
    // An existing report: only with --force.
    const QString out = dir.filePath(QStringLiteral("r.html"));
    QVERIFY(QFile(out).open(QIODevice::WriteOnly));
    auto r = cli({QStringLiteral("report"), model, QStringLiteral("-o"), out, QStringLiteral("--no-scan")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("--force"));
    QCOMPARE(QFileInfo(out).size(), 0);
    r = cli({QStringLiteral("report"), model, QStringLiteral("-o"), out, QStringLiteral("--no-scan"),
             QStringLiteral("--force")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(QFileInfo(out).size() > 0);
    QCOMPARE(readAll(model), before);
}

void TestReportCli::usageErrors()
{
    const auto noOut =
        cli({QStringLiteral("report"), fixture(QStringLiteral("face_landmark_68_f32.safetensors"))});
    QCOMPARE(noOut.exitCode, 2);
    QTemporaryDir dir;
    const auto badExtension =
        cli({QStringLiteral("report"), fixture(QStringLiteral("face_landmark_68_f32.safetensors")),
             QStringLiteral("-o"), dir.filePath(QStringLiteral("r.txt"))});
    QCOMPARE(badExtension.exitCode, 2);
    QVERIFY(badExtension.err.contains(".html, .json or .md"));
    const auto missing = cli({QStringLiteral("report"), dir.filePath(QStringLiteral("nope.safetensors")),
                              QStringLiteral("-o"), dir.filePath(QStringLiteral("r.html"))});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("r.html"))));
}

void TestReportCli::withoutScanAndHashes()
{
    QTemporaryDir dir;
    const auto r =
        cli({QStringLiteral("report"), fixture(QStringLiteral("age_gender_anomalies_f32.safetensors")),
             QStringLiteral("-o"), dir.filePath(QStringLiteral("r.json")), QStringLiteral("--no-scan"),
             QStringLiteral("--no-hash")});
    // Nothing read but the header: no NaN found, so no error to report.
    QCOMPARE(r.exitCode, 0);
    const QJsonObject json =
        QJsonDocument::fromJson(readAll(dir.filePath(QStringLiteral("r.json")))).object();
    QVERIFY(json.value(QLatin1String("files"))
                .toArray()
                .first()
                .toObject()
                .value(QLatin1String("sha256"))
                .isNull());
    QVERIFY(!json.value(QLatin1String("scan")).toObject().value(QLatin1String("ran")).toBool());
}

QTEST_GUILESS_MAIN(TestReportCli)
#include "tst_report_cli.moc"
