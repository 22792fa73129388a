// Benign PyTorch checkpoints open as checkpoints with the tensors real torch loads from them: the
// files torch 1.13.1 wrote (tests/pickle/data/torch, compared with what torch.load gave, recorded
// in manifest.json) and the layouts only the emulation writes (tar, ZIP64 fields, big-endian,
// torch 2.x dtypes), compared with the emulation's own bytes. Every tensor is read through the
// checkpoint's location and hashed, so views gathered from strides and byte-swapped storages are
// checked element by element.
#include "PickleTestData.h"
#include "checkpoint/PyTorchCheckpoint.h"
#include "io/MemorySource.h"

#include <QJsonArray>
#include <QSet>
#include <QTemporaryDir>

using namespace tspickle;

namespace {

std::shared_ptr<const ts::Checkpoint> openOrFail(const QString& path)
{
    auto opened = ts::Checkpoint::open(path);
    if (!opened) {
        qWarning("%s", qPrintable(opened.error().toString()));
        return nullptr;
    }
    return opened.value();
}

bool hasCode(const ts::Checkpoint& c, const QString& code)
{
    for (const ts::Diagnostic& d : c.warnings()) {
        if (d.code == code)
            return true;
    }
    return false;
}

} // namespace

class TestPickleCheckpoints : public QObject {
    Q_OBJECT
private slots:
    void torchWrittenFilesGiveTorchsTensors_data();
    void torchWrittenFilesGiveTorchsTensors();
    void emulatedLayoutsGiveTheirTensors_data();
    void emulatedLayoutsGiveTheirTensors();
    void storedStoragesAreRangesOfTheFile();
    void viewsTiedWeightsAndEdgeShapes();
    void layoutsAreNamed();
    void headerPageShowsTheDisassembly();
    void safetensorsStillOpensAsSafetensors();
    void garbageIsRefusedWithASentence();
    void pickleOfSomethingElseIsShownAsAPickle();
};

void TestPickleCheckpoints::torchWrittenFilesGiveTorchsTensors_data()
{
    QTest::addColumn<QString>("file");
    const QJsonObject files =
        manifest().value(QStringLiteral("torch")).toObject().value(QStringLiteral("files")).toObject();
    QVERIFY2(files.size() >= 12, "manifest.json lists the files torch wrote");
    for (auto it = files.begin(); it != files.end(); ++it)
        QTest::newRow(qPrintable(it.key())) << it.key();
}

void TestPickleCheckpoints::torchWrittenFilesGiveTorchsTensors()
{
    QFETCH(QString, file);
    const auto c = openOrFail(dataFile(QStringLiteral("torch/") + file));
    QVERIFY(c);
    const QJsonObject expected = manifest()
                                     .value(QStringLiteral("torch"))
                                     .toObject()
                                     .value(QStringLiteral("files"))
                                     .toObject()
                                     .value(file)
                                     .toObject()
                                     .value(QStringLiteral("tensors"))
                                     .toObject();
    QCOMPARE(describeTensors(*c), describeExpected(expected));
    const auto* p = dynamic_cast<const ts::PyTorchCheckpoint*>(c.get());
    QVERIFY(p);
    if (file == QLatin1String("torchscript.pt")) {
        QVERIFY(p->runsCode());
        QVERIFY(hasCode(*c, QStringLiteral("TorchScriptArchive")));
        QVERIFY(!c->capabilities().convertFrom);
        return;
    }
    // What torch wrote is benign: no dangerous global, no structural oddity, convertible.
    QVERIFY(!p->runsCode());
    QVERIFY(!hasCode(*c, QStringLiteral("PickleDangerousGlobal")));
    QVERIFY2(!p->hasStructuralProblems(),
             qPrintable(c->warnings().empty() ? QString() : c->warnings().back().message));
    QVERIFY(c->capabilities().convertFrom);
    QVERIFY(!c->capabilities().editMetadata);
    // A whole pickled module names its classes: unknown to torch's allowlist, not dangerous.
    QCOMPARE(hasCode(*c, QStringLiteral("PickleUnknownGlobal")), file == QLatin1String("torch_module.pt"));
}

void TestPickleCheckpoints::emulatedLayoutsGiveTheirTensors_data()
{
    QTest::addColumn<QString>("file");
    const QJsonObject files = manifest().value(QStringLiteral("emulated")).toObject();
    QVERIFY(files.size() >= 4);
    for (auto it = files.begin(); it != files.end(); ++it)
        QTest::newRow(qPrintable(it.key())) << it.key();
}

