// The comparison engine (core/diff) on real fixtures with planted changes: identical copies, one
// changed element found with its index, a rank-4 update reported as rank 4, BF16 round trips
// reported as rounding noise and nothing else, renames by rule, by content and by shape, sharded
// against single-file, mismatched shapes, two models with nothing in common, a file truncated
// mid-compare, cancel, and the same numbers whatever the thread count.

#include "DiffTestFiles.h"
#include "diff/CheckpointDiff.h"
#include "diff/DiffJson.h"
#include "diff/FlatIndex.h"
#include "diff/LowRankEstimator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>
#include <map>

using namespace ts;
using namespace ts::diff;
using namespace ts::difftest;

namespace {

const QString kLandmarks = QStringLiteral("face_landmark_68_f32.safetensors");
const QString kSharded = QStringLiteral("face_recognition_sharded");
const QString kF16 = QStringLiteral("face_recognition_f16.safetensors");

Result<DiffReport> compare(const QString& a, const QString& b, DiffOptions options = {})
{
    auto ca = open(a);
    auto cb = open(b);
    if (!ca || !cb)
        return makeError(ErrorCode::IoError, a, QStringLiteral("cannot open the inputs"));
    CheckpointDiff diff(ca, cb, std::move(options));
    return diff.run();
}

const TensorPair* pairNamed(const DiffReport& r, const QString& name)
{
    for (const TensorPair& p : r.pairs) {
        if (r.infoA(p).name == name)
            return &p;
    }
    return nullptr;
}

QString describe(const DiffReport& r)
{
    QStringList lines;
    for (const TensorPair& p : r.pairs)
        lines << QStringLiteral("%1 -> %2 [%3, %4] %5")
                     .arg(r.infoA(p).name, r.infoB(p).name, pairStatusName(p.status),
                          changeKindName(p.verdict.kind), p.verdict.text);
    return lines.join(QLatin1Char('\n'));
}

// Orthonormal columns (Gram-Schmidt) of a Gaussian rows x cols matrix, column-major.
std::vector<double> orthonormal(std::size_t rows, std::size_t cols, std::uint64_t seed)
{
    const std::vector<float> g = gaussian(rows * cols, 1, seed);
    std::vector<double> q(g.begin(), g.end());
    for (std::size_t j = 0; j < cols; ++j) {
        double* c = q.data() + j * rows;
        for (int pass = 0; pass < 2; ++pass) {
            for (std::size_t k = 0; k < j; ++k) {
                const double* o = q.data() + k * rows;
                double dot = 0;
                for (std::size_t i = 0; i < rows; ++i)
                    dot += c[i] * o[i];
                for (std::size_t i = 0; i < rows; ++i)
                    c[i] -= dot * o[i];
            }
        }
        double norm = 0;
        for (std::size_t i = 0; i < rows; ++i)
            norm += c[i] * c[i];
        norm = std::sqrt(norm);
        for (std::size_t i = 0; i < rows; ++i)
            c[i] /= norm;
    }
    return q;
}

} // namespace

class TestDiffEngine : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void identicalCopyIsIdentical();
    void oneChangedElementIsFoundWithItsIndex();
    void oneValueOfASmallBiasIsASparseEdit();
    void rankFourUpdateIsRankFour();
    void noiseAndFullRankChangesAreToldApart();
    void bf16RoundTripIsRoundingEverywhere();
    void renamesByRuleContentAndShape();
    void renameFileOfExactNamesAndRules();
    void shardedAgainstSingleFile();
    void shapesThatDoNotMatch();
    void nothingInCommonIsSaid();
    void metadataChangesAreListed();
    void nanIntroducedIsCounted();
    void truncatedMidCompareIsAnError();
    void cancelStopsEveryPhase();
    void threadCountDoesNotChangeTheNumbers();
    void reportJsonHasPairsMetricsAndMetadata();

private:
    QString path(const QString& name) const { return m_dir.filePath(name); }
    QTemporaryDir m_dir;
};

void TestDiffEngine::initTestCase()
{
    QVERIFY(m_dir.isValid());
    REQUIRE_DIFF_FIXTURE(fixture(kLandmarks));
    REQUIRE_DIFF_FIXTURE(fixture(kSharded));
    REQUIRE_DIFF_FIXTURE(fixture(kF16));
}

