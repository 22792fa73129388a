// Hostile PyTorch checkpoints: every file of data/hostile names a dangerous global, hidden by one
// trick or another (manifest.json says which, and what torch.load did with it: for most, it ran
// the payload), and each yields exactly the dangerous globals it holds, the structural findings
// of its trick, offsets that point at the opcodes, and no conversion. Malformed files yield
// their findings and no dangerous one; benign files none. Mutants and every truncation of three
// checkpoints open or fail with a sentence, never a crash, with every offset inside the file.
#include "PickleTestData.h"
#include "checkpoint/PyTorchCheckpoint.h"
#include "io/MemorySource.h"

#include <QJsonArray>
#include <QRandomGenerator>
#include <QSet>

using namespace tspickle;

namespace {

QSet<QString> codesOf(const ts::Checkpoint& c)
{
    QSet<QString> codes;
    for (const ts::Diagnostic& d : c.warnings())
        codes.insert(d.code);
    return codes;
}

QSet<QString> dangerousOf(const ts::PyTorchCheckpoint& c)
{
    QSet<QString> names;
    for (const ts::pickle::GlobalUse& g : c.globals()) {
        if (g.verdict.cls == ts::pickle::GlobalClass::Dangerous)
            names.insert(QString::fromStdString(g.verdict.resolved));
    }
    return names;
}

QSet<QString> stringSet(const QJsonArray& a)
{
    QSet<QString> s;
    for (const QJsonValue& v : a)
        s.insert(v.toString());
    return s;
}

// Whatever a broken file gives, it stays inside the file: findings' offsets, tensors' bytes.
void checkBounded(const ts::PyTorchCheckpoint& c, std::uint64_t size)
{
    for (const ts::Diagnostic& d : c.warnings()) {
        if (d.offset)
            QVERIFY2(*d.offset <= size, qPrintable(d.message));
    }
    for (int i = 0; i < static_cast<int>(c.tensors().size()); ++i) {
        const ts::TensorLocation where = c.location(i);
        if (where.source.get() == c.parts().front().source.get()) {
            QVERIFY(where.offset <= size && where.length <= size - where.offset);
        } else {
            // A gathered view reads inside its storage, which TensorResolver checked.
            QByteArray b(static_cast<qsizetype>(std::min<std::uint64_t>(where.length, 1 << 20)),
                         Qt::Uninitialized);
            QVERIFY(where.source->read(0, std::as_writable_bytes(std::span(b.data(), b.size()))));
        }
    }
}

std::shared_ptr<const ts::PyTorchCheckpoint> fromBytes(const QByteArray& bytes)
{
    auto c = ts::PyTorchCheckpoint::fromSource(std::make_shared<ts::MemorySource>(bytes),
                                               QStringLiteral("x.pt"), {});
    return c ? c.value() : nullptr;
}

} // namespace

class TestPickleHostile : public QObject {
    Q_OBJECT
private slots:
    void hostileFilesNameTheirDangerousGlobals_data();
    void hostileFilesNameTheirDangerousGlobals();
    void torchRanThePayloadOfMostOfThem();
    void malformedFilesGiveTheirFindings_data();
    void malformedFilesGiveTheirFindings();
    void benignFilesHaveNoDangerousFinding();
    void structureOnlyProblemsConvertWhenAllowed();
    void mutantsNeverCrash();
    void everyTruncationIsHandled();
    void randomByteFlipsAreHandled();
};

void TestPickleHostile::hostileFilesNameTheirDangerousGlobals_data()
{
    QTest::addColumn<QString>("file");
    const QStringList files = filesIn(QStringLiteral("hostile"));
    QVERIFY(files.size() >= 27);
    for (const QString& f : files)
        QTest::newRow(qPrintable(f)) << f;
}