void TestPickleCheckpoints::emulatedLayoutsGiveTheirTensors()
{
    QFETCH(QString, file);
    const auto c = openOrFail(dataFile(QStringLiteral("emulated/") + file));
    QVERIFY(c);
    const QJsonObject expected = manifest()
                                     .value(QStringLiteral("emulated"))
                                     .toObject()
                                     .value(file)
                                     .toObject()
                                     .value(QStringLiteral("tensors"))
                                     .toObject();
    QCOMPARE(describeTensors(*c), describeExpected(expected));
    QVERIFY(c->capabilities().convertFrom);
    // The emulated files torch 1.13 can read, it read to the same tensors (recorded once).
    const QJsonObject verified = manifest()
                                     .value(QStringLiteral("verified_with_torch"))
                                     .toObject()
                                     .value(QStringLiteral("emulated"))
                                     .toObject();
    if (file == QLatin1String("e_tar_dtypes.pt") || file == QLatin1String("e_zip64.pt"))
        QVERIFY(verified.value(file).toObject().value(QStringLiteral("same_tensors")).toBool());
}

void TestPickleCheckpoints::storedStoragesAreRangesOfTheFile()
{
    const QString path = dataFile(QStringLiteral("torch/zip_dtypes.pt"));
    const auto c = openOrFail(path);
    QVERIFY(c);
    const QByteArray file = fileBytes(path);
    for (int i = 0; i < static_cast<int>(c->tensors().size()); ++i) {
        const ts::TensorLocation where = c->location(i);
        // Mapped in place: the part's own source, at the offset the zip gives the member (64-byte
        // aligned, as torch's writer pads), not a copy.
        QCOMPARE(where.source.get(), c->parts().front().source.get());
        QCOMPARE(where.offset % 64, std::uint64_t{0});
        QCOMPARE(c->byteOffset(i), where.offset);
        QByteArray read(static_cast<qsizetype>(where.length), Qt::Uninitialized);
        QVERIFY(
            where.source->read(where.offset, std::as_writable_bytes(std::span(read.data(), read.size()))));
        QCOMPARE(read, file.mid(static_cast<qsizetype>(where.offset), static_cast<qsizetype>(where.length)));
    }
    QCOMPARE(c->parts().front().headerBytes, std::uint64_t{1095}); // data.pkl
}

void TestPickleCheckpoints::viewsTiedWeightsAndEdgeShapes()
{
    for (const QString& file :
         {QStringLiteral("torch/zip_views.pt"), QStringLiteral("torch/legacy_views.pt")}) {
        const auto c = openOrFail(dataFile(file));
        QVERIFY(c);
        const auto at = [&](const char* name) { return c->indexOf(QLatin1String(name)); };
        const auto loc = [&](const char* name) { return c->location(at(name)); };
        // Tied: the same storage bytes under two names.
        QCOMPARE(loc("tied").offset, loc("base").offset);
        QCOMPARE(loc("tied").source.get(), loc("base").source.get());
        // A contiguous slice is a range of the file; a transpose and an expanded view are gathered.
        QCOMPARE(loc("row").source.get(), c->parts().front().source.get());
        QCOMPARE(loc("row").offset, loc("base").offset + 6 * 4);
        QVERIFY(loc("transposed").source.get() != c->parts().front().source.get());
        QVERIFY(loc("expanded").source.get() != c->parts().front().source.get());
        QCOMPARE(loc("expanded").length, std::uint64_t{12 * 4});
        // Read a value out of the middle of a gathered view: transposed[1][2] = base[2][1] = 13.
        float v = 0;
        QVERIFY(loc("transposed").source->read((1 * 4 + 2) * 4, std::as_writable_bytes(std::span(&v, 1))));
        QCOMPARE(v, 13.0f);
        QVERIFY(c->tensors()[static_cast<std::size_t>(at("param"))].info.byteSize() == 16);
        // The audit list says which names share bytes and which are strided views (a conversion
        // writes each name as its own contiguous copy); a contiguous slice is neither.
        QSet<QString> tied;
        QSet<QString> strided;
        for (const ts::Diagnostic& w : c->warnings()) {
            if (w.code == QLatin1String("TiedTensor"))
                tied << w.tensor;
            else if (w.code == QLatin1String("StridedView"))
                strided << w.tensor;
        }
        QVERIFY2(tied.contains(QStringLiteral("tied")), qPrintable(file));
        QVERIFY(!tied.contains(QStringLiteral("base")) && !tied.contains(QStringLiteral("row")));
        QVERIFY2(strided.contains(QStringLiteral("transposed")) &&
                     strided.contains(QStringLiteral("expanded")),
                 qPrintable(file));
        QVERIFY(!strided.contains(QStringLiteral("row")) && !strided.contains(QStringLiteral("base")));
    }
    const auto d = openOrFail(dataFile(QStringLiteral("torch/zip_dtypes.pt")));
    const ts::TensorInfo& scalar =
        d->tensors()[static_cast<std::size_t>(d->indexOf(QStringLiteral("scalar")))].info;
    QVERIFY(scalar.shape.empty());
    QCOMPARE(scalar.byteSize(), std::uint64_t{4});
    const ts::TensorInfo& empty =
        d->tensors()[static_cast<std::size_t>(d->indexOf(QStringLiteral("empty")))].info;
    QCOMPARE(empty.shape, (std::vector<std::uint64_t>{0, 3}));
    QCOMPARE(empty.byteSize(), std::uint64_t{0});
}

