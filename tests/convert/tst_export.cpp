// Export: .npy files read back by numpy with the right descr and values; CSV read by numpy.loadtxt.
#include "ConvertTestUtil.h"

#include "checkpoint/Checkpoint.h"
#include "convert/TensorExporter.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <unistd.h>

using namespace ts;
using namespace ts::test;

class TestExport : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void npyAndCsv_data();
    void npyAndCsv();
    void refusals();
    void existingOutputNeedsForce();
    void neverOverTheModelsOwnFiles_data();
    void neverOverTheModelsOwnFiles();
    void modelLevelExportRefusesItsInput();

private:
    QTemporaryDir m_dir;
    QString m_model;
    std::vector<TestTensor> m_tensors;
};

void TestExport::initTestCase()
{
    if (!havePythonNumpy())
        QFAIL("/usr/bin/python3 with numpy is needed to read the exported files back");
    QRandomGenerator rng(42);
    auto random = [&](qsizetype bytes) {
        QByteArray b(bytes, Qt::Uninitialized);
        for (qsizetype i = 0; i < bytes; ++i)
            b[i] = static_cast<char>(rng.bounded(256));
        return b;
    };
    std::vector<float> f32(12);
    for (std::size_t i = 0; i < f32.size(); ++i)
        f32[i] = static_cast<float>(i) / 3.0f - 1.0f;
    f32[3] = std::nanf("");
    f32[4] = -HUGE_VALF;
    f32[5] = 1e-42f;
    std::vector<std::uint8_t> flags{1, 0, 0, 1};
    m_tensors = {{QStringLiteral("f32"), Dtype::F32, {3, 4}, bytesOf(f32)},
                 {QStringLiteral("f64"), Dtype::F64, {5}, random(40)},
                 {QStringLiteral("f16"), Dtype::F16, {2, 2, 2}, random(16)},
                 {QStringLiteral("bf16"), Dtype::BF16, {4, 4}, random(32)},
                 {QStringLiteral("e4m3"), Dtype::F8_E4M3, {16}, random(16)},
                 {QStringLiteral("e5m2"), Dtype::F8_E5M2, {4, 4}, random(16)},
                 {QStringLiteral("i64"), Dtype::I64, {2, 3}, random(48)},
                 {QStringLiteral("i8"), Dtype::I8, {7}, random(7)},
                 {QStringLiteral("u8"), Dtype::U8, {7}, random(7)},
                 {QStringLiteral("u16"), Dtype::U16, {3}, random(6)},
                 {QStringLiteral("bool"), Dtype::BOOL, {4}, bytesOf(flags)},
                 {QStringLiteral("c64"), Dtype::C64, {3}, bytesOf(std::vector<float>{1, 2, 3, 4, 5, 6})},
                 {QStringLiteral("scalar"), Dtype::F32, {}, bytesOf(std::vector<float>{2.5f})},
                 {QStringLiteral("empty"), Dtype::F32, {0, 4}, {}},
                 {QStringLiteral("f4"), Dtype::F4, {4}, random(2)}};
    m_model = m_dir.filePath(QStringLiteral("export.safetensors"));
    QVERIFY(writeSafetensors(m_model, m_tensors, std::nullopt));
    for (const TestTensor& t : m_tensors) {
        QFile raw(m_dir.filePath(t.name + QStringLiteral(".raw")));
        QVERIFY(raw.open(QIODevice::WriteOnly));
        raw.write(t.bytes);
    }
}

void TestExport::npyAndCsv_data()
{
    QTest::addColumn<QString>("tensor");
    QTest::addColumn<QString>("descr");   // what numpy must report
    QTest::addColumn<QString>("rawType"); // how the check script reads the source bytes
    QTest::addColumn<bool>("csv");
    const struct {
        const char* tensor;
        const char* descr;
        const char* raw;
        bool csv;
    } rows[] = {{"f32", "<f4", "<f4", true},     {"f64", "<f8", "<f8", true},   {"f16", "<f2", "<f2", false},
                {"bf16", "<f4", "bf16", true},   {"e4m3", "<f4", "e4m3", true}, {"e5m2", "<f4", "e5m2", true},
                {"i64", "<i8", "<i8", true},     {"i8", "|i1", "|i1", true},    {"u8", "|u1", "|u1", true},
                {"u16", "<u2", "<u2", true},     {"bool", "|b1", "|b1", true},  {"c64", "<c8", "<c8", false},
                {"scalar", "<f4", "<f4", false}, {"empty", "<f4", "<f4", false}};
    for (const auto& r : rows)
        QTest::newRow(r.tensor) << QString::fromLatin1(r.tensor) << QString::fromLatin1(r.descr)
                                << QString::fromLatin1(r.raw) << r.csv;
}

