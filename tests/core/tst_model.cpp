// Real fixtures through the model and the name tree.
#include "Fixtures.h"
#include "base/Format.h"
#include "checkpoint/Checkpoint.h"
#include "checkpoint/NameTree.h"

#include <QTest>

namespace {

const ts::DtypeTotals* totalsFor(const ts::NameTreeNode& node, ts::Dtype dtype)
{
    for (const auto& t : node.byDtype) {
        if (t.dtype == dtype)
            return &t;
    }
    return nullptr;
}

} // namespace

class TestModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { TS_REQUIRE_SHARED_FIXTURES(); }

    void realFixturesOpenWithTheirTensorCounts_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("tensors");
        QTest::newRow("f16") << QStringLiteral("face_recognition_f16.safetensors") << 117;
        QTest::newRow("bf16+i32") << QStringLiteral("ssd_mobilenetv1_bf16.safetensors") << 151;
        QTest::newRow("f32") << QStringLiteral("face_landmark_68_f32.safetensors") << 49;
        QTest::newRow("u8") << QStringLiteral("tiny_face_detector_u8.safetensors") << -1;
        QTest::newRow("anomalies") << QStringLiteral("age_gender_anomalies_f32.safetensors") << -1;
    }

    void realFixturesOpenWithTheirTensorCounts()
    {
        QFETCH(QString, file);
        QFETCH(int, tensors);
        auto model = ts::Checkpoint::open(ts::test::realFixture(file));
        QVERIFY2(model, qPrintable(model ? QString() : model.error().toString()));
        if (tensors >= 0)
            QCOMPARE(int((*model)->tensors().size()), tensors);
        // Written like the reference writer: no warning at all.
        QVERIFY((*model)->warnings().empty());
        // Bytes add up: header + tensors = file.
        QCOMPARE((*model)->headerBytes() + (*model)->totalTensorBytes(), (*model)->totalFileBytes());
    }

    void mixedDtypesAreTotalledPerDtype()
    {
        // The quantised fixture stores U8 codes with F32 scales.
        auto model =
            ts::Checkpoint::open(ts::test::realFixture(QStringLiteral("tiny_face_detector_u8.safetensors")));
        QVERIFY(model);
        const ts::NameTree tree(**model);
        const auto* u8 = totalsFor(tree.root(), ts::Dtype::U8);
        const auto* f32 = totalsFor(tree.root(), ts::Dtype::F32);
        QVERIFY(u8 && f32);
        std::uint64_t u8Params = 0, f32Params = 0;
        for (const ts::CheckpointTensor& t : (*model)->tensors())
            (t.info.dtype == ts::Dtype::U8 ? u8Params : f32Params) += t.info.elementCount();
        QCOMPARE(u8->parameters, u8Params);
        QCOMPARE(f32->parameters, f32Params);
        QCOMPARE(f32->bytes, f32Params * 4);
        QCOMPARE(tree.root().parameters, (*model)->totalParameters());
        QCOMPARE(tree.root().tensorCount, std::uint64_t((*model)->tensors().size()));
    }

    void treeGroupsDottedNamesAndSortsNumbersAsNumbers()
    {
        auto model =
            ts::Checkpoint::open(ts::test::realFixture(QStringLiteral("face_recognition_f16.safetensors")));
        QVERIFY(model);
        const ts::NameTree tree(**model);
        // Every tensor is a leaf whose path is its name, and group totals add up.
        for (int i = 0; i < static_cast<int>((*model)->tensors().size()); ++i) {
            const ts::NameTreeNode* node = tree.nodeForTensor(i);
            QVERIFY(node);
            QCOMPARE(node->path(), (*model)->tensors()[static_cast<std::size_t>(i)].info.name);
        }
        std::function<void(const ts::NameTreeNode&)> check = [&](const ts::NameTreeNode& node) {
            if (node.children.empty())
                return;
            std::uint64_t params =
                node.tensor >= 0
                    ? (*model)->tensors()[static_cast<std::size_t>(node.tensor)].info.elementCount()
                    : 0;
            for (std::size_t i = 0; i < node.children.size(); ++i) {
                params += node.children[i]->parameters;
                QCOMPARE(node.children[i]->row(), int(i));
                if (i > 0)
                    QVERIFY(
                        !ts::NameTree::segmentLess(node.children[i]->segment, node.children[i - 1]->segment));
                check(*node.children[i]);
            }
            QCOMPARE(node.parameters, params);
        };
        check(tree.root());
    }

    void segmentOrder()
    {
        QVERIFY(ts::NameTree::segmentLess(QStringLiteral("2"), QStringLiteral("10")));
        QVERIFY(!ts::NameTree::segmentLess(QStringLiteral("10"), QStringLiteral("2")));
        QVERIFY(ts::NameTree::segmentLess(QStringLiteral("9"), QStringLiteral("attn")));
        QVERIFY(ts::NameTree::segmentLess(QStringLiteral("99999999999999999999998"),
                                          QStringLiteral("99999999999999999999999")));
        QVERIFY(ts::NameTree::segmentLess(QStringLiteral("bias"), QStringLiteral("weight")));
    }

    void humanNumbers()
    {
        QCOMPARE(ts::formatCount(7241732096ULL), QStringLiteral("7.24B"));
        QCOMPARE(ts::formatCount(999), QStringLiteral("999"));
        QCOMPARE(ts::formatCount(1500), QStringLiteral("1.5K"));
        QCOMPARE(ts::formatBytes(1536), QStringLiteral("1.50 KiB"));
        QCOMPARE(ts::formatGrouped(1234567), QStringLiteral("1,234,567"));
    }
};

QTEST_GUILESS_MAIN(TestModel)
#include "tst_model.moc"
