// The audit report: the files' SHA-256 (against coreutils' sha256sum), the report gathered from
// a real model and from one with per-layer charts, and what the HTML, JSON and Markdown writers
// make of hostile metadata. The browser's view of the HTML is tst_report_browser's.
#include "ReportTestModels.h"

#include "Fixtures.h"
#include "checkpoint/Checkpoint.h"
#include "io/MappedFile.h"
#include "report/FileHasher.h"
#include "report/ReportBuilder.h"
#include "report/ReportOutput.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace ts;

namespace {

QString fixture(const QString& name)
{
    return ts::test::realFixture(name);
}

// The independent implementation: coreutils.
QString sha256sum(const QString& path)
{
    QProcess p;
    p.start(QStringLiteral("sha256sum"), {path});
    if (!p.waitForFinished(60000))
        return {};
    return QString::fromLatin1(p.readAllStandardOutput()).section(QLatin1Char(' '), 0, 0);
}

Result<std::vector<FileDigest>> hashFiles(const QStringList& paths, int threads = 0)
{
    std::vector<HashInput> inputs;
    for (const QString& path : paths) {
        auto file = MappedFile::open(path);
        if (!file)
            return file.error();
        inputs.push_back({QFileInfo(path).fileName(), path, QStringLiteral("weights"), file.value()});
    }
    FileHasher hasher(std::move(inputs), threads);
    return hasher.run();
}

Result<AuditReport> reportOf(const QString& path, ReportOptions options = {})
{
    auto checkpoint = Checkpoint::open(path);
    if (!checkpoint)
        return checkpoint.error();
    options.tool = QStringLiteral("Tensorscope test");
    ReportBuilder builder(checkpoint.value(), path, options);
    return builder.run();
}

QStringList codes(const std::vector<Diagnostic>& findings)
{
    QStringList c;
    for (const Diagnostic& d : findings)
        c << d.code;
    return c;
}

} // namespace

class TestReport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void hashesAreSha256sums();
    void hashKnownAnswers();
    void hashProgressAndCancel();
    void reportOfARealModel();
    void perLayerCharts();
    void htmlIsSelfContainedAndEscaped();
    void markdownAndJsonEscapeAndCut();
    void withoutScanOrHashes();
    void outputsAreWrittenOnlyWhereAsked();
};

void TestReport::hashesAreSha256sums()
{
    const QString dir = fixture(QStringLiteral("face_recognition_sharded"));
    const QStringList files = {dir + QStringLiteral("/model-00001-of-00002.safetensors"),
                               dir + QStringLiteral("/model-00002-of-00002.safetensors"),
                               dir + QStringLiteral("/model.safetensors.index.json")};
    for (const QString& f : files)
        QVERIFY2(QFile::exists(f), qPrintable(f));
    // One thread or several: the same digests, in the input order.
    for (int threads : {1, 3}) {
        auto digests = hashFiles(files, threads);
        QVERIFY2(digests, qPrintable(digests ? QString() : digests.error().toString()));
        QCOMPARE(digests->size(), std::size_t(3));
        for (qsizetype i = 0; i < files.size(); ++i) {
            const FileDigest& d = (*digests)[static_cast<std::size_t>(i)];
            QCOMPARE(d.sha256, sha256sum(files[i]));
            QCOMPARE(d.size, static_cast<std::uint64_t>(QFileInfo(files[i]).size()));
        }
    }
    // Through the report: every part, the index, and the config.json it compared.
    auto report = reportOf(dir, {true, false, 0, {}});
    QVERIFY(report);
    QCOMPARE(report->files.size(), std::size_t(3));
    QCOMPARE(report->files[2].role, QStringLiteral("shard index"));
    for (const FileDigest& d : report->files)
        QCOMPARE(d.sha256, sha256sum(d.path));
}

