// Findings beyond one tensor's statistics: LayerOutlier (a block against its siblings),
// DuplicateTensor and DeadRows, on
// Llama-shaped models written here with one planted anomaly each, and silence on the real
// fixtures.
#include "AnalysisTestUtil.h"

#include "analysis/DuplicateFindings.h"
#include "analysis/LayerScoreTable.h"
#include "analysis/ModelScanner.h"
#include "checkpoint/Checkpoint.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <functional>
#include <random>

using namespace ts;

namespace {

constexpr int kLayers = 16;
constexpr std::uint64_t kHidden = 256; // SiblingScores::kMinElements: norm vectors qualify
constexpr std::uint64_t kInter = 320;
constexpr std::uint64_t kVocab = 512;

struct Planted {
    std::function<float(const QString& name, std::uint64_t index, float value)> edit =
        [](const QString&, std::uint64_t, float v) { return v; };
    bool tieHead = false;   // lm_head holds embed_tokens' bytes
    QString copyOf, copyTo; // copyTo holds copyOf's bytes
};

// Weights as trained models have them: a spread that drifts smoothly with depth (1.5x from the
// first block to the last) and differs between projections; norm weights around 1.
QString writeLlama(const QString& dir, const Planted& planted)
{
    std::mt19937 rng(7);
    std::normal_distribution<float> unit(0.0f, 1.0f);
    std::vector<WriterTensor> tensors;
    std::map<QString, QByteArray> written;
    auto add = [&](const QString& name, std::vector<std::uint64_t> shape, float sigma, float mean) {
        std::uint64_t n = 1;
        for (auto d : shape)
            n *= d;
        std::vector<float> values(n);
        for (std::uint64_t i = 0; i < n; ++i)
            values[i] = planted.edit(name, i, mean + sigma * unit(rng));
        QByteArray bytes = test::bytesOf(values);
        written[name] = bytes;
        tensors.push_back(test::memoryTensor(name, Dtype::F32, std::move(shape), bytes));
    };
    add(QStringLiteral("model.embed_tokens.weight"), {kVocab, kHidden}, 0.02f, 0);
    for (int l = 0; l < kLayers; ++l) {
        const float depth = 1.0f + 0.5f * static_cast<float>(l) / kLayers;
        const QString p = QStringLiteral("model.layers.%1.").arg(l);
        add(p + QStringLiteral("input_layernorm.weight"), {kHidden}, 0.05f * depth, 1.0f);
        add(p + QStringLiteral("self_attn.q_proj.weight"), {kHidden, kHidden}, 0.02f * depth, 0);
        add(p + QStringLiteral("self_attn.k_proj.weight"), {kHidden / 4, kHidden}, 0.03f * depth, 0);
        add(p + QStringLiteral("self_attn.v_proj.weight"), {kHidden / 4, kHidden}, 0.01f * depth, 0);
        add(p + QStringLiteral("self_attn.o_proj.weight"), {kHidden, kHidden}, 0.015f * depth, 0);
        add(p + QStringLiteral("post_attention_layernorm.weight"), {kHidden}, 0.04f * depth, 0.9f);
        add(p + QStringLiteral("mlp.gate_proj.weight"), {kInter, kHidden}, 0.02f * depth, 0);
        add(p + QStringLiteral("mlp.up_proj.weight"), {kInter, kHidden}, 0.02f * depth, 0);
        add(p + QStringLiteral("mlp.down_proj.weight"), {kHidden, kInter}, 0.012f * depth, 0);
    }
    add(QStringLiteral("model.norm.weight"), {kHidden}, 0.05f, 1.0f);
    add(QStringLiteral("lm_head.weight"), {kVocab, kHidden}, 0.02f, 0);
    auto replaceBytes = [&](const QString& to, const QString& from) {
        for (WriterTensor& t : tensors) {
            if (t.name == to)
                t.data = test::memoryLocation(written.at(from));
        }
    };
    if (planted.tieHead)
        replaceBytes(QStringLiteral("lm_head.weight"), QStringLiteral("model.embed_tokens.weight"));
    if (!planted.copyTo.isEmpty())
        replaceBytes(planted.copyTo, planted.copyOf);
    const QString path = dir + QStringLiteral("/model.safetensors");
    auto ok = SafetensorsWriter::write(path, std::move(tensors), std::nullopt);
    if (!ok)
        qFatal("%s", qPrintable(ok.error().toString()));
    return path;
}

std::vector<Diagnostic> findings(const QString& path, const QString& code)
{
    auto model = Checkpoint::open(path);
    if (!model)
        qFatal("%s", qPrintable(model.error().toString()));
    auto result = ModelScanner(*model).run();
    if (!result)
        qFatal("%s", qPrintable(result.error().toString()));
    std::vector<Diagnostic> out;
    for (const Diagnostic& d : result->findings) {
        if (qEnvironmentVariableIsSet("TS_PRINT_FINDINGS"))
            qInfo("%s", qPrintable(d.code + QLatin1Char(' ') + d.message));
        if (d.code == code)
            out.push_back(d);
    }
    return out;
}

QStringList tensorsOf(const std::vector<Diagnostic>& list)
{
    QStringList names;
    for (const Diagnostic& d : list)
        names << d.tensor;
    names.sort();
    return names;
}

} // namespace

