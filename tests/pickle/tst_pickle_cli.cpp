// tensorscope-cli on PyTorch pickle checkpoints, as a child process: audit-pickle's verdicts,
// exit statuses and JSON; convert writing exactly the reference writer's bytes
// (data/expected/*.safetensors, made by make_checkpoints.py from the emulation's tensors, whose
// hashes match what torch loaded) and refusing what would run code; info, ls, stats and scan
// reading them like any model.
#include "ChildProcess.h"
#include "PickleTestData.h"

#include <QJsonArray>
#include <QTemporaryDir>

using namespace tspickle;
using ts::test::runCli;

class TestPickleCli : public QObject {
    Q_OBJECT
private slots:
    void auditFlagsDangerousFiles();
    void auditJson();
    void auditOfBenignAndStructural();
    void auditOfOtherFiles();
    void convertWritesTheReferenceBytes_data();
    void convertWritesTheReferenceBytes();
    void convertRefusesCodeAndStructure();
    void readCommandsAcceptPickles();
};

void TestPickleCli::auditFlagsDangerousFiles()
{
    for (const QString& f : filesIn(QStringLiteral("hostile"))) {
        const auto r =
            ts::test::runCli({QStringLiteral("audit-pickle"), dataFile(QStringLiteral("hostile/") + f)});
        QVERIFY2(r.exitCode == 1, qPrintable(f + QStringLiteral(": ") + QString::fromUtf8(r.err)));
        QVERIFY2(r.out.contains("Verdict: DANGEROUS"), qPrintable(f));
        QVERIFY2(r.out.contains("  dangerous  "), qPrintable(f));
    }
}

void TestPickleCli::auditJson()
{
    const auto r = ts::test::runCli({QStringLiteral("audit-pickle"), QStringLiteral("--json"),
                                     dataFile(QStringLiteral("hostile/h_legacy_main.pt"))});
    QCOMPARE(r.exitCode, 1);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o.value(QStringLiteral("verdict")).toString(), QStringLiteral("dangerous"));
    QCOMPARE(o.value(QStringLiteral("format")).toString(), QStringLiteral("PyTorch legacy"));
    QVERIFY(o.value(QStringLiteral("runs_code")).toBool());
    QVERIFY(!o.value(QStringLiteral("convertible")).toBool());
    QJsonObject system;
    for (const QJsonValue& g : o.value(QStringLiteral("globals")).toArray()) {
        if (g.toObject().value(QStringLiteral("resolved")).toString() == QLatin1String("os.system"))
            system = g.toObject();
    }
    QCOMPARE(system.value(QStringLiteral("class")).toString(), QStringLiteral("dangerous"));
    QCOMPARE(system.value(QStringLiteral("where")).toString(), QStringLiteral("the main pickle"));
    QVERIFY(system.value(QStringLiteral("read_by_torch")).toBool());
    const QByteArray file = fileBytes(dataFile(QStringLiteral("hostile/h_legacy_main.pt")));
    QCOMPARE(file.at(system.value(QStringLiteral("first_offset")).toInteger()), 'c');
    bool finding = false;
    for (const QJsonValue& d : o.value(QStringLiteral("findings")).toArray())
        finding = finding || d.toObject().value(QStringLiteral("code")).toString() ==
                                 QLatin1String("PickleDangerousGlobal");
    QVERIFY(finding);
}

void TestPickleCli::auditOfBenignAndStructural()
{
    const auto clean = ts::test::runCli({QStringLiteral("audit-pickle"), QStringLiteral("--json"),
                                         dataFile(QStringLiteral("torch/zip_views.pt"))});
    QCOMPARE(clean.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(clean.out).object().value(QStringLiteral("verdict")).toString(),
             QStringLiteral("clean"));
    const auto module = ts::test::runCli({QStringLiteral("audit-pickle"), QStringLiteral("--json"),
                                          dataFile(QStringLiteral("torch/torch_module.pt"))});
    QCOMPARE(module.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(module.out).object().value(QStringLiteral("verdict")).toString(),
             QStringLiteral("unknown-globals"));
    const auto crc =
        ts::test::runCli({QStringLiteral("audit-pickle"), dataFile(QStringLiteral("malformed/m_crc.pt"))});
    QCOMPARE(crc.exitCode, 0); // exit 1 is for code, not structure
    QVERIFY(crc.out.contains("[ZipCrcMismatch]"));
    const auto script =
        ts::test::runCli({QStringLiteral("audit-pickle"), dataFile(QStringLiteral("torch/torchscript.pt"))});
    QCOMPARE(script.exitCode, 1);
    QVERIFY(script.out.contains("[TorchScriptArchive]"));
}