void TestReport::hashKnownAnswers()
{
    QTemporaryDir dir;
    const QString empty = dir.filePath(QStringLiteral("empty"));
    const QString abc = dir.filePath(QStringLiteral("abc"));
    QFile(empty).open(QIODevice::WriteOnly);
    QFile f(abc);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("abc");
    f.close();
    auto digests = hashFiles({empty, abc});
    QVERIFY(digests);
    // FIPS 180-2's test vectors.
    QCOMPARE((*digests)[0].sha256,
             QStringLiteral("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    QCOMPARE((*digests)[1].sha256,
             QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
}

void TestReport::hashProgressAndCancel()
{
    QTemporaryDir dir;
    const QString big = dir.filePath(QStringLiteral("big.bin"));
    QFile f(big);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QVERIFY(f.resize(768ll << 20)); // sparse: reads as zeros at memory speed
    f.close();
    auto file = MappedFile::open(big);
    QVERIFY(file);
    {
        FileHasher hasher({{QStringLiteral("big.bin"), big, QStringLiteral("weights"), file.value()}}, 1);
        std::vector<std::uint64_t> seen;
        std::uint64_t total = 0;
        hasher.setControl({CancelToken(), ProgressSink(
                                              [&](const Progress& p) {
                                                  total = p.bytesTotal;
                                                  seen.push_back(p.bytesDone);
                                              },
                                              std::chrono::milliseconds(5))});
        auto digests = hasher.run();
        QVERIFY(digests);
        QCOMPARE(digests->front().sha256, sha256sum(big));
        QVERIFY(!seen.empty());
        QCOMPARE(total, 768ull << 20);
        QCOMPARE(seen.back(), 768ull << 20);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    }
    {
        // Cancelled at the first progress report: an error, not a digest of part of the file.
        FileHasher hasher({{QStringLiteral("big.bin"), big, QStringLiteral("weights"), file.value()}}, 1);
        CancelToken token;
        hasher.setControl({token, ProgressSink([token](const Progress&) { token.cancel(); },
                                               std::chrono::milliseconds(0))});
        auto digests = hasher.run();
        QVERIFY(!digests);
        QCOMPARE(digests.error().code, ErrorCode::Cancelled);
    }
}

void TestReport::reportOfARealModel()
{
    // The fixture with a planted NaN, +Inf, an all-zero tensor and a 7e4 outlier.
    auto report = reportOf(fixture(QStringLiteral("age_gender_anomalies_f32.safetensors")));
    QVERIFY2(report, qPrintable(report ? QString() : report.error().toString()));
    QVERIFY(report->hashed);
    QVERIFY(report->scanned);
    const QStringList found = codes(report->scanFindings);
    for (const char* code : {"NanValues", "InfValues", "AllZero", "ExtremeOutlier"})
        QVERIFY2(found.contains(QLatin1String(code)), qPrintable(found.join(QLatin1Char(','))));
    QVERIFY(report->errorCount() >= 2);
    QCOMPARE(report->tensorCount, 51ull);
    QCOMPARE(report->files.front().sha256,
             sha256sum(fixture(QStringLiteral("age_gender_anomalies_f32.safetensors"))));

    const QJsonObject json =
        QJsonDocument::fromJson(ReportOutput::render(*report, ReportFormat::Json)).object();
    QCOMPARE(json.value(QLatin1String("reportVersion")).toInt(), 1);
    QCOMPARE(json.value(QLatin1String("files"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QLatin1String("sha256"))
                 .toString(),
             report->files.front().sha256);
    QCOMPARE(json.value(QLatin1String("summary")).toObject().value(QLatin1String("tensors")).toInt(), 51);
    QCOMPARE(json.value(QLatin1String("errors")).toInt(), report->errorCount());
    QCOMPARE(json.value(QLatin1String("scan")).toObject().value(QLatin1String("findings")).toArray().size(),
             static_cast<qsizetype>(report->scanFindings.size()));
    QVERIFY(json.value(QLatin1String("parameters")).toObject().value(QLatin1String("total")).toInteger() > 0);
    const QString html = QString::fromUtf8(ReportOutput::render(*report, ReportFormat::Html));
    QVERIFY(html.contains(QLatin1String("NanValues")));
    QVERIFY(html.contains(report->files.front().sha256));
}

void TestReport::perLayerCharts()
{
    QTemporaryDir dir;
    const QString model = dir.filePath(QStringLiteral("model.safetensors"));
    QVERIFY(reportmodels::writeDemo(model));
    QVERIFY(reportmodels::writeConfig(dir.path(), 6));
    auto report = reportOf(model);
    QVERIFY2(report, qPrintable(report ? QString() : report.error().toString()));
    // Block 3's down_proj was written 100x its siblings: a LayerOutlier, its family charted first.
    QVERIFY(codes(report->scanFindings).contains(QStringLiteral("LayerOutlier")));
    QVERIFY(!report->layers.empty());
    QCOMPARE(report->layers.front().pattern, QStringLiteral("model.layers.#.mlp.down_proj.weight"));
    QCOMPARE(report->layers.front().flagged, std::vector<int>{3});
    QCOMPARE(report->layers.front().blocks.size(), std::size_t(6));
    QVERIFY(report->layers.front().std[3] > 50 * report->layers.front().std[2]);
    QCOMPARE(report->profile.architecture.family, QStringLiteral("llama"));
    QVERIFY(report->profile.config.found());
    const QString html = QString::fromUtf8(ReportOutput::render(*report, ReportFormat::Html));
    QCOMPARE(html.count(QLatin1String("<svg")), static_cast<qsizetype>(report->layers.size()) + 1);
    // The flagged block is ringed: exactly one ring, in the down_proj chart.
    QCOMPARE(html.count(QLatin1String("class=\"flag\"")), 1);
    QVERIFY(html.contains(QLatin1String("block 3 differs from its siblings")));
}

void TestReport::htmlIsSelfContainedAndEscaped()
{
    QTemporaryDir dir;
    const QString model = dir.filePath(QStringLiteral("model.safetensors"));
    reportmodels::DemoOptions options;
    options.metadata = reportmodels::hostileMetadata(9);
    QVERIFY(reportmodels::writeDemo(model, options));
    auto report = reportOf(model, {false, true, 0, {}});
    QVERIFY(report);
    const QString html = QString::fromUtf8(ReportOutput::render(*report, ReportFormat::Html));
    // Nothing to fetch and nothing to run: no script, image, link or frame element, every link
    // within the page, the browser told to load nothing from anywhere.
    for (const char* tag : {"<script", "<img", "<link", "<iframe", "<object", "<embed", "<base"})
        QVERIFY2(!html.contains(QLatin1String(tag), Qt::CaseInsensitive), tag);
    const QRegularExpression attribute(
        QStringLiteral("\\s(src|href|action|xlink:href)\\s*=\\s*\"([^\"]*)\""));
    for (auto it = attribute.globalMatch(html); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        QVERIFY2(m.captured(1) == QLatin1String("href") && m.captured(2).startsWith(QLatin1Char('#')),
                 qPrintable(m.captured(0)));
    }
    QVERIFY(html.contains(QLatin1String("default-src 'none'")));
    QVERIFY(!html.contains(QLatin1String("url(")));
    // The values are there, as text; the bidi override is shown, not obeyed.
    QVERIFY(html.contains(QLatin1String("&lt;script&gt;console.error(&#39;script ran&#39;)&lt;/script&gt;")));
    QVERIFY(html.contains(QLatin1String("safe\\u202etxt.exe")));
    QVERIFY(!html.contains(QChar(0x202E)));
    // The known keys are explained beside their values.
    QVERIFY(html.contains(QLatin1String("2023-11-14 22:13:20 UTC")));
    QVERIFY(html.contains(QLatin1String("kohya-ss sd-scripts")));
}

void TestReport::markdownAndJsonEscapeAndCut()
{
    QTemporaryDir dir;
    const QString model = dir.filePath(QStringLiteral("model.safetensors"));
    reportmodels::DemoOptions options;
    Metadata m = reportmodels::hostileMetadata(9);
    m.set(QStringLiteral("long"), QString(100000, QLatin1Char('x')));
    options.metadata = m;
    QVERIFY(reportmodels::writeDemo(model, options));
    auto report = reportOf(model, {false, false, 0, {}});
    QVERIFY(report);
    const QString md = QString::fromUtf8(ReportOutput::render(*report, ReportFormat::Markdown));
    // A table cell cannot be broken out of, and markup and links stay text.
    QVERIFY(md.contains(QLatin1String("\\[link\\](http://127.0.0.1:9/md) \\| cell")));
    QVERIFY(!md.contains(QLatin1String("<img")));
    QVERIFY(md.contains(QLatin1String("&lt;img src=")));
    for (const QString& line : md.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("| ")))
            QVERIFY2(!line.contains(QLatin1Char('\n')), qPrintable(line));
    }
    QVERIFY(md.contains(QLatin1String("## Metadata")));
    QVERIFY(md.contains(QLatin1String("(99,700 more characters)")));
    // JSON keeps 64 Ki characters and says how many it left out.
    const QJsonObject json =
        QJsonDocument::fromJson(ReportOutput::render(*report, ReportFormat::Json)).object();
    for (const QJsonValue& e : json.value(QLatin1String("metadata")).toArray()) {
        const QJsonObject o = e.toObject();
        if (o.value(QLatin1String("key")).toString() == QLatin1String("long")) {
            QCOMPARE(o.value(QLatin1String("value")).toString().size(), 65536);
            QCOMPARE(o.value(QLatin1String("cutCharacters")).toInt(), 100000 - 65536);
        }
        if (o.value(QLatin1String("key")).toString() == QLatin1String("ss_training_started_at"))
            QCOMPARE(o.value(QLatin1String("decoded")).toString(), QStringLiteral("2023-11-14 22:13:20 UTC"));
    }
}

void TestReport::withoutScanOrHashes()
{
    auto report =
        reportOf(fixture(QStringLiteral("face_landmark_68_f32.safetensors")), {false, false, 0, {}});
    QVERIFY(report);
    QVERIFY(!report->hashed);
    QVERIFY(!report->scanned);
    QVERIFY(report->files.front().sha256.isEmpty());
    QCOMPARE(report->files.front().size,
             static_cast<std::uint64_t>(
                 QFileInfo(fixture(QStringLiteral("face_landmark_68_f32.safetensors"))).size()));
    const QString html = QString::fromUtf8(ReportOutput::render(*report, ReportFormat::Html));
    QVERIFY(html.contains(QLatin1String("(values not read)")));
    QVERIFY(html.contains(QLatin1String("not hashed")));
    const QJsonObject json =
        QJsonDocument::fromJson(ReportOutput::render(*report, ReportFormat::Json)).object();
    QVERIFY(json.value(QLatin1String("files"))
                .toArray()
                .first()
                .toObject()
                .value(QLatin1String("sha256"))
                .isNull());
    QVERIFY(!json.value(QLatin1String("scan")).toObject().value(QLatin1String("ran")).toBool());
}

void TestReport::outputsAreWrittenOnlyWhereAsked()
{
    QTemporaryDir dir;
    const QString model = dir.filePath(QStringLiteral("model.safetensors"));
    QVERIFY(reportmodels::writeDemo(model));
    auto checkpoint = Checkpoint::open(model);
    QVERIFY(checkpoint);
    const InputFiles inputs = InputFiles::of(*checkpoint.value());
    const QByteArray before = [&] {
        QFile f(model);
        f.open(QIODevice::ReadOnly);
        return f.readAll();
    }();
    // Never over the model, however it is named, --force or not.
    auto refused = ReportOutput::write(model, "x", inputs, true);
    QVERIFY(!refused);
    QVERIFY(refused.error().message.contains(QLatin1String("input")));
    QFile::link(model, dir.filePath(QStringLiteral("link.html")));
    QVERIFY(!ReportOutput::write(dir.filePath(QStringLiteral("link.html")), "x", inputs, true));
    QFile f(model);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), before);
    // An existing report only when replacing is allowed.
    const QString out = dir.filePath(QStringLiteral("r.html"));
    QVERIFY(ReportOutput::write(out, "one", inputs, false));
    QVERIFY(!ReportOutput::write(out, "two", inputs, false));
    QVERIFY(ReportOutput::write(out, "two", inputs, true));
    QFile r(out);
    QVERIFY(r.open(QIODevice::ReadOnly));
    QCOMPARE(r.readAll(), QByteArray("two"));
    QCOMPARE(ReportOutput::sibling(out, ReportFormat::Json), dir.filePath(QStringLiteral("r.json")));
    QCOMPARE(ReportOutput::formatFor(QStringLiteral("a.MD")),
             std::optional<ReportFormat>(ReportFormat::Markdown));
    QVERIFY(!ReportOutput::formatFor(QStringLiteral("a.txt")));
}

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