class TestLayerFindings : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void healthyModelHasNoCrossTensorFindings()
    {
        QTemporaryDir dir;
        const QString path = writeLlama(dir.path(), {});
        QCOMPARE(tensorsOf(findings(path, QStringLiteral("LayerOutlier"))), QStringList());
        QCOMPARE(tensorsOf(findings(path, QStringLiteral("DuplicateTensor"))), QStringList());
        QCOMPARE(tensorsOf(findings(path, QStringLiteral("DeadRows"))), QStringList());
    }

    void oneMatrixScaled100xIsTheOnlyLayerOutlier()
    {
        QTemporaryDir dir;
        Planted planted;
        const QString target = QStringLiteral("model.layers.14.mlp.down_proj.weight");
        planted.edit = [target](const QString& name, std::uint64_t, float v) {
            return name == target ? v * 100 : v;
        };
        const auto list = findings(writeLlama(dir.path(), planted), QStringLiteral("LayerOutlier"));
        QCOMPARE(tensorsOf(list), QStringList{target});
        const Diagnostic& d = list.front();
        QCOMPARE(d.severity, Severity::Warning);
        // "…: std 1.8 is 99.2x the median 0.0181 of the 16 blocks of model.layers.#.mlp.down_proj.weight."
        QVERIFY2(d.message.startsWith(target + QStringLiteral(": ")), qPrintable(d.message));
        QVERIFY2(d.message.contains(QStringLiteral("the 16 blocks of model.layers.#.mlp.down_proj.weight")),
                 qPrintable(d.message));
        const QString ratio = d.message.section(QStringLiteral(" is "), 1).section(QLatin1Char('x'), 0, 0);
        QVERIFY2(ratio.toDouble() > 60 && ratio.toDouble() < 160, qPrintable(d.message));
    }

    // The per-layer charts read LayerScoreTable: it marks exactly what the findings list, and its
    // scores say how far and in which direction.
    void scoreTableAgreesWithTheFindings()
    {
        QTemporaryDir dir;
        Planted planted;
        const QString up = QStringLiteral("model.layers.14.mlp.down_proj.weight");
        const QString down = QStringLiteral("model.layers.3.self_attn.q_proj.weight");
        planted.edit = [&](const QString& name, std::uint64_t, float v) {
            return name == up ? v * 100 : name == down ? v / 100 : v;
        };
        const QString path = writeLlama(dir.path(), planted);
        QStringList found = tensorsOf(findings(path, QStringLiteral("LayerOutlier")));
        QCOMPARE(found, (QStringList{up, down}));

        auto model = Checkpoint::open(path);
        QVERIFY(model);
        auto result = ModelScanner(*model).run();
        QVERIFY(result);
        std::vector<QString> names;
        std::vector<const TensorInfo*> infos;
        for (const TensorStats& t : result->tensors) {
            names.push_back(t.name);
            infos.push_back(&(*model)->tensors()[static_cast<std::size_t>((*model)->indexOf(t.name))].info);
        }
        const LayerScoreTable table(names, result->tensors, infos);
        QStringList marked;
        for (std::size_t f = 0; f < table.families().size(); ++f) {
            const LayerFamily& family = table.families()[f];
            const auto& byStd = table.scores(SiblingStatistic::Std, f);
            QCOMPARE(byStd.size(), family.members.size());
            for (std::size_t m = 0; m < family.members.size(); ++m) {
                const QString& name = table.name(family.members[m].tensor);
                if (table.isLayerOutlier(f, m))
                    marked << name;
                QCOMPARE(byStd[m].group, std::size_t{kLayers});
                if (name == up) {
                    QVERIFY2(byStd[m].z > SiblingScores::kRobustZ, qPrintable(QString::number(byStd[m].z)));
                    QVERIFY(byStd[m].value / byStd[m].median > 60);
                } else if (name == down) {
                    QVERIFY2(byStd[m].z < -SiblingScores::kRobustZ, qPrintable(QString::number(byStd[m].z)));
                } else {
                    QVERIFY2(std::fabs(byStd[m].z) < 5, qPrintable(name + QString::number(byStd[m].z)));
                }
            }
        }
        marked.sort();
        QCOMPARE(marked, found);
        QCOMPARE(table.blocks().size(), std::size_t{kLayers});
    }

    void wholeBlockScaledDownIsFlaggedTensorByTensor()
    {
        QTemporaryDir dir;
        Planted planted;
        planted.edit = [](const QString& name, std::uint64_t, float v) {
            return name.startsWith(QStringLiteral("model.layers.7.")) ? v * 0.01f : v;
        };
        const auto list = findings(writeLlama(dir.path(), planted), QStringLiteral("LayerOutlier"));
        QStringList expected;
        for (const char* t :
             {"input_layernorm.weight", "mlp.down_proj.weight", "mlp.gate_proj.weight", "mlp.up_proj.weight",
              "post_attention_layernorm.weight", "self_attn.k_proj.weight", "self_attn.o_proj.weight",
              "self_attn.q_proj.weight", "self_attn.v_proj.weight"})
            expected << QStringLiteral("model.layers.7.") + QLatin1String(t);
        QCOMPARE(tensorsOf(list), expected);
        for (const Diagnostic& d : list)
            QVERIFY2(d.message.contains(QStringLiteral(" is 1/")), qPrintable(d.message));
    }

    void tiedHeadIsInfoAndACopiedLayerIsAWarning()
    {
        QTemporaryDir dir;
        Planted planted;
        planted.tieHead = true;
        planted.copyOf = QStringLiteral("model.layers.3.self_attn.q_proj.weight");
        planted.copyTo = QStringLiteral("model.layers.4.self_attn.q_proj.weight");
        const auto list = findings(writeLlama(dir.path(), planted), QStringLiteral("DuplicateTensor"));
        QCOMPARE(list.size(), std::size_t(2));
        const Diagnostic& tied = list[0].severity == Severity::Info ? list[0] : list[1];
        const Diagnostic& copied = &tied == &list[0] ? list[1] : list[0];
        QCOMPARE(tied.severity, Severity::Info);
        QVERIFY2(
            tied.message.contains(QStringLiteral("\"lm_head.weight\" and \"model.embed_tokens.weight\"")),
            qPrintable(tied.message));
        QCOMPARE(copied.tensor, planted.copyOf);
        QCOMPARE(copied.severity, Severity::Warning);
        QVERIFY2(copied.message.contains(QLatin1Char('"') + planted.copyTo + QLatin1Char('"')),
                 qPrintable(copied.message));
    }

    void deadRowsAndColumnsAreCountedWithTheFirstIndex()
    {
        QTemporaryDir dir;
        Planted planted;
        const QString up = QStringLiteral("model.layers.5.mlp.up_proj.weight");     // [kInter, kHidden]
        const QString down = QStringLiteral("model.layers.9.mlp.down_proj.weight"); // [kHidden, kInter]
        planted.edit = [&](const QString& name, std::uint64_t i, float v) {
            if (name == up && (i / kHidden == 3 || i / kHidden == 100))
                return 0.0f;
            if (name == down && i % kInter == 7)
                return 0.0f;
            return v;
        };
        const QString path = writeLlama(dir.path(), planted);
        const auto list = findings(path, QStringLiteral("DeadRows"));
        QCOMPARE(tensorsOf(list), (QStringList{up, down}));
        for (const Diagnostic& d : list) {
            if (d.tensor == up) {
                QCOMPARE(d.message,
                         QStringLiteral("Tensor \"%1\" has 2 all-zero rows of 320 (first: row 3).").arg(up));
                auto model = Checkpoint::open(path);
                QVERIFY(model);
                const std::uint64_t base = (*model)->location((*model)->indexOf(up)).offset;
                QCOMPARE(d.offset, std::optional<std::uint64_t>(base + 3 * kHidden * 4));
            } else {
                QCOMPARE(d.message,
                         QStringLiteral("Tensor \"%1\" has 1 all-zero column of 320 (first: column 7).")
                             .arg(down));
            }
        }
        // Zeroed lines shift no statistic far enough to make a LayerOutlier.
        QCOMPARE(tensorsOf(findings(path, QStringLiteral("LayerOutlier"))), QStringList());
    }

    void knownTyingNames()
    {
        QVERIFY(DuplicateFindings::isKnownTying(
            {QStringLiteral("lm_head.weight"), QStringLiteral("model.embed_tokens.weight")}));
        QVERIFY(DuplicateFindings::isKnownTying(
            {QStringLiteral("transformer.wte.weight"), QStringLiteral("lm_head.weight")}));
        QVERIFY(DuplicateFindings::isKnownTying({QStringLiteral("shared.weight"),
                                                 QStringLiteral("encoder.embed_tokens.weight"),
                                                 QStringLiteral("decoder.embed_tokens.weight")}));
        QVERIFY(!DuplicateFindings::isKnownTying(
            {QStringLiteral("lm_head.weight"), QStringLiteral("model.layers.0.mlp.up_proj.weight")}));
        QVERIFY(!DuplicateFindings::isKnownTying(
            {QStringLiteral("my_lm_head.weight.bak"), QStringLiteral("embed_tokens.weight")}));
    }

    void realFixturesHaveNoCrossTensorFindings_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* n : {"age_gender_anomalies_f32.safetensors", "face_landmark_68_f32.safetensors",
                              "face_recognition_f16.safetensors", "ssd_mobilenetv1_bf16.safetensors",
                              "tiny_face_detector_u8.safetensors", "face_recognition_sharded"})
            QTest::newRow(n) << QString::fromLatin1(n);
    }

    void realFixturesHaveNoCrossTensorFindings()
    {
        QFETCH(QString, name);
        const QString path = test::realFixture(name);
        TS_REQUIRE_FIXTURE(path);
        QCOMPARE(tensorsOf(findings(path, QStringLiteral("LayerOutlier"))), QStringList());
        QCOMPARE(tensorsOf(findings(path, QStringLiteral("DuplicateTensor"))), QStringList());
        QCOMPARE(tensorsOf(findings(path, QStringLiteral("DeadRows"))), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestLayerFindings)
#include "tst_layer_findings.moc"
