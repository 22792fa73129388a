// A folder is one model only when an index or the shard naming says so: two unrelated models,
// or two copies of one, are listed (FolderModels) and never merged.
#include "Fixtures.h"
#include "TestFiles.h"
#include "checkpoint/Checkpoint.h"
#include "checkpoint/FolderModels.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace ts;

namespace {

void copyFixture(const QString& fixture, const QTemporaryDir& dir, const QString& as)
{
    QVERIFY(!ts::test::copyFixture(fixture, dir.path(), as).isEmpty());
}

void copyShardsInto(const QTemporaryDir& dir, bool withIndex)
{
    QVERIFY(ts::test::copyFixtureFiles(QStringLiteral("face_recognition_sharded"), dir.path()));
    if (!withIndex)
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("model.safetensors.index.json"))));
}

QStringList labels(const std::vector<FolderModel>& models)
{
    QStringList out;
    for (const FolderModel& m : models)
        out << m.label;
    return out;
}

} // namespace

class TestFolderModels : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { TS_REQUIRE_SHARED_FIXTURES(); }

    void shardNames()
    {
        QString stem;
        int n = 0, total = 0;
        QVERIFY(FolderModels::parseShardName(QStringLiteral("model-00002-of-00005.safetensors"), &stem, &n,
                                             &total));
        QCOMPARE(stem, QStringLiteral("model"));
        QCOMPARE(n, 2);
        QCOMPARE(total, 5);
        QVERIFY(FolderModels::parseShardName(
            QStringLiteral("diffusion_pytorch_model-00001-of-00003.safetensors"), &stem, &n, &total));
        QCOMPARE(stem, QStringLiteral("diffusion_pytorch_model"));
        QVERIFY(!FolderModels::parseShardName(QStringLiteral("model-00006-of-00005.safetensors"), &stem, &n,
                                              &total));
        QVERIFY(!FolderModels::parseShardName(QStringLiteral("model-00000-of-00005.safetensors"), &stem, &n,
                                              &total));
        QVERIFY(!FolderModels::parseShardName(QStringLiteral("model-1-of-2.safetensors"), &stem, &n, &total));
        QVERIFY(!FolderModels::parseShardName(QStringLiteral("model.safetensors"), &stem, &n, &total));
    }

    void twoUnrelatedModelsAreListedNotMerged()
    {
        QTemporaryDir dir;
        copyFixture(QStringLiteral("face_landmark_68_f32.safetensors"), dir,
                    QStringLiteral("landmarks.safetensors"));
        copyFixture(QStringLiteral("tiny_face_detector_u8.safetensors"), dir,
                    QStringLiteral("detector.safetensors"));
        QCOMPARE(
            labels(FolderModels::list(dir.path())),
            (QStringList{QStringLiteral("detector.safetensors"), QStringLiteral("landmarks.safetensors")}));
        auto model = Checkpoint::open(dir.path());
        QVERIFY(!model);
        QCOMPARE(model.error().code, ErrorCode::SeveralModels);
        QVERIFY2(model.error().message.contains(QStringLiteral("2 models")),
                 qPrintable(model.error().toString()));
        QVERIFY(
            model.error().message.contains(QStringLiteral("detector.safetensors; landmarks.safetensors")));
    }

    void twoCopiesOfOneModelAreTwoModels()
    {
        // Merged, they failed with DuplicateTensor and neither could be opened.
        QTemporaryDir dir;
        copyFixture(QStringLiteral("face_landmark_68_f32.safetensors"), dir,
                    QStringLiteral("model.safetensors"));
        copyFixture(QStringLiteral("face_landmark_68_f32.safetensors"), dir,
                    QStringLiteral("model (1).safetensors"));
        auto model = Checkpoint::open(dir.path());
        QVERIFY(!model);
        QCOMPARE(model.error().code, ErrorCode::SeveralModels);
        QVERIFY(Checkpoint::open(dir.filePath(QStringLiteral("model (1).safetensors"))));
    }

    void shardNamingWithoutAnIndexIsOneModel()
    {
        QTemporaryDir dir;
        copyShardsInto(dir, false);
        const auto models = FolderModels::list(dir.path());
        QCOMPARE(labels(models), QStringList{QStringLiteral("model-*-of-00002.safetensors (2 shards)")});
        QCOMPARE(models.front().kind, FolderModel::Kind::ShardSet);
        QVERIFY(models.front().missing.isEmpty());
        auto model = Checkpoint::open(dir.path());
        QVERIFY2(model, qPrintable(model ? QString() : model.error().toString()));
        QCOMPARE((*model)->kind(), Checkpoint::Kind::FolderOfShards);
        QCOMPARE((*model)->parts().size(), std::size_t(2));
        QCOMPARE((*model)->tensors().size(), std::size_t(117));
    }

    void aMissingShardIsNamed()
    {
        QTemporaryDir dir;
        copyShardsInto(dir, false);
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("model-00002-of-00002.safetensors"))));
        auto model = Checkpoint::open(dir.path());
        QVERIFY(!model);
        QCOMPARE(model.error().code, ErrorCode::ShardMissing);
        QVERIFY2(model.error().message.contains(QStringLiteral("model-00002-of-00002.safetensors")),
                 qPrintable(model.error().toString()));
    }

    void theIndexClaimsItsShardsAndWinsOverOtherFiles()
    {
        QTemporaryDir dir;
        copyShardsInto(dir, true);
        copyFixture(QStringLiteral("face_landmark_68_f32.safetensors"), dir,
                    QStringLiteral("consolidated.safetensors"));
        // The shards belong to the index, not to a set of their own.
        QCOMPARE(labels(FolderModels::list(dir.path())),
                 (QStringList{QStringLiteral("model.safetensors.index.json"),
                              QStringLiteral("consolidated.safetensors")}));
        auto model = Checkpoint::open(dir.path()); // transformers' choice: model.safetensors.index.json
        QVERIFY(model);
        QCOMPARE((*model)->tensors().size(), std::size_t(117));
    }

    void anyOtherIndexAndAFileAreTwoModels()
    {
        QTemporaryDir dir;
        copyShardsInto(dir, true);
        QVERIFY(QFile::rename(dir.filePath(QStringLiteral("model.safetensors.index.json")),
                              dir.filePath(QStringLiteral("face.safetensors.index.json"))));
        copyFixture(QStringLiteral("face_landmark_68_f32.safetensors"), dir,
                    QStringLiteral("other.safetensors"));
        auto model = Checkpoint::open(dir.path());
        QVERIFY(!model);
        QCOMPARE(model.error().code, ErrorCode::SeveralModels);
    }

    void everyListedModelOpensByItsLocation()
    {
        // Two copies of a model beside a shard set without an index: three models; each opens
        // alone by the location the list gives, the shard set by its pattern path.
        QTemporaryDir dir;
        copyShardsInto(dir, false);
        copyFixture(QStringLiteral("face_landmark_68_f32.safetensors"), dir, QStringLiteral("a.safetensors"));
        copyFixture(QStringLiteral("face_landmark_68_f32.safetensors"), dir, QStringLiteral("b.safetensors"));
        const auto models = FolderModels::list(dir.path());
        QCOMPARE(models.size(), std::size_t(3));
        QCOMPARE(models[0].location, dir.filePath(QStringLiteral("model-*-of-00002.safetensors")));
        QCOMPARE(models[1].location, dir.filePath(QStringLiteral("a.safetensors")));
        auto set = Checkpoint::open(models[0].location);
        QVERIFY2(set, qPrintable(set ? QString() : set.error().toString()));
        QCOMPARE((*set)->kind(), Checkpoint::Kind::FolderOfShards);
        QCOMPARE((*set)->tensors().size(), std::size_t(117));
        QCOMPARE((*set)->path(), models[0].location);
        for (std::size_t i = 1; i < models.size(); ++i) {
            auto one = Checkpoint::open(models[i].location);
            QVERIFY(one);
            QCOMPARE((*one)->kind(), Checkpoint::Kind::SingleFile);
        }
        // A pattern that names no shard set is a sentence, not an empty model.
        auto none = Checkpoint::open(dir.filePath(QStringLiteral("other-*-of-00002.safetensors")));
        QVERIFY(!none);
        QVERIFY2(none.error().message.contains(QStringLiteral("no shard named like")),
                 qPrintable(none.error().toString()));
        // A shard missing from the set is named when the set is opened by its pattern, too.
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("model-00002-of-00002.safetensors"))));
        auto cut = Checkpoint::open(models[0].location);
        QVERIFY(!cut);
        QCOMPARE(cut.error().code, ErrorCode::ShardMissing);
    }

    void oneFileIsOneModel()
    {
        QTemporaryDir dir;
        copyFixture(QStringLiteral("face_landmark_68_f32.safetensors"), dir,
                    QStringLiteral("only.safetensors"));
        auto model = Checkpoint::open(dir.path());
        QVERIFY(model);
        QCOMPARE((*model)->kind(), Checkpoint::Kind::SingleFile);
    }
};

QTEST_GUILESS_MAIN(TestFolderModels)
#include "tst_folder_models.moc"