void TestExport::npyAndCsv()
{
    QFETCH(QString, tensor);
    QFETCH(QString, descr);
    QFETCH(QString, rawType);
    QFETCH(bool, csv);
    const TestTensor& t = *std::find_if(m_tensors.begin(), m_tensors.end(),
                                        [&](const TestTensor& r) { return r.name == tensor; });
    QStringList shape;
    for (const std::uint64_t d : t.shape)
        shape << QString::number(d);
    const QString raw = m_dir.filePath(tensor + QStringLiteral(".raw"));
    const QString npy = m_dir.filePath(tensor + QStringLiteral(".npy"));
    auto r = runCli({QStringLiteral("export"), m_model, tensor, QStringLiteral("-o"), npy});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.err.contains("float32"),
             descr == QLatin1String("<f4") && rawType != descr); // the widening note
    auto py =
        runPython(QStringLiteral("check_npy.py"), {npy, descr, shape.join(QLatin1Char(',')), raw, rawType});
    QVERIFY2(py.exitCode == 0, py.err.constData());
    if (!csv)
        return;
    const QString csvPath = m_dir.filePath(tensor + QStringLiteral(".csv"));
    r = runCli({QStringLiteral("export"), m_model, tensor, QStringLiteral("-o"), csvPath});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    py = runPython(QStringLiteral("check_npy.py"),
                   {csvPath, QStringLiteral("csv"), shape.join(QLatin1Char(',')), raw, rawType});
    QVERIFY2(py.exitCode == 0, py.err.constData());
}

void TestExport::refusals()
{
    const QString out = m_dir.filePath(QStringLiteral("no.npy"));
    auto r = runCli({QStringLiteral("export"), m_model, QStringLiteral("f4"), QStringLiteral("-o"), out});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("not supported yet"), r.err.constData());
    QVERIFY(!QFile::exists(out));
    r = runCli({QStringLiteral("export"), m_model, QStringLiteral("f16"), QStringLiteral("-o"),
                m_dir.filePath(QStringLiteral("3d.csv"))});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("1-D and 2-D"));
    r = runCli({QStringLiteral("export"), m_model, QStringLiteral("nope"), QStringLiteral("-o"), out});
    QCOMPARE(r.exitCode, 2);
    r = runCli({QStringLiteral("export"), m_model, QStringLiteral("f32"), QStringLiteral("-o"),
                m_dir.filePath(QStringLiteral("x.txt"))});
    QCOMPARE(r.exitCode, 2);
}

// An existing OUT is replaced only with --force, and then by a rename (the old inode is left
// alone, as a hard link to it shows), never by writing into it.
void TestExport::existingOutputNeedsForce()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("taken.npy"));
    const QString keep = dir.filePath(QStringLiteral("other-name-of-taken.npy"));
    {
        QFile f(out);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("someone else's data");
    }
    QVERIFY(::link(QFile::encodeName(out).constData(), QFile::encodeName(keep).constData()) == 0);
    auto r = runCli({QStringLiteral("export"), m_model, QStringLiteral("f32"), QStringLiteral("-o"), out});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QByteArray(QFile::encodeName(out) + " exists; pass --force to replace it")),
             r.err.constData());
    QCOMPARE(readFile(out), QByteArray("someone else's data"));

    r = runCli({QStringLiteral("export"), m_model, QStringLiteral("f32"), QStringLiteral("-o"), out,
                QStringLiteral("--force")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(readFile(out).startsWith(QByteArray("\x93NUMPY", 6)));
    QCOMPARE(readFile(keep), QByteArray("someone else's data")); // renamed over, not rewritten in place
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2); // no temporary left

    // A dangling symlink is an existing name too: the rename would replace it.
    const QString dangling = dir.filePath(QStringLiteral("dangling.csv"));
    QVERIFY(QFile::link(dir.filePath(QStringLiteral("nowhere")), dangling));
    r = runCli({QStringLiteral("export"), m_model, QStringLiteral("f32"), QStringLiteral("-o"), dangling});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("exists; pass --force"), r.err.constData());
    QVERIFY(QFileInfo(dangling).isSymLink());

    // A new name needs nothing.
    const QString fresh = dir.filePath(QStringLiteral("fresh.csv"));
    r = runCli({QStringLiteral("export"), m_model, QStringLiteral("f32"), QStringLiteral("-o"), fresh});
    QVERIFY2(r.exitCode == 0, r.err.constData());
}

