// Sharded models: the real two-shard fixture, and broken copies of it made here.
#include "Fixtures.h"
#include "TestFiles.h"
#include "checkpoint/Checkpoint.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kShardDir = QStringLiteral("face_recognition_sharded");

// A writable copy of the sharded fixture, so a test can break it.
QString copyShards(const QTemporaryDir& dir)
{
    ts::test::copyFixtureFiles(kShardDir, dir.path());
    return dir.filePath(QStringLiteral("model.safetensors.index.json"));
}

QJsonObject readIndex(const QString& path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return QJsonDocument::fromJson(f.readAll()).object();
}

void writeIndex(const QString& path, const QJsonObject& index)
{
    QFile f(path);
    f.open(QIODevice::WriteOnly | QIODevice::Truncate);
    f.write(QJsonDocument(index).toJson());
}

} // namespace

class TestShards : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { TS_REQUIRE_SHARED_FIXTURES(); }

    void indexFolderAndSingleFileAgree()
    {
        auto byIndex = ts::Checkpoint::open(
            ts::test::realFixture(kShardDir + QStringLiteral("/model.safetensors.index.json")));
        QVERIFY2(byIndex, qPrintable(byIndex ? QString() : byIndex.error().toString()));
        auto byFolder = ts::Checkpoint::open(ts::test::realFixture(kShardDir));
        QVERIFY(byFolder);
        QCOMPARE((*byIndex)->parts().size(), std::size_t(2));
        QCOMPARE((*byIndex)->tensors().size(), std::size_t(117));
        QCOMPARE((*byFolder)->tensors().size(), std::size_t(117));
        QCOMPARE((*byIndex)->kind(), ts::Checkpoint::Kind::IndexedShards);
        QCOMPARE((*byFolder)->kind(), ts::Checkpoint::Kind::FolderOfShards);
        QCOMPARE((*byIndex)->totalTensorBytes(), std::uint64_t(22458368)); // total_size in the index
        // The same network as the single F16 file: same names, same shapes.
        auto single =
            ts::Checkpoint::open(ts::test::realFixture(QStringLiteral("face_recognition_f16.safetensors")));
        QVERIFY(single);
        for (const ts::CheckpointTensor& t : (*single)->tensors()) {
            const int i = (*byIndex)->indexOf(t.info.name);
            QVERIFY2(i >= 0, qPrintable(t.info.name));
            QCOMPARE((*byIndex)->tensors()[static_cast<std::size_t>(i)].info.shape, t.info.shape);
        }
        // Every tensor's location is inside its own shard.
        for (int i = 0; i < static_cast<int>((*byIndex)->tensors().size()); ++i) {
            const ts::TensorLocation loc = (*byIndex)->location(i);
            QVERIFY(loc.offset + loc.length <= loc.source->size());
        }
    }

    void missingShard()
    {
        QTemporaryDir dir;
        const QString index = copyShards(dir);
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("model-00002-of-00002.safetensors"))));
        auto model = ts::Checkpoint::open(index);
        QVERIFY(!model);
        QCOMPARE(model.error().code, ts::ErrorCode::ShardMissing);
        QVERIFY(model.error().message.contains(QStringLiteral("model-00002-of-00002.safetensors")));
    }

    void tensorListedButAbsent()
    {
        QTemporaryDir dir;
        const QString index = copyShards(dir);
        QJsonObject json = readIndex(index);
        QJsonObject map = json.value(QStringLiteral("weight_map")).toObject();
        map.insert(QStringLiteral("ghost.weight"), QStringLiteral("model-00001-of-00002.safetensors"));
        json.insert(QStringLiteral("weight_map"), map);
        writeIndex(index, json);
        auto model = ts::Checkpoint::open(index);
        QVERIFY(!model);
        QCOMPARE(model.error().code, ts::ErrorCode::ShardMismatch);
        QCOMPARE(model.error().tensor, QStringLiteral("ghost.weight"));
    }

    void tensorInShardButNotListed()
    {
        QTemporaryDir dir;
        const QString index = copyShards(dir);
        QJsonObject json = readIndex(index);
        QJsonObject map = json.value(QStringLiteral("weight_map")).toObject();
        const QString dropped = map.keys().front();
        map.remove(dropped);
        json.insert(QStringLiteral("weight_map"), map);
        writeIndex(index, json);
        auto model = ts::Checkpoint::open(index);
        QVERIFY(!model);
        QCOMPARE(model.error().code, ts::ErrorCode::ShardMismatch);
        QCOMPARE(model.error().tensor, dropped);
    }

    void sameNameInTwoShards()
    {
        QTemporaryDir dir;
        copyShards(dir);
        // The naming makes the two files one model (no index); the second is a copy of the first.
        // (A copy under another name is a second model: tst_folder_models.)
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("model.safetensors.index.json"))));
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("model-00002-of-00002.safetensors"))));
        QVERIFY(QFile::copy(dir.filePath(QStringLiteral("model-00001-of-00002.safetensors")),
                            dir.filePath(QStringLiteral("model-00002-of-00002.safetensors"))));
        auto model = ts::Checkpoint::open(dir.path());
        QVERIFY(!model);
        QCOMPARE(model.error().code, ts::ErrorCode::DuplicateTensor);
        QVERIFY(model.error().message.contains(QStringLiteral("model-00002-of-00002.safetensors")));
    }

    void totalSizeMismatch()
    {
        QTemporaryDir dir;
        const QString index = copyShards(dir);
        QJsonObject json = readIndex(index);
        json.insert(QStringLiteral("metadata"), QJsonObject{{QStringLiteral("total_size"), 12345}});
        writeIndex(index, json);
        auto model = ts::Checkpoint::open(index);
        QVERIFY(!model);
        QCOMPARE(model.error().code, ts::ErrorCode::ShardMismatch);
        QVERIFY(model.error().message.contains(QStringLiteral("12345")));
    }

    void hostileShardPathsAreRefused()
    {
        QTemporaryDir dir;
        const QString index = copyShards(dir);
        QJsonObject json = readIndex(index);
        QJsonObject map = json.value(QStringLiteral("weight_map")).toObject();
        map.insert(map.keys().front(), QStringLiteral("../../etc/passwd"));
        json.insert(QStringLiteral("weight_map"), map);
        writeIndex(index, json);
        auto model = ts::Checkpoint::open(index);
        QVERIFY(!model);
        QCOMPARE(model.error().code, ts::ErrorCode::InvalidShardIndex);
    }

    void folderWithoutModelsAndBadIndex()
    {
        QTemporaryDir dir;
        auto empty = ts::Checkpoint::open(dir.path());
        QVERIFY(!empty);
        QCOMPARE(empty.error().code, ts::ErrorCode::NotAFile);
        const QString index = dir.filePath(QStringLiteral("model.safetensors.index.json"));
        QFile f(index);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"weight_map\": [1, 2]}");
        f.close();
        auto bad = ts::Checkpoint::open(index);
        QVERIFY(!bad);
        QCOMPARE(bad.error().code, ts::ErrorCode::InvalidShardIndex);
    }
};

QTEST_GUILESS_MAIN(TestShards)
#include "tst_shards.moc"