void TestDiffEngine::identicalCopyIsIdentical()
{
    QVERIFY(QFile::copy(fixture(kLandmarks), path(QStringLiteral("copy.safetensors"))));
    Result<DiffReport> r = compare(fixture(kLandmarks), path(QStringLiteral("copy.safetensors")));
    QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
    QVERIFY(r->identical());
    QCOMPARE(r->pairs.size(), open(fixture(kLandmarks))->tensors().size());
    for (const TensorPair& p : r->pairs) {
        QCOMPARE(p.status, PairStatus::Identical);
        QVERIFY(!p.metrics); // the numeric pass skipped it
    }
    // Identical detection reads both files once, decodes nothing.
    QCOMPARE(r->bytesRead, 2 * open(fixture(kLandmarks))->totalTensorBytes());
}

void TestDiffEngine::oneChangedElementIsFoundWithItsIndex()
{
    // One element of one 4-D tensor changes; its index must come back, and nothing else may.
    const QString target = QStringLiteral("dense3.conv3.pointwise_filter");
    std::vector<std::uint64_t> shape;
    std::uint64_t planted = 0;
    QVERIFY(rewrite(fixture(kLandmarks), path(QStringLiteral("one.safetensors")),
                    [&](QString& name, Dtype&, std::vector<std::uint64_t>& s, QByteArray& bytes) {
                        if (name != target)
                            return;
                        shape = s;
                        std::vector<float> v = floats(bytes);
                        planted = v.size() - 7;
                        v[planted] += 0.25f;
                        bytes = floatBytes(v);
                    }));
    QVERIFY(!shape.empty());
    Result<DiffReport> r = compare(fixture(kLandmarks), path(QStringLiteral("one.safetensors")));
    QVERIFY(r);
    QVERIFY(!r->identical());
    const DiffReport::Counts c = r->counts();
    QCOMPARE(c.changed, 1);
    QCOMPARE(c.identical, static_cast<int>(r->pairs.size()) - 1);
    const TensorPair* p = pairNamed(*r, target);
    QVERIFY(p && p->metrics);
    QCOMPARE(p->status, PairStatus::Changed);
    QCOMPARE(p->metrics->changed, std::uint64_t(1));
    QCOMPARE(p->metrics->maxAbsIndex, std::optional<std::uint64_t>(planted));
    QVERIFY(std::fabs(p->metrics->maxAbsDiff - 0.25) < 1e-6);
    QCOMPARE(p->metrics->bAtMax - p->metrics->aAtMax, p->metrics->maxAbsDiff);
    QCOMPARE(p->verdict.kind, ChangeKind::Sparse);
    // The index as a user reads it: the last dimensions count fastest.
    const std::vector<std::uint64_t> at = unflattenIndex(shape, planted);
    std::uint64_t flat = 0;
    for (std::size_t k = 0; k < shape.size(); ++k)
        flat = flat * shape[k] + at[k];
    QCOMPARE(flat, planted);
    QCOMPARE(at.back(), shape.back() - 7);
}

void TestDiffEngine::oneValueOfASmallBiasIsASparseEdit()
{
    // One value of a 64-element bias is 1.6% of it, yet an edit of one value, not a dense change.
    const QString target = QStringLiteral("dense1.conv2.bias");
    QVERIFY(rewrite(fixture(kLandmarks), path(QStringLiteral("bias.safetensors")),
                    [&](QString& name, Dtype&, std::vector<std::uint64_t>&, QByteArray& bytes) {
                        if (name != target)
                            return;
                        std::vector<float> v = floats(bytes);
                        QCOMPARE(v.size(), std::size_t(64));
                        v[17] += 0.5f;
                        bytes = floatBytes(v);
                    }));
    Result<DiffReport> r = compare(fixture(kLandmarks), path(QStringLiteral("bias.safetensors")));
    QVERIFY(r);
    const TensorPair* p = pairNamed(*r, target);
    QVERIFY(p && p->metrics);
    QCOMPARE(p->metrics->changed, std::uint64_t(1));
    QCOMPARE(p->metrics->maxAbsIndex, std::optional<std::uint64_t>(17));
    QCOMPARE(p->verdict.kind, ChangeKind::Sparse);
    QVERIFY2(p->verdict.text.startsWith(QStringLiteral("sparse edit: 1 of 64 values changed")),
             qPrintable(p->verdict.text));
}

