// The container seam: what a Checkpoint says about its parts, its tensors' bytes and what it
// supports, for a single file, a sharded model by index and by folder, and bytes from memory. Every
// byte offset is checked against the file read independently (prefix decoded here, not by the core).
#include "Fixtures.h"
#include "TestFiles.h"
#include "checkpoint/Checkpoint.h"
#include "checkpoint/CheckpointLocator.h"
#include "checkpoint/SafetensorsCheckpoint.h"
#include "format/SafetensorsFile.h"
#include "io/MemorySource.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

namespace {

std::uint64_t prefixOf(const QByteArray& bytes)
{
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
        n = (n << 8) | static_cast<unsigned char>(bytes[i]);
    return n;
}

// Reads tensor `i` through the checkpoint's location and compares with the file's own bytes at
// 8 + N + begin of the part that holds it.
void checkTensorBytes(const ts::Checkpoint& checkpoint, int i)
{
    const ts::CheckpointTensor& t = checkpoint.tensors()[static_cast<std::size_t>(i)];
    const ts::CheckpointPart& part = checkpoint.partOf(i);
    const QByteArray file = ts::test::readFile(part.localPath);
    const std::uint64_t start = 8 + prefixOf(file) + t.info.begin;
    QCOMPARE(checkpoint.byteOffset(i), start);
    const ts::TensorLocation where = checkpoint.location(i);
    QCOMPARE(where.offset, start);
    QCOMPARE(where.length, t.info.byteSize());
    QCOMPARE(where.source.get(), part.source.get());
    QByteArray read(static_cast<qsizetype>(where.length), Qt::Uninitialized);
    QVERIFY(where.source->read(where.offset, std::as_writable_bytes(std::span(read.data(), read.size()))));
    QCOMPARE(read, file.mid(static_cast<qsizetype>(start), static_cast<qsizetype>(t.info.byteSize())));
}

} // namespace

