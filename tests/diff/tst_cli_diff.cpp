// tensorscope-cli diff end to end: exit 0 when identical, 1 when they differ, 2 on error; the
// text report names the changed tensor and where; --json lists pairs, metrics and metadata
// changes; --rename and --rename-file pair renamed tensors; --rank reports a rank-4 update.

#include "ChildProcess.h"
#include "DiffTestFiles.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace ts;
using namespace ts::difftest;
using ts::test::runCli;

namespace {

const QString kLandmarks = QStringLiteral("face_landmark_68_f32.safetensors");

} // namespace

class TestCliDiff : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        REQUIRE_DIFF_FIXTURE(fixture(kLandmarks));
        m_a = fixture(kLandmarks);
        m_copy = m_dir.filePath(QStringLiteral("copy.safetensors"));
        QVERIFY(QFile::copy(m_a, m_copy));
        m_changed = m_dir.filePath(QStringLiteral("changed.safetensors"));
        QVERIFY(rewrite(m_a, m_changed,
                        [](QString& name, Dtype&, std::vector<std::uint64_t>&, QByteArray& bytes) {
                            if (name == QLatin1String("fc.weights")) {
                                std::vector<float> v = floats(bytes);
                                v[3 * 136 + 17] -= 0.5f;
                                bytes = floatBytes(v);
                            }
                            if (name.startsWith(QLatin1String("dense3.")))
                                name = QStringLiteral("block3.") + name.mid(7);
                        }));
    }

    void identicalExitsZero()
    {
        const auto r = ts::test::runCli({QStringLiteral("diff"), m_a, m_copy});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("A and B are identical."), r.out.constData());
        QVERIFY(r.out.contains("49 pairs: 49 identical, 0 changed"));
    }

    void differingExitsOneAndSaysWhere()
    {
        const auto r = ts::test::runCli({QStringLiteral("diff"), m_a, m_changed});
        QCOMPARE(r.exitCode, 1);
        const QString text = QString::fromUtf8(r.out);
        QVERIFY2(text.contains(QStringLiteral("Changed (1, most changed first):")), r.out.constData());
        const QString row = text.section(QLatin1Char('\n'), 5, 5);
        QVERIFY2(row.startsWith(QStringLiteral("fc.weights")) && row.contains(QStringLiteral("[3, 17]")) &&
                     row.contains(QStringLiteral("sparse (1 value)")),
                 qPrintable(row));
        // The renamed block pairs by content (identical bytes), and is listed as such.
        QVERIFY(text.contains(
            QStringLiteral("dense3.conv0.bias -> block3.conv0.bias  (suggested: the same content)")));
        QVERIFY(text.contains(QStringLiteral("A and B differ.")));
    }

    void renameRulesPairByName()
    {
        const auto r = ts::test::runCli({QStringLiteral("diff"), m_a, m_changed, QStringLiteral("--rename"),
                                         QStringLiteral("^dense3\\.=block3."), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject json = QJsonDocument::fromJson(r.out).object();
        const QJsonObject summary = json.value(QStringLiteral("summary")).toObject();
        QCOMPARE(summary.value(QStringLiteral("renamed")).toInt(), 12);
        QCOMPARE(summary.value(QStringLiteral("suggested")).toInt(), 0);
        QCOMPARE(summary.value(QStringLiteral("changed")).toInt(), 1);
        QCOMPARE(json.value(QStringLiteral("rename_rules")).toArray(),
                 QJsonArray{QStringLiteral("^dense3\\.=block3.")});
        // The same from a file.
        QFile rules(m_dir.filePath(QStringLiteral("rules.txt")));
        QVERIFY(rules.open(QIODevice::WriteOnly));
        rules.write("^dense3\\.=block3.\n");
        rules.close();
        const auto fromFile =
            ts::test::runCli({QStringLiteral("diff"), m_a, m_changed, QStringLiteral("--rename-file"),
                              rules.fileName(), QStringLiteral("--json")});
        QCOMPARE(QJsonDocument::fromJson(fromFile.out)
                     .object()
                     .value(QStringLiteral("summary"))
                     .toObject()
                     .value(QStringLiteral("renamed"))
                     .toInt(),
                 12);
    }

    void jsonListsPairsMetricsAndMetadata()
    {
        const auto r = ts::test::runCli({QStringLiteral("diff"), m_a, m_changed, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1);
        QJsonParseError error;
        const QJsonObject json = QJsonDocument::fromJson(r.out, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QCOMPARE(json.value(QStringLiteral("identical")).toBool(true), false);
        QCOMPARE(json.value(QStringLiteral("a")).toString(), m_a);
        const QJsonArray pairs = json.value(QStringLiteral("pairs")).toArray();
        QCOMPARE(pairs.size(), 49);
        QJsonObject fc;
        for (const QJsonValue& v : pairs) {
            if (v.toObject().value(QStringLiteral("a")).toString() == QLatin1String("fc.weights"))
                fc = v.toObject();
        }
        QCOMPARE(fc.value(QStringLiteral("kind")).toString(), QStringLiteral("sparse"));
        QCOMPARE(fc.value(QStringLiteral("paired_by")).toString(), QStringLiteral("name"));
        const QJsonObject m = fc.value(QStringLiteral("metrics")).toObject();
        QCOMPARE(m.value(QStringLiteral("max_abs_index_at")).toArray(), (QJsonArray{3, 17}));
        QVERIFY(std::fabs(m.value(QStringLiteral("max_abs_diff")).toDouble() - 0.5) < 1e-6);
        QCOMPARE(m.value(QStringLiteral("changed")).toInt(), 1);
        QVERIFY(json.value(QStringLiteral("metadata")).toArray().isEmpty());
        QVERIFY(json.value(QStringLiteral("added")).toArray().isEmpty());
        QVERIFY(json.contains(QStringLiteral("notes")));
    }

    void rankReportsTheUpdate()
    {
        constexpr std::size_t rows = 256, cols = 512;
        const std::vector<float> w = gaussian(rows * cols, 0.02f, 1);
        const std::vector<float> u = gaussian(rows * 4, 0.1f, 2), v = gaussian(4 * cols, 0.1f, 3);
        std::vector<float> merged = w;
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = 0; j < cols; ++j)
                for (std::size_t k = 0; k < 4; ++k)
                    merged[i * cols + j] += u[i * 4 + k] * v[k * cols + j];
        const QString base = m_dir.filePath(QStringLiteral("base.safetensors"));
        const QString lora = m_dir.filePath(QStringLiteral("lora.safetensors"));
        QVERIFY(writeMatrices(base, {{QStringLiteral("q_proj.weight"), w}}, rows, cols));
        QVERIFY(writeMatrices(lora, {{QStringLiteral("q_proj.weight"), merged}}, rows, cols));
        const auto r = ts::test::runCli({QStringLiteral("diff"), base, lora, QStringLiteral("--rank")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("rank 4"), r.out.constData());
        const auto json = ts::test::runCli(
            {QStringLiteral("diff"), base, lora, QStringLiteral("--rank"), QStringLiteral("--json")});
        const QJsonObject p =
            QJsonDocument::fromJson(json.out).object().value(QStringLiteral("pairs")).toArray()[0].toObject();
        QCOMPARE(p.value(QStringLiteral("kind")).toString(), QStringLiteral("low-rank"));
        QCOMPARE(p.value(QStringLiteral("rank")).toObject().value(QStringLiteral("rank")).toInt(), 4);
    }

    void errorsExitTwo()
    {
        // A file that cannot be read, an invalid file (exit 1 elsewhere, 2 here: 1 means "differ"),
        // a bad rule, one argument.
        const auto missing = ts::test::runCli(
            {QStringLiteral("diff"), m_a, m_dir.filePath(QStringLiteral("none.safetensors"))});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(!missing.err.isEmpty());
        QFile bad(m_dir.filePath(QStringLiteral("bad.safetensors")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(QByteArray("\x05\x00\x00\x00\x00\x00\x00\x00[]   ", 13)); // a header that is no object
        bad.close();
        const auto invalid = ts::test::runCli({QStringLiteral("diff"), m_a, bad.fileName()});
        QCOMPARE(invalid.exitCode, 2);
        QVERIFY(invalid.err.contains("bad.safetensors"));
        const auto rule = ts::test::runCli(
            {QStringLiteral("diff"), m_a, m_copy, QStringLiteral("--rename"), QStringLiteral("(=x")});
        QCOMPARE(rule.exitCode, 2);
        QVERIFY2(rule.err.contains("not a valid regular expression"), rule.err.constData());
        QCOMPARE(ts::test::runCli({QStringLiteral("diff"), m_a}).exitCode, 2);
    }

    void nothingInCommonIsASentence()
    {
        const auto r = ts::test::runCli({QStringLiteral("diff"), m_a,
                                         fixture(QStringLiteral("tiny_face_detector_u8.safetensors")),
                                         QStringLiteral("--no-suggest")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("Note: A and B have no tensor in common"), r.out.constData());
        QVERIFY(r.out.contains("Removed, only in A (49):"));
    }

private:
    QTemporaryDir m_dir;
    QString m_a, m_copy, m_changed;
};

QTEST_GUILESS_MAIN(TestCliDiff)
#include "tst_cli_diff.moc"