void TestDiffEngine::rankFourUpdateIsRankFour()
{
    constexpr std::size_t rows = 256, cols = 512, rank = 4;
    const std::vector<float> w = gaussian(rows * cols, 0.02f, 1);
    const std::vector<float> u = gaussian(rows * rank, 0.1f, 2);
    const std::vector<float> v = gaussian(rank * cols, 0.1f, 3);
    std::vector<float> merged = w;
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j)
            for (std::size_t k = 0; k < rank; ++k)
                merged[i * cols + j] += u[i * rank + k] * v[k * cols + j];
    QVERIFY(writeMatrices(path(QStringLiteral("base.safetensors")), {{QStringLiteral("w"), w}}, rows, cols));
    QVERIFY(
        writeMatrices(path(QStringLiteral("lora.safetensors")), {{QStringLiteral("w"), merged}}, rows, cols));
    DiffOptions options;
    options.rank = true;
    Result<DiffReport> r =
        compare(path(QStringLiteral("base.safetensors")), path(QStringLiteral("lora.safetensors")), options);
    QVERIFY(r);
    const TensorPair& p = r->pairs.front();
    QVERIFY2(p.rank, qPrintable(p.rankNote));
    QCOMPARE(p.rank->rank, 4);
    QVERIFY(!p.rank->lowerBound);
    QVERIFY2(p.rank->captured > 0.999999, qPrintable(QString::number(p.rank->captured)));
    QCOMPARE(p.verdict.kind, ChangeKind::LowRank);
    QVERIFY2(p.verdict.text.startsWith(QStringLiteral("rank-4 update")), qPrintable(p.verdict.text));
    // Without --rank the same change is only "dense": the rank is what tells.
    Result<DiffReport> plain =
        compare(path(QStringLiteral("base.safetensors")), path(QStringLiteral("lora.safetensors")));
    QVERIFY(plain);
    QCOMPARE(plain->pairs.front().verdict.kind, ChangeKind::Dense);
    QVERIFY(!plain->pairs.front().rank);
}

void TestDiffEngine::noiseAndFullRankChangesAreToldApart()
{
    constexpr std::size_t rows = 256, cols = 512;
    const std::vector<float> w = gaussian(rows * cols, 0.02f, 11);
    // Per-row int8 quantization and back: uniform small noise, no direction stands out.
    std::vector<float> quantized = w;
    for (std::size_t i = 0; i < rows; ++i) {
        float absmax = 0;
        for (std::size_t j = 0; j < cols; ++j)
            absmax = std::max(absmax, std::fabs(w[i * cols + j]));
        const float scale = absmax / 127;
        for (std::size_t j = 0; j < cols; ++j)
            quantized[i * cols + j] = std::nearbyint(w[i * cols + j] / scale) * scale;
    }
    // A full fine-tune: an update over every direction with a heavy-tailed spectrum (a power law,
    // as the spectra of trained weights and their updates are), with no drop anywhere.
    const std::vector<double> uq = orthonormal(rows, rows, 12), vq = orthonormal(cols, rows, 13);
    std::vector<float> tuned = w;
    for (std::size_t k = 0; k < rows; ++k) {
        const double s = 0.05 / std::sqrt(1 + static_cast<double>(k));
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = 0; j < cols; ++j)
                tuned[i * cols + j] += static_cast<float>(s * uq[k * rows + i] * vq[k * cols + j]);
    }
    QVERIFY(writeMatrices(path(QStringLiteral("w.safetensors")),
                          {{QStringLiteral("q"), w}, {QStringLiteral("t"), w}}, rows, cols));
    QVERIFY(writeMatrices(path(QStringLiteral("w2.safetensors")),
                          {{QStringLiteral("q"), quantized}, {QStringLiteral("t"), tuned}}, rows, cols));
    DiffOptions options;
    options.rank = true;
    Result<DiffReport> r =
        compare(path(QStringLiteral("w.safetensors")), path(QStringLiteral("w2.safetensors")), options);
    QVERIFY(r);
    const TensorPair* q = pairNamed(*r, QStringLiteral("q"));
    const TensorPair* t = pairNamed(*r, QStringLiteral("t"));
    QVERIFY(q && q->rank && t && t->rank);
    QVERIFY2(q->verdict.kind == ChangeKind::NoiseLike, qPrintable(describe(*r)));
    QCOMPARE(q->rank->rank, 0);
    QVERIFY2(t->verdict.kind == ChangeKind::FullRank, qPrintable(describe(*r)));
    QVERIFY(t->rank->aboveNoise >= 1);
    QVERIFY(t->rank->gap < LowRankEstimator::kGap);
}