void TestPickleCli::auditOfOtherFiles()
{
    const auto st =
        ts::test::runCli({QStringLiteral("audit-pickle"),
                          QStringLiteral(TS_TEST_DATA "/conformance/cases/v_dtype_F16.safetensors")});
    QCOMPARE(st.exitCode, 0);
    QVERIFY(st.out.contains("not a pickle checkpoint"));
    QCOMPARE(
        ts::test::runCli({QStringLiteral("audit-pickle"), QStringLiteral("/nonexistent/model.bin")}).exitCode,
        2);
    QCOMPARE(ts::test::runCli({QStringLiteral("audit-pickle")}).exitCode, 2);
}

void TestPickleCli::convertWritesTheReferenceBytes_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    for (const QString& e : filesIn(QStringLiteral("expected"))) {
        const QString stem = e.chopped(12); // ".safetensors"
        QString input;
        for (const QString& folder : {QStringLiteral("torch"), QStringLiteral("emulated")}) {
            for (const QString& f : filesIn(folder)) {
                if (f.section(QLatin1Char('.'), 0, 0) == stem)
                    input = folder + QLatin1Char('/') + f;
            }
        }
        QVERIFY2(!input.isEmpty(), qPrintable(e));
        QTest::newRow(qPrintable(input)) << input << e;
    }
}

void TestPickleCli::convertWritesTheReferenceBytes()
{
    QFETCH(QString, input);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("model.safetensors"));
    const auto r = ts::test::runCli({QStringLiteral("convert"), dataFile(input), QStringLiteral("-o"), out});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(fileBytes(out), fileBytes(dataFile(QStringLiteral("expected/") + expected)));
}

void TestPickleCli::convertRefusesCodeAndStructure()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("x.safetensors"));
    auto r = ts::test::runCli(
        {QStringLiteral("convert"), dataFile(QStringLiteral("hostile/h_tar.pt")), QStringLiteral("-o"), out});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.err.contains("would run code"));
    QVERIFY(r.err.contains("os.system"));
    QVERIFY(!QFileInfo::exists(out));
    r = ts::test::runCli({QStringLiteral("convert"), dataFile(QStringLiteral("hostile/h_crc_mismatch.pt")),
                          QStringLiteral("--allow-unsafe-structure"), QStringLiteral("-o"), out});
    QCOMPARE(r.exitCode, 1); // code is never forced
    QVERIFY(!QFileInfo::exists(out));
    r = ts::test::runCli({QStringLiteral("convert"), dataFile(QStringLiteral("malformed/m_storage_long.pt")),
                          QStringLiteral("-o"), out});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.err.contains("--allow-unsafe-structure"));
    r = ts::test::runCli({QStringLiteral("convert"), dataFile(QStringLiteral("malformed/m_storage_long.pt")),
                          QStringLiteral("--allow-unsafe-structure"), QStringLiteral("-o"), out});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(QFileInfo::exists(out));
}

void TestPickleCli::readCommandsAcceptPickles()
{
    const QString views = dataFile(QStringLiteral("torch/zip_views.pt"));
    auto r = ts::test::runCli({QStringLiteral("info"), views});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("Tensors:     12"));
    r = ts::test::runCli({QStringLiteral("ls"), QStringLiteral("--json"),
                          dataFile(QStringLiteral("torch/torch_state_dict.bin"))});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("\"2.weight\""));
    // The transpose of 0..23 as a 4 x 6 matrix, gathered from its strides: min 0, max 23, mean 11.5.
    r = ts::test::runCli(
        {QStringLiteral("stats"), QStringLiteral("--json"), views, QStringLiteral("transposed")});
    QCOMPARE(r.exitCode, 0);
    const QJsonValue stats =
        QJsonDocument::fromJson(r.out).object().value(QStringLiteral("tensors")).toArray().at(0);
    QCOMPARE(stats.toObject().value(QStringLiteral("max")).toDouble(), 23.0);
    QCOMPARE(stats.toObject().value(QStringLiteral("mean")).toDouble(), 11.5);
    r = ts::test::runCli({QStringLiteral("scan"), dataFile(QStringLiteral("emulated/e_big_endian.pt"))});
    QCOMPARE(r.exitCode, 0);
    r = ts::test::runCli({QStringLiteral("scan"), QStringLiteral("--nan-inf-only"),
                          dataFile(QStringLiteral("torch/legacy_dtypes.pt"))});
    QCOMPARE(r.exitCode, 0);
}

QTEST_GUILESS_MAIN(TestPickleCli)
#include "tst_pickle_cli.moc"