class TestCheckpoint : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { TS_REQUIRE_SHARED_FIXTURES(); }

    void singleFileIsOneEditablePart()
    {
        const QString path = ts::test::realFixture(QStringLiteral("face_landmark_68_f32.safetensors"));
        auto opened = ts::Checkpoint::open(path);
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().toString()));
        const ts::Checkpoint& c = **opened;
        QCOMPARE(c.formatName(), QStringLiteral("safetensors"));
        QCOMPARE(c.kind(), ts::Checkpoint::Kind::SingleFile);
        QVERIFY(c.capabilities().editMetadata);
        QVERIFY(c.capabilities().saveInPlace);
        QVERIFY(c.capabilities().convertFrom);
        QVERIFY(c.safetensorsFile());
        QVERIFY(!c.shardIndex());
        QCOMPARE(c.parts().size(), std::size_t(1));
        const ts::CheckpointPart& part = c.parts().front();
        QCOMPARE(part.name, QStringLiteral("face_landmark_68_f32.safetensors"));
        QCOMPARE(part.localPath, path);
        QCOMPARE(part.tensorCount, c.tensors().size());
        const QByteArray file = ts::test::readFile(path);
        QCOMPARE(part.headerBytes, 8 + prefixOf(file));
        QCOMPARE(part.size(), std::uint64_t(file.size()));
        QCOMPARE(c.files(), QStringList{path});
        for (int i = 0; i < int(c.tensors().size()); ++i)
            checkTensorBytes(c, i);
        // The raw header is the file's JSON, with the length the prefix declares.
        const ts::RawHeader raw = c.rawHeader(1 << 20);
        QCOMPARE(raw.declaredBytes, prefixOf(file));
        QCOMPARE(raw.bytes, file.mid(8, static_cast<qsizetype>(prefixOf(file))));
    }

    void shardedModelIsReadOnlyAndPlacesEveryTensorInItsShard_data()
    {
        QTest::addColumn<QString>("opened");
        QTest::addColumn<int>("kind");
        const QString dir = ts::test::realFixture(QStringLiteral("face_recognition_sharded"));
        QTest::newRow("index") << dir + QStringLiteral("/model.safetensors.index.json")
                               << int(ts::Checkpoint::Kind::IndexedShards);
        QTest::newRow("folder") << dir << int(ts::Checkpoint::Kind::FolderOfShards);
    }

    void shardedModelIsReadOnlyAndPlacesEveryTensorInItsShard()
    {
        QFETCH(QString, opened);
        QFETCH(int, kind);
        auto checkpoint = ts::Checkpoint::open(opened);
        QVERIFY2(checkpoint, qPrintable(checkpoint ? QString() : checkpoint.error().toString()));
        const ts::Checkpoint& c = **checkpoint;
        QCOMPARE(int(c.kind()), kind);
        QVERIFY(!c.capabilities().editMetadata);
        QVERIFY(!c.capabilities().saveInPlace);
        QVERIFY(c.capabilities().convertFrom);
        QVERIFY(!c.safetensorsFile());
        QVERIFY(c.shardIndex());
        QCOMPARE(c.parts().size(), std::size_t(2));
        // In the order the index first names them (this one names shard 2 first).
        const QStringList names{c.parts()[0].name, c.parts()[1].name};
        QVERIFY(names.contains(QStringLiteral("model-00001-of-00002.safetensors")));
        QVERIFY(names.contains(QStringLiteral("model-00002-of-00002.safetensors")));
        QCOMPARE(c.parts()[0].tensorCount + c.parts()[1].tensorCount, c.tensors().size());
        // Both shards and the index: what a save must never write over.
        QCOMPARE(c.files().size(), 3);
        QVERIFY(c.files().last().endsWith(QLatin1String("model.safetensors.index.json")));
        for (int i = 0; i < int(c.tensors().size()); ++i)
            checkTensorBytes(c, i);
    }

    void locatorResolvesWithoutReadingTensors()
    {
        const QString dir = ts::test::realFixture(QStringLiteral("face_recognition_sharded"));
        auto byIndex = ts::CheckpointLocator::locate(dir + QStringLiteral("/model.safetensors.index.json"));
        QVERIFY(byIndex);
        QCOMPARE(byIndex->kind, ts::Checkpoint::Kind::IndexedShards);
        QCOMPARE(byIndex->parts.size(), 2);
        QVERIFY(byIndex->shardIndex);
        // A folder holding one file opens that file, named after the folder.
        QTemporaryDir tmp;
        QVERIFY(QFile::copy(ts::test::realFixture(QStringLiteral("face_landmark_68_f32.safetensors")),
                            tmp.filePath(QStringLiteral("only.safetensors"))));
        auto single = ts::CheckpointLocator::locate(tmp.path());
        QVERIFY(single);
        QCOMPARE(single->kind, ts::Checkpoint::Kind::SingleFile);
        QCOMPARE(single->origin, tmp.path());
        QCOMPARE(single->parts, QStringList{tmp.filePath(QStringLiteral("only.safetensors"))});
        auto opened = ts::Checkpoint::open(tmp.path());
        QVERIFY(opened);
        QCOMPARE((*opened)->path(), tmp.path());
        QCOMPARE((*opened)->displayName(), QDir(tmp.path()).dirName());
        // A missing shard is named before any shard is opened.
        QTemporaryDir broken;
        QVERIFY(QFile::copy(dir + QStringLiteral("/model.safetensors.index.json"),
                            broken.filePath(QStringLiteral("model.safetensors.index.json"))));
        QVERIFY(QFile::copy(dir + QStringLiteral("/model-00001-of-00002.safetensors"),
                            broken.filePath(QStringLiteral("model-00001-of-00002.safetensors"))));
        auto missing = ts::CheckpointLocator::locate(broken.path());
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, ts::ErrorCode::ShardMissing);
        QVERIFY(missing.error().message.contains(QLatin1String("model-00002-of-00002.safetensors")));
    }

    void bytesFromElsewhereAreNotEditable()
    {
        // Bytes that are no local file (memory today, a URL later): readable and convertible, but
        // there is no file to save to, to watch or to find journals beside.
        const QByteArray file =
            ts::test::readFile(ts::test::realFixture(QStringLiteral("face_landmark_68_f32.safetensors")));
        auto parsed =
            ts::SafetensorsFile::fromSource(std::make_shared<ts::MemorySource>(file, QStringLiteral("mem")));
        QVERIFY(parsed);
        const auto c = ts::SafetensorsCheckpoint::fromFile(parsed.value());
        QVERIFY(!c->capabilities().editMetadata);
        QVERIFY(!c->capabilities().saveInPlace);
        QVERIFY(c->capabilities().convertFrom);
        QVERIFY(c->files().isEmpty());
        QVERIFY(c->parts().front().localPath.isEmpty());
        QCOMPARE(c->tensors().size(), std::size_t(49));
    }
};

QTEST_GUILESS_MAIN(TestCheckpoint)
#include "tst_checkpoint.moc"