void TestDiffEngine::bf16RoundTripIsRoundingEverywhere()
{
    // F32 -> BF16 by the converter, and back to F32: every tensor must read as rounding to 7
    // significand bits, and there must be nothing else (no other kind, no added or removed tensor).
    QVERIFY(convert(fixture(kLandmarks), path(QStringLiteral("bf16.safetensors")), Dtype::BF16));
    QVERIFY(convert(path(QStringLiteral("bf16.safetensors")), path(QStringLiteral("trip.safetensors")),
                    Dtype::F32));
    for (const QString& other : {QStringLiteral("bf16.safetensors"), QStringLiteral("trip.safetensors")}) {
        DiffOptions options;
        options.rank = true; // asked for, and skipped: rounding explains the change already
        Result<DiffReport> r = compare(fixture(kLandmarks), path(other), options);
        QVERIFY(r);
        QVERIFY(r->added.empty() && r->removed.empty());
        QVERIFY(r->metadata.empty());
        QCOMPARE(r->pairs.size(), open(fixture(kLandmarks))->tensors().size());
        for (const TensorPair& p : r->pairs) {
            QVERIFY2(p.status == PairStatus::Changed && p.verdict.kind == ChangeKind::Rounding,
                     qPrintable(other + QStringLiteral(": ") + describe(*r)));
            QCOMPARE(p.verdict.roundingBits, 7);
            QCOMPARE(p.by, PairedBy::Name);
            QVERIFY(!p.rank);
            QVERIFY(p.metrics->maxRelative <= 0x1p-8);
            QVERIFY(p.metrics->cosine() > 0.9999);
        }
        QCOMPARE(r->counts().byKind[static_cast<int>(ChangeKind::Rounding)],
                 static_cast<int>(r->pairs.size()));
    }
    // A real fine-tune-sized change is not rounding: 1% noise on one tensor of the round trip.
    QVERIFY(rewrite(path(QStringLiteral("trip.safetensors")), path(QStringLiteral("tuned.safetensors")),
                    [](QString& name, Dtype&, std::vector<std::uint64_t>&, QByteArray& bytes) {
                        if (name != QLatin1String("dense3.conv3.pointwise_filter"))
                            return;
                        std::vector<float> v = floats(bytes);
                        const std::vector<float> g = gaussian(v.size(), 0.01f, 5);
                        for (std::size_t i = 0; i < v.size(); ++i)
                            v[i] += g[i] * std::fabs(v[i]) + 1e-4f * g[(i + 1) % v.size()];
                        bytes = floatBytes(v);
                    }));
    Result<DiffReport> r = compare(fixture(kLandmarks), path(QStringLiteral("tuned.safetensors")));
    QVERIFY(r);
    QCOMPARE(pairNamed(*r, QStringLiteral("dense3.conv3.pointwise_filter"))->verdict.kind, ChangeKind::Dense);
}

void TestDiffEngine::renamesByRuleContentAndShape()
{
    // Every tensor gets a "model." prefix; one of them also changes its values.
    QVERIFY(rewrite(fixture(kLandmarks), path(QStringLiteral("renamed.safetensors")),
                    [](QString& name, Dtype&, std::vector<std::uint64_t>&, QByteArray& bytes) {
                        if (name == QLatin1String("fc.weights")) {
                            std::vector<float> v = floats(bytes);
                            for (float& x : v)
                                x *= 1.5f;
                            bytes = floatBytes(v);
                        }
                        name = QStringLiteral("model.") + name;
                    }));
    // No rule: identical tensors pair by their content hash, the changed one by its shape.
    Result<DiffReport> bySuggestion =
        compare(fixture(kLandmarks), path(QStringLiteral("renamed.safetensors")));
    QVERIFY(bySuggestion);
    QVERIFY(bySuggestion->added.empty() && bySuggestion->removed.empty());
    const TensorPair* fc = pairNamed(*bySuggestion, QStringLiteral("fc.weights"));
    QVERIFY(fc);
    QCOMPARE(fc->by, PairedBy::Shape);
    QCOMPARE(bySuggestion->infoB(*fc).name, QStringLiteral("model.fc.weights"));
    QCOMPARE(fc->verdict.kind, ChangeKind::Scaled);
    QVERIFY(std::fabs(fc->verdict.scale - 1.5) < 1e-6);
    for (const TensorPair& p : bySuggestion->pairs) {
        QCOMPARE(bySuggestion->infoB(p).name, QStringLiteral("model.") + bySuggestion->infoA(p).name);
        if (&p != fc)
            QCOMPARE(p.by, PairedBy::Content);
    }
    QVERIFY(!bySuggestion->notes.isEmpty()); // "share no tensor name"
    // With the rule every pair is by rule, none a suggestion.
    DiffOptions options;
    QVERIFY(options.rename.addAssignment(QStringLiteral("^(.*)$=model.\\1")));
    Result<DiffReport> byRule =
        compare(fixture(kLandmarks), path(QStringLiteral("renamed.safetensors")), options);
    QVERIFY(byRule);
    for (const TensorPair& p : byRule->pairs)
        QCOMPARE(p.by, PairedBy::Rule);
    QCOMPARE(byRule->counts().renamed, static_cast<int>(byRule->pairs.size()));
    QCOMPARE(byRule->counts().changed, 1);
    QVERIFY(byRule->notes.isEmpty());
    QVERIFY(!byRule->identical());
    // Without suggestions what no name pairs is removed and added.
    DiffOptions none;
    none.suggest = false;
    Result<DiffReport> unpaired =
        compare(fixture(kLandmarks), path(QStringLiteral("renamed.safetensors")), none);
    QVERIFY(unpaired);
    QVERIFY(unpaired->pairs.empty());
    QCOMPARE(unpaired->removed.size(), open(fixture(kLandmarks))->tensors().size());
    QCOMPARE(unpaired->added.size(), unpaired->removed.size());
}