void TestPickleHostile::hostileFilesNameTheirDangerousGlobals()
{
    QFETCH(QString, file);
    const QJsonObject expected =
        manifest().value(QStringLiteral("hostile")).toObject().value(file).toObject();
    QVERIFY2(!expected.isEmpty(), "the file is in manifest.json");
    const QString path = dataFile(QStringLiteral("hostile/") + file);
    auto opened = ts::Checkpoint::open(path);
    QVERIFY2(opened, opened ? "" : qPrintable(opened.error().toString()));
    const auto* c = dynamic_cast<const ts::PyTorchCheckpoint*>(opened->get());
    QVERIFY(c);
    QVERIFY(c->runsCode());
    QCOMPARE(dangerousOf(*c), stringSet(expected.value(QStringLiteral("dangerous")).toArray()));
    const QSet<QString> codes = codesOf(*c);
    for (const QString& code : stringSet(expected.value(QStringLiteral("codes")).toArray()))
        QVERIFY2(codes.contains(code), qPrintable(code));
    // Never converted, whatever is allowed: the reason says the file would run code.
    ts::CheckpointOpenOptions force;
    force.allowUnsafeStructure = true;
    auto forced = ts::Checkpoint::open(path, force);
    QVERIFY(forced);
    QVERIFY(!(*forced)->capabilities().convertFrom);
    QVERIFY((*forced)->capabilities().convertRefusal.contains(QLatin1String("would run code")));
    // Each dangerous global's offset is the opcode that names it (GLOBAL, STACK_GLOBAL or INST),
    // except in a deflated member, where it is the member's.
    const QByteArray bytes = fileBytes(path);
    checkBounded(*c, static_cast<std::uint64_t>(bytes.size()));
    if (file == QLatin1String("h_deflated.pt"))
        return;
    for (const ts::pickle::GlobalUse& g : c->globals()) {
        const char op = bytes.at(static_cast<qsizetype>(g.firstOffset));
        QVERIFY2(op == 'c' || op == '\x93' || op == 'i',
                 qPrintable(QString::fromStdString(g.verdict.resolved)));
    }
}

void TestPickleHostile::torchRanThePayloadOfMostOfThem()
{
    // What make_checkpoints.py --with-torch recorded from real torch.load: the payload ran, except
    // where the trick hides it from torch too (bytes after STOP, members and archives torch never
    // reads), where the module does not exist on Linux (nt), and webbrowser (not run).
    const QJsonObject verified = manifest()
                                     .value(QStringLiteral("verified_with_torch"))
                                     .toObject()
                                     .value(QStringLiteral("hostile"))
                                     .toObject();
    const QSet<QString> notRun{QStringLiteral("h_after_stop.pt"), QStringLiteral("h_extra_member.pt"),
                               QStringLiteral("h_nested_zip.pt"), QStringLiteral("h_nt_system.pt"),
                               QStringLiteral("h_webbrowser.pt")};
    QCOMPARE(verified.size(), filesIn(QStringLiteral("hostile")).size());
    for (auto it = verified.begin(); it != verified.end(); ++it) {
        const bool ran = it.value().toObject().value(QStringLiteral("payload_ran")).toBool();
        QVERIFY2(ran != notRun.contains(it.key()), qPrintable(it.key()));
    }
}

void TestPickleHostile::malformedFilesGiveTheirFindings_data()
{
    QTest::addColumn<QString>("file");
    const QStringList files = filesIn(QStringLiteral("malformed"));
    QVERIFY(files.size() >= 21);
    for (const QString& f : files)
        QTest::newRow(qPrintable(f)) << f;
}

void TestPickleHostile::malformedFilesGiveTheirFindings()
{
    QFETCH(QString, file);
    const QJsonObject expected =
        manifest().value(QStringLiteral("malformed")).toObject().value(file).toObject();
    const QString path = dataFile(QStringLiteral("malformed/") + file);
    auto opened = ts::Checkpoint::open(path);
    QVERIFY2(opened, opened ? "" : qPrintable(opened.error().toString()));
    const auto* c = dynamic_cast<const ts::PyTorchCheckpoint*>(opened->get());
    QVERIFY(c);
    QVERIFY(!c->runsCode());
    QVERIFY(dangerousOf(*c).isEmpty());
    const QSet<QString> codes = codesOf(*c);
    for (const QString& code : stringSet(expected.value(QStringLiteral("codes")).toArray()))
        QVERIFY2(codes.contains(code), qPrintable(code + QStringLiteral(" in ") +
                                                  QStringList(codes.values()).join(QLatin1Char(' '))));
    checkBounded(*c, static_cast<std::uint64_t>(fileBytes(path).size()));
}