// `export self.npy T -o self.npy` once replaced the model with its own tensor. Whatever names
// one of the model's files (the file, a shard, the index; the same spelling, another one, a
// symlink or a hard link) is refused, with or without --force, and the file stays as it was.
void TestExport::neverOverTheModelsOwnFiles_data()
{
    QTest::addColumn<QString>("open");   // what is opened: file, index, folder
    QTest::addColumn<QString>("output"); // what -o names
    QTest::addColumn<bool>("force");
    for (const bool force : {false, true}) {
        const char* f = force ? " --force" : "";
        QTest::addRow("the file itself%s", f) << QStringLiteral("file") << QStringLiteral("self") << force;
        QTest::addRow("the file by another path%s", f)
            << QStringLiteral("file") << QStringLiteral("respelled") << force;
        QTest::addRow("a symlink to the file%s", f)
            << QStringLiteral("file") << QStringLiteral("symlink") << force;
        QTest::addRow("a hard link to the file%s", f)
            << QStringLiteral("file") << QStringLiteral("hardlink") << force;
        QTest::addRow("a symlink to a shard%s", f)
            << QStringLiteral("index") << QStringLiteral("shard") << force;
        QTest::addRow("a symlink to the index%s", f)
            << QStringLiteral("index") << QStringLiteral("indexlink") << force;
        QTest::addRow("the index of an opened folder%s", f)
            << QStringLiteral("folder") << QStringLiteral("indexlink") << force;
    }
}

void TestExport::neverOverTheModelsOwnFiles()
{
    QFETCH(QString, open);
    QFETCH(QString, output);
    QFETCH(bool, force);
    QTemporaryDir dir;
    // A model whose own name ends in .npy, as in the report.
    const QString self = dir.filePath(QStringLiteral("self.npy"));
    QVERIFY(QFile::copy(m_model, self));
    const QString folder = dir.filePath(QStringLiteral("sharded"));
    auto r = runCli({QStringLiteral("convert"), m_model, QStringLiteral("--exclude"), QStringLiteral("f4"),
                     QStringLiteral("-o"), folder, QStringLiteral("--shard-size"), QStringLiteral("100B")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString index = folder + QStringLiteral("/model.safetensors.index.json");
    const QString shard =
        folder + QLatin1Char('/') + QDir(folder).entryList({QStringLiteral("model-*")}).first();

    QString out;
    if (output == QLatin1String("self")) {
        out = self;
    } else if (output == QLatin1String("respelled")) {
        out = dir.filePath(QStringLiteral("sharded/../self.npy"));
    } else if (output == QLatin1String("symlink")) {
        out = dir.filePath(QStringLiteral("link.npy"));
        QVERIFY(QFile::link(self, out));
    } else if (output == QLatin1String("hardlink")) {
        out = dir.filePath(QStringLiteral("hard.npy"));
        QCOMPARE(::link(QFile::encodeName(self).constData(), QFile::encodeName(out).constData()), 0);
    } else if (output == QLatin1String("shard")) {
        out = dir.filePath(QStringLiteral("shard.npy"));
        QVERIFY(QFile::link(shard, out));
    } else {
        out = dir.filePath(QStringLiteral("index.csv"));
        QVERIFY(QFile::link(index, out));
    }
    const QString opened = open == QLatin1String("file")    ? self
                           : open == QLatin1String("index") ? index
                                                            : folder;
    const QString victim = open == QLatin1String("file")      ? self
                           : output == QLatin1String("shard") ? shard
                                                              : index;
    const QByteArray before = sha256(readFile(victim));

    QStringList args{QStringLiteral("export"), opened, QStringLiteral("f32"), QStringLiteral("-o"), out};
    if (force)
        args << QStringLiteral("--force");
    r = runCli(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("export never writes over the model it reads, even with --force"),
             r.err.constData());
    QVERIFY2(r.err.contains(QFile::encodeName(out)), r.err.constData());
    QCOMPARE(sha256(readFile(victim)), before);
    QCOMPARE(sha256(readFile(out)), before); // still the same file (the link was not replaced either)
    QCOMPARE(runCli({QStringLiteral("validate"), opened}).exitCode, 0);
}

// The GUI exports through TensorExporter::exportFromModel: the same refusal, in core.
void TestExport::modelLevelExportRefusesItsInput()
{
    QTemporaryDir dir;
    const QString self = dir.filePath(QStringLiteral("self.npy"));
    QVERIFY(QFile::copy(m_model, self));
    const QString link = dir.filePath(QStringLiteral("link.npy"));
    QVERIFY(QFile::link(self, link));
    const QByteArray before = sha256(readFile(self));
    auto model = Checkpoint::open(self);
    QVERIFY(model);
    const int tensor = (*model)->indexOf(QStringLiteral("f32"));
    for (const QString& out : {self, link}) {
        auto done = TensorExporter::exportFromModel(**model, tensor, out, TensorExporter::Format::Npy);
        QVERIFY(!done);
        QCOMPARE(done.error().code, ErrorCode::InvalidArgument);
        QCOMPARE(done.error().file, out);
        QCOMPARE(sha256(readFile(self)), before);
    }
    const QString elsewhere = dir.filePath(QStringLiteral("t.npy"));
    QVERIFY(TensorExporter::exportFromModel(**model, tensor, elsewhere, TensorExporter::Format::Npy));
    QVERIFY(readFile(elsewhere).startsWith(QByteArray("\x93NUMPY", 6)));
}

QTEST_GUILESS_MAIN(TestExport)
#include "tst_export.moc"