void TestDiffEngine::renameFileOfExactNamesAndRules()
{
    QVERIFY(rewrite(fixture(kLandmarks), path(QStringLiteral("exact.safetensors")),
                    [](QString& name, Dtype&, std::vector<std::uint64_t>&, QByteArray&) {
                        if (name == QLatin1String("fc.bias"))
                            name = QStringLiteral("head.b");
                        else if (name.startsWith(QLatin1String("dense0.")))
                            name = QStringLiteral("stem.") + name.mid(7);
                    }));
    QFile json(path(QStringLiteral("names.json")));
    QVERIFY(json.open(QIODevice::WriteOnly));
    json.write(R"({"fc.bias": "head.b"})");
    json.close();
    QFile rules(path(QStringLiteral("rules.txt")));
    QVERIFY(rules.open(QIODevice::WriteOnly));
    rules.write("# dense0 is called stem in B\n\n^dense0\\.=stem.\n");
    rules.close();
    DiffOptions options;
    options.suggest = false;
    QVERIFY(options.rename.addFile(path(QStringLiteral("names.json"))));
    QVERIFY(options.rename.addFile(path(QStringLiteral("rules.txt"))));
    Result<DiffReport> r = compare(fixture(kLandmarks), path(QStringLiteral("exact.safetensors")), options);
    QVERIFY(r);
    QVERIFY(r->added.empty() && r->removed.empty());
    QCOMPARE(pairNamed(*r, QStringLiteral("fc.bias"))->by, PairedBy::Rule);
    QCOMPARE(r->infoB(*pairNamed(*r, QStringLiteral("fc.bias"))).name, QStringLiteral("head.b"));
    QCOMPARE(r->infoB(*pairNamed(*r, QStringLiteral("dense0.conv0.filters"))).name,
             QStringLiteral("stem.conv0.filters"));
    QCOMPARE(r->counts().identical, static_cast<int>(r->pairs.size()));
    // Bad rules are refused with a sentence.
    RenameRules bad;
    const Result<void> noEquals = bad.addAssignment(QStringLiteral("nothing"));
    QVERIFY(!noEquals && noEquals.error().message.contains(QStringLiteral("REGEX=REPLACEMENT")));
    const Result<void> badRegex = bad.addAssignment(QStringLiteral("(unclosed=x"));
    QVERIFY(!badRegex && badRegex.error().message.contains(QStringLiteral("not a valid regular expression")));
    QVERIFY(!bad.addFile(path(QStringLiteral("missing.txt"))));
}

void TestDiffEngine::shardedAgainstSingleFile()
{
    // The two shards merged into one file by the converter: the same model, read through the
    // container seam on both sides.
    QVERIFY(convert(fixture(kSharded), path(QStringLiteral("merged.safetensors")), std::nullopt));
    Result<DiffReport> same = compare(fixture(kSharded), path(QStringLiteral("merged.safetensors")));
    QVERIFY(same);
    QVERIFY2(same->counts().identical == static_cast<int>(same->pairs.size()), qPrintable(describe(*same)));
    QVERIFY(same->added.empty() && same->removed.empty());
    // Against the F16 file of the same network: every tensor is its F32 weights rounded to F16.
    Result<DiffReport> f16 = compare(fixture(kSharded), fixture(kF16));
    QVERIFY(f16);
    QCOMPARE(f16->pairs.size(), std::size_t(117));
    for (const TensorPair& p : f16->pairs) {
        QVERIFY2(p.verdict.kind == ChangeKind::Rounding && p.verdict.roundingBits == 10,
                 qPrintable(describe(*f16)));
        QCOMPARE(f16->infoA(p).dtype, Dtype::F32);
        QCOMPARE(f16->infoB(p).dtype, Dtype::F16);
    }
    QCOMPARE(f16->counts().dtypeChanged, 117);
}