void TestPickleCheckpoints::layoutsAreNamed()
{
    QCOMPARE(openOrFail(dataFile(QStringLiteral("torch/zip_dtypes.pt")))->formatName(),
             QStringLiteral("PyTorch zip"));
    QCOMPARE(openOrFail(dataFile(QStringLiteral("torch/legacy_dtypes.pt")))->formatName(),
             QStringLiteral("PyTorch legacy"));
    QCOMPARE(openOrFail(dataFile(QStringLiteral("emulated/e_tar_dtypes.pt")))->formatName(),
             QStringLiteral("PyTorch tar"));
    QCOMPARE(openOrFail(dataFile(QStringLiteral("torch/torchscript.pt")))->formatName(),
             QStringLiteral("TorchScript"));
}

void TestPickleCheckpoints::headerPageShowsTheDisassembly()
{
    const auto c = openOrFail(dataFile(QStringLiteral("torch/zip_views.pt")));
    const ts::RawHeader h = c->rawHeader(1 << 20);
    QVERIFY(h.preformatted);
    QVERIFY(h.source.endsWith(QLatin1String("(data.pkl)")));
    QVERIFY(h.bytes.contains("GLOBAL 'torch._utils' '_rebuild_tensor_v2'"));
    QVERIFY(h.bytes.contains("BINPERSID"));
    QVERIFY(h.bytes.contains("BINUNICODE 'transposed'"));
    // Offsets are the file's: data.pkl starts at byte 64, so its PROTO is there.
    QVERIFY(h.bytes.startsWith("        64: PROTO 2"));
    const ts::RawHeader small = c->rawHeader(200);
    QVERIFY(small.bytes.size() < 400);
    QVERIFY(small.bytes.contains("the disassembly stops here"));
}

void TestPickleCheckpoints::safetensorsStillOpensAsSafetensors()
{
    const QString st = QStringLiteral(TS_TEST_DATA "/conformance/cases/v_dtype_F16.safetensors");
    QCOMPARE(openOrFail(st)->formatName(), QStringLiteral("safetensors"));
    // Content decides, not the name: a safetensors file called model.bin is still one.
    QTemporaryDir dir;
    const QString renamed = dir.filePath(QStringLiteral("model.bin"));
    QVERIFY(QFile::copy(st, renamed));
    QCOMPARE(openOrFail(renamed)->formatName(), QStringLiteral("safetensors"));
    // And a pickle checkpoint under any name is one.
    const QString pt = dir.filePath(QStringLiteral("weights.safetensors.bak"));
    QVERIFY(QFile::copy(dataFile(QStringLiteral("torch/zip_dtypes.pt")), pt));
    QCOMPARE(openOrFail(pt)->formatName(), QStringLiteral("PyTorch zip"));
}

void TestPickleCheckpoints::garbageIsRefusedWithASentence()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("model.pt"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray("\x01\x02\x03 not a checkpoint at all", 26));
    f.close();
    auto opened = ts::Checkpoint::open(path);
    QVERIFY(!opened);
    QVERIFY(!opened.error().message.isEmpty());
    // A zip that is cut short: an error naming what is missing, not a crash.
    const QByteArray zip = fileBytes(dataFile(QStringLiteral("torch/zip_dtypes.pt")));
    auto cut = ts::PyTorchCheckpoint::fromSource(
        std::make_shared<ts::MemorySource>(zip.left(zip.size() - 30)), QStringLiteral("cut.pt"), {});
    QVERIFY(!cut);
    QVERIFY2(cut.error().message.contains(QLatin1String("end of central directory")),
             qPrintable(cut.error().message));
}

void TestPickleCheckpoints::pickleOfSomethingElseIsShownAsAPickle()
{
    // A plain pickle of a dict (protocol 2, no torch magic number): shown, its globals listed.
    static const char kPickle[] = "\x80\x02"
                                  "}q\x00("
                                  "X\x01\x00\x00\x00"
                                  "a"
                                  "q\x01K\x01"
                                  "X\x01\x00\x00\x00"
                                  "b"
                                  "q\x02"
                                  "cargparse\nNamespace\n"
                                  "q\x03)\x81q\x04}q\x05"
                                  "bu.";
    const QByteArray pkl(kPickle, sizeof kPickle - 1);
    auto c = ts::PyTorchCheckpoint::fromSource(std::make_shared<ts::MemorySource>(pkl),
                                               QStringLiteral("x.pkl"), {});
    QVERIFY2(c, c ? "" : qPrintable(c.error().toString()));
    QCOMPARE((*c)->formatName(), QStringLiteral("Python pickle"));
    QCOMPARE((*c)->tensors().size(), std::size_t{0});
    QCOMPARE((*c)->globals().size(), std::size_t{1});
    QCOMPARE((*c)->globals().front().verdict.cls, ts::pickle::GlobalClass::Unknown);
    QVERIFY(!(*c)->capabilities().convertFrom);
}

QTEST_GUILESS_MAIN(TestPickleCheckpoints)
#include "tst_pickle_checkpoints.moc"