void TestPickleHostile::benignFilesHaveNoDangerousFinding()
{
    int checked = 0;
    for (const QString& folder : {QStringLiteral("torch"), QStringLiteral("emulated")}) {
        for (const QString& f : filesIn(folder)) {
            if (f == QLatin1String("torchscript.pt"))
                continue; // TorchScript runs code by design: tst_pickle_checkpoints
            const auto c = fromBytes(fileBytes(dataFile(folder + QLatin1Char('/') + f)));
            QVERIFY2(c, qPrintable(f));
            QVERIFY2(!c->runsCode(), qPrintable(f));
            QVERIFY2(dangerousOf(*c).isEmpty(), qPrintable(f));
            QVERIFY2(!c->hasStructuralProblems(), qPrintable(f));
            ++checked;
        }
    }
    QCOMPARE(checked, 15);
}

void TestPickleHostile::structureOnlyProblemsConvertWhenAllowed()
{
    const QString path = dataFile(QStringLiteral("malformed/m_crc.pt"));
    auto plain = ts::Checkpoint::open(path);
    QVERIFY(plain);
    QVERIFY(!(*plain)->capabilities().convertFrom);
    QVERIFY((*plain)->capabilities().convertRefusal.contains(QLatin1String("--allow-unsafe-structure")));
    ts::CheckpointOpenOptions force;
    force.allowUnsafeStructure = true;
    auto forced = ts::Checkpoint::open(path, force);
    QVERIFY(forced);
    QVERIFY((*forced)->capabilities().convertFrom);
}

void TestPickleHostile::mutantsNeverCrash()
{
    const QStringList files = filesIn(QStringLiteral("mutants"));
    QVERIFY(files.size() >= 18);
    for (const QString& f : files) {
        const QByteArray bytes = fileBytes(dataFile(QStringLiteral("mutants/") + f));
        auto c = ts::PyTorchCheckpoint::fromSource(std::make_shared<ts::MemorySource>(bytes), f, {});
        if (!c) {
            QVERIFY2(!c.error().message.isEmpty(), qPrintable(f));
            continue;
        }
        checkBounded(**c, static_cast<std::uint64_t>(bytes.size()));
    }
}

void TestPickleHostile::everyTruncationIsHandled()
{
    for (const QString& f : {QStringLiteral("torch/zip_views.pt"), QStringLiteral("torch/legacy_nested.ckpt"),
                             QStringLiteral("emulated/e_tar_dtypes.pt")}) {
        const QByteArray whole = fileBytes(dataFile(f));
        int opened = 0;
        for (qsizetype n = 0; n < whole.size(); n += f.contains(QLatin1String("tar")) ? 7 : 1) {
            const QByteArray cut = whole.left(n);
            auto c = ts::PyTorchCheckpoint::fromSource(std::make_shared<ts::MemorySource>(cut), f, {});
            if (c) {
                ++opened;
                checkBounded(**c, static_cast<std::uint64_t>(n));
            }
        }
        // The legacy layout keeps its pickles first: cut in its storages, it still opens and says so.
        if (f.contains(QLatin1String("legacy")))
            QVERIFY(opened > 0);
    }
}

void TestPickleHostile::randomByteFlipsAreHandled()
{
    QRandomGenerator rng(18);
    for (const QString& f : {QStringLiteral("torch/zip_dtypes.pt"), QStringLiteral("torch/legacy_views.pt"),
                             QStringLiteral("hostile/h_code_runsource.pt")}) {
        const QByteArray whole = fileBytes(dataFile(f));
        for (int round = 0; round < 700; ++round) {
            QByteArray b = whole;
            const int flips = 1 + static_cast<int>(rng.bounded(6));
            for (int k = 0; k < flips; ++k)
                b[static_cast<qsizetype>(rng.bounded(static_cast<quint32>(b.size())))] =
                    static_cast<char>(rng.bounded(256));
            auto c = ts::PyTorchCheckpoint::fromSource(std::make_shared<ts::MemorySource>(b), f, {});
            if (c)
                checkBounded(**c, static_cast<std::uint64_t>(b.size()));
        }
    }
}

QTEST_GUILESS_MAIN(TestPickleHostile)
#include "tst_pickle_hostile.moc"