void TestDiffEngine::shapesThatDoNotMatch()
{
    QVERIFY(rewrite(fixture(kLandmarks), path(QStringLiteral("shapes.safetensors")),
                    [](QString& name, Dtype&, std::vector<std::uint64_t>& shape, QByteArray& bytes) {
                        if (name == QLatin1String("fc.bias")) { // one value fewer
                            shape = {shape[0] - 1};
                            bytes.chop(4);
                        } else if (name == QLatin1String("fc.weights")) { // same values, flattened
                            std::uint64_t n = 1;
                            for (std::uint64_t d : shape)
                                n *= d;
                            shape = {n};
                        }
                    }));
    Result<DiffReport> r = compare(fixture(kLandmarks), path(QStringLiteral("shapes.safetensors")));
    QVERIFY(r);
    const TensorPair* bias = pairNamed(*r, QStringLiteral("fc.bias"));
    QCOMPARE(bias->status, PairStatus::NotCompared);
    QVERIFY2(bias->note.contains(QStringLiteral("[136] in A against [135] in B")), qPrintable(bias->note));
    QVERIFY(bias->note.contains(QStringLiteral("not compared")));
    const TensorPair* weights = pairNamed(*r, QStringLiteral("fc.weights"));
    QCOMPARE(weights->status, PairStatus::Changed);
    QCOMPARE(weights->verdict.kind, ChangeKind::SameValues);
    QVERIFY(weights->verdict.text.contains(QStringLiteral("reshaped")));
    QCOMPARE(r->counts().reshaped, 2);
}

void TestDiffEngine::nothingInCommonIsSaid()
{
    DiffOptions options;
    options.suggest = false;
    Result<DiffReport> r =
        compare(fixture(kLandmarks), fixture(QStringLiteral("tiny_face_detector_u8.safetensors")), options);
    QVERIFY(r);
    QVERIFY(r->pairs.empty());
    QCOMPARE(r->notes.size(), 1);
    QVERIFY2(r->notes.front().startsWith(QStringLiteral("A and B have no tensor in common")),
             qPrintable(r->notes.front()));
    QVERIFY(!r->identical());
}

void TestDiffEngine::metadataChangesAreListed()
{
    Metadata m;
    m.set(QStringLiteral("source"), QStringLiteral("changed"));
    m.set(QStringLiteral("new"), QStringLiteral("1"));
    QVERIFY(rewrite(fixture(kLandmarks), path(QStringLiteral("meta.safetensors")), {},
                    std::optional<Metadata>(m)));
    Result<DiffReport> r = compare(fixture(kLandmarks), path(QStringLiteral("meta.safetensors")));
    QVERIFY(r);
    QVERIFY(!r->identical());
    QCOMPARE(r->counts().identical, static_cast<int>(r->pairs.size()));
    std::map<QString, MetadataChange::Kind> kinds;
    for (const MetadataChange& c : r->metadata)
        kinds[c.key] = c.kind;
    QCOMPARE(kinds[QStringLiteral("source")], MetadataChange::Kind::Changed);
    QCOMPARE(kinds[QStringLiteral("new")], MetadataChange::Kind::Added);
    QCOMPARE(kinds.count(QStringLiteral("license")), std::size_t(1));
    QCOMPARE(kinds[QStringLiteral("license")], MetadataChange::Kind::Removed);
}

void TestDiffEngine::nanIntroducedIsCounted()
{
    QVERIFY(rewrite(fixture(kLandmarks), path(QStringLiteral("nan.safetensors")),
                    [](QString& name, Dtype&, std::vector<std::uint64_t>&, QByteArray& bytes) {
                        if (name != QLatin1String("fc.weights"))
                            return;
                        std::vector<float> v = floats(bytes);
                        v[3] = std::numeric_limits<float>::quiet_NaN();
                        v[9] = std::numeric_limits<float>::infinity();
                        bytes = floatBytes(v);
                    }));
    Result<DiffReport> r = compare(fixture(kLandmarks), path(QStringLiteral("nan.safetensors")));
    QVERIFY(r);
    const TensorPair* p = pairNamed(*r, QStringLiteral("fc.weights"));
    QCOMPARE(p->metrics->nonFiniteIntroduced, std::uint64_t(2));
    QCOMPARE(p->metrics->firstIntroduced, std::optional<std::uint64_t>(3));
    QCOMPARE(p->metrics->nanB, std::uint64_t(1));
    QCOMPARE(p->metrics->infB, std::uint64_t(1));
    QCOMPARE(p->metrics->changed, std::uint64_t(2));
    QCOMPARE(p->metrics->compared, p->metrics->elements - 2);
    QVERIFY(p->verdict.nonFinite);
    QVERIFY2(p->verdict.text.contains(QStringLiteral("2 values became NaN or Inf")),
             qPrintable(p->verdict.text));
    // The other way round they disappear.
    Result<DiffReport> back = compare(path(QStringLiteral("nan.safetensors")), fixture(kLandmarks));
    QVERIFY(back);
    QCOMPARE(pairNamed(*back, QStringLiteral("fc.weights"))->metrics->nonFiniteRemoved, std::uint64_t(2));
}

void TestDiffEngine::truncatedMidCompareIsAnError()
{
    // Both models open; then B's file loses its second half before the comparison reads it.
    QVERIFY(convert(fixture(kSharded), path(QStringLiteral("big.safetensors")), std::nullopt));
    QVERIFY(rewrite(path(QStringLiteral("big.safetensors")), path(QStringLiteral("big2.safetensors")),
                    [](QString&, Dtype&, std::vector<std::uint64_t>&, QByteArray& bytes) {
                        if (bytes.size() > 4)
                            bytes[bytes.size() - 1] = static_cast<char>(bytes[bytes.size() - 1] ^ 1);
                    }));
    auto a = open(path(QStringLiteral("big.safetensors")));
    auto b = open(path(QStringLiteral("big2.safetensors")));
    QVERIFY(a && b);
    QFile file(path(QStringLiteral("big2.safetensors")));
    QVERIFY(file.resize(file.size() / 2));
    CheckpointDiff diff(a, b);
    Result<DiffReport> r = diff.run();
    QVERIFY(!r);
    QVERIFY2(r.error().code == ErrorCode::FileChanged || r.error().code == ErrorCode::IoError,
             qPrintable(r.error().toString()));
    QVERIFY(r.error().file.endsWith(QStringLiteral("big2.safetensors")));
    QVERIFY(!r.error().tensor.isEmpty());
    QVERIFY(r.error().message.contains(QStringLiteral("cannot read tensor")));
}

void TestDiffEngine::cancelStopsEveryPhase()
{
    // A change everywhere, with the rank asked for, so every phase has work; the progress callback
    // cancels the first time it sees the phase under test.
    const std::vector<float> w = gaussian(1024 * 1024, 0.02f, 7);
    std::vector<float> w2 = w;
    for (std::size_t i = 0; i < w2.size(); ++i)
        w2[i] += 0.001f * static_cast<float>(i % 7);
    std::vector<std::pair<QString, std::vector<float>>> a, b;
    for (int t = 0; t < 8; ++t) {
        a.emplace_back(QStringLiteral("layers.%1.w").arg(t), w);
        b.emplace_back(QStringLiteral("layers.%1.w").arg(t), t < 4 ? w : w2);
    }
    QVERIFY(writeMatrices(path(QStringLiteral("ca.safetensors")), a, 1024, 1024));
    QVERIFY(writeMatrices(path(QStringLiteral("cb.safetensors")), b, 1024, 1024));
    for (DiffPhase phase : {DiffPhase::Identical, DiffPhase::Values, DiffPhase::Rank}) {
        DiffOptions options;
        options.rank = true;
        options.threads = 2;
        CheckpointDiff diff(open(path(QStringLiteral("ca.safetensors"))),
                            open(path(QStringLiteral("cb.safetensors"))), options);
        bool seen = false;
        diff.setProgressCallback(
            [&](const DiffProgress& p) {
                if (p.phase == phase && !seen) {
                    seen = true;
                    diff.cancel();
                }
            },
            1);
        Result<DiffReport> r = diff.run();
        QVERIFY(seen);
        QVERIFY2(!r && r.error().code == ErrorCode::Cancelled,
                 qPrintable(r ? QStringLiteral("finished") : r.error().toString()));
    }
    // Cancelled before it starts: nothing is read.
    CheckpointDiff early(open(path(QStringLiteral("ca.safetensors"))),
                         open(path(QStringLiteral("cb.safetensors"))));
    early.cancel();
    Result<DiffReport> r = early.run();
    QVERIFY(!r && r.error().code == ErrorCode::Cancelled);
}

void TestDiffEngine::threadCountDoesNotChangeTheNumbers()
{
    // Tensors several chunks long, so threads take pieces of one tensor and merge them in order.
    const std::vector<float> w = gaussian(2048 * 2048, 0.02f, 21);
    std::vector<float> w2 = w;
    const std::vector<float> g = gaussian(w.size(), 0.001f, 22);
    for (std::size_t i = 0; i < w.size(); ++i)
        w2[i] += g[i];
    QVERIFY(writeMatrices(path(QStringLiteral("ta.safetensors")), {{QStringLiteral("w"), w}}, 2048, 2048));
    QVERIFY(writeMatrices(path(QStringLiteral("tb.safetensors")), {{QStringLiteral("w"), w2}}, 2048, 2048));
    std::vector<ChangeMetrics> results;
    for (int threads : {1, 2, 5}) {
        DiffOptions options;
        options.threads = threads;
        options.chunkBytes = 4u << 20;
        Result<DiffReport> r =
            compare(path(QStringLiteral("ta.safetensors")), path(QStringLiteral("tb.safetensors")), options);
        QVERIFY(r && r->pairs.front().metrics);
        results.push_back(*r->pairs.front().metrics);
    }
    for (const ChangeMetrics& m : results) {
        QCOMPARE(m.sumSqDiff, results.front().sumSqDiff);
        QCOMPARE(m.sumAbsDiff, results.front().sumAbsDiff);
        QCOMPARE(m.maxAbsIndex, results.front().maxAbsIndex);
        QCOMPARE(m.changed, results.front().changed);
    }
    // And they are right: against a plain double loop over the same values.
    double sq = 0, sqA = 0;
    std::uint64_t at = 0;
    double best = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
        const double d = static_cast<double>(w2[i]) - static_cast<double>(w[i]);
        sq += d * d;
        sqA += static_cast<double>(w[i]) * w[i];
        if (std::fabs(d) > best) {
            best = std::fabs(d);
            at = i;
        }
    }
    QVERIFY(std::fabs(results.front().sumSqDiff - sq) <= 1e-9 * sq);
    QVERIFY(std::fabs(results.front().relativeL2() - std::sqrt(sq / sqA)) <= 1e-9);
    QCOMPARE(results.front().maxAbsIndex, std::optional<std::uint64_t>(at));
    QCOMPARE(results.front().maxAbsDiff, best);
}

void TestDiffEngine::reportJsonHasPairsMetricsAndMetadata()
{
    QVERIFY(rewrite(fixture(kLandmarks), path(QStringLiteral("j.safetensors")),
                    [](QString& name, Dtype&, std::vector<std::uint64_t>&, QByteArray& bytes) {
                        if (name == QLatin1String("fc.bias")) {
                            std::vector<float> v = floats(bytes);
                            v[5] += 1;
                            bytes = floatBytes(v);
                        }
                    }));
    Result<DiffReport> r = compare(fixture(kLandmarks), path(QStringLiteral("j.safetensors")));
    QVERIFY(r);
    const QJsonObject json = QJsonDocument::fromJson(diffReportJson(*r)).object();
    QCOMPARE(json.value(QStringLiteral("identical")).toBool(true), false);
    QCOMPARE(json.value(QStringLiteral("summary")).toObject().value(QStringLiteral("changed")).toInt(), 1);
    const QJsonArray pairs = json.value(QStringLiteral("pairs")).toArray();
    QCOMPARE(pairs.size(), static_cast<qsizetype>(r->pairs.size()));
    bool found = false;
    for (const QJsonValue& v : pairs) {
        const QJsonObject p = v.toObject();
        if (p.value(QStringLiteral("a")).toString() != QLatin1String("fc.bias"))
            continue;
        found = true;
        QCOMPARE(p.value(QStringLiteral("status")).toString(), QStringLiteral("changed"));
        QCOMPARE(p.value(QStringLiteral("kind")).toString(), QStringLiteral("sparse"));
        const QJsonObject m = p.value(QStringLiteral("metrics")).toObject();
        QCOMPARE(m.value(QStringLiteral("max_abs_index")).toInt(), 5);
        QCOMPARE(m.value(QStringLiteral("max_abs_index_at")).toArray(), QJsonArray{5});
        QCOMPARE(m.value(QStringLiteral("changed")).toInt(), 1);
        QVERIFY(m.contains(QStringLiteral("cosine")) && m.contains(QStringLiteral("relative_l2")));
    }
    QVERIFY(found);
}

QTEST_GUILESS_MAIN(TestDiffEngine)
#include "tst_diff_engine.moc"
