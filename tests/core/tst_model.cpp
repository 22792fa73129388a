// Real fixtures through the model and the name tree.
#include "Fixtures.h"
#include "base/Format.h"
#include "base/NaturalOrder.h"
#include "checkpoint/Checkpoint.h"
#include "checkpoint/NameTree.h"
#include "checkpoint/SafetensorsCheckpoint.h"
#include "format/HeaderSerializer.h"
#include "io/MemorySource.h"

#include <QTest>

#include <functional>
#include <map>
#include <optional>

namespace {

std::optional<ts::DtypeTotals> totalsFor(const ts::NameTree& tree, ts::NameTree::Node node, ts::Dtype dtype)
{
    for (const auto& t : tree.byDtype(node)) {
        if (t.dtype == dtype)
            return t;
    }
    return std::nullopt;
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
        const auto u8 = totalsFor(tree, ts::NameTree::kRoot, ts::Dtype::U8);
        const auto f32 = totalsFor(tree, ts::NameTree::kRoot, ts::Dtype::F32);
        QVERIFY(u8 && f32);
        std::uint64_t u8Params = 0, f32Params = 0;
        for (const ts::CheckpointTensor& t : (*model)->tensors())
            (t.info.dtype == ts::Dtype::U8 ? u8Params : f32Params) += t.info.elementCount();
        QCOMPARE(u8->parameters, u8Params);
        QCOMPARE(f32->parameters, f32Params);
        QCOMPARE(f32->bytes, f32Params * 4);
        QCOMPARE(tree.parameters(ts::NameTree::kRoot), (*model)->totalParameters());
        QCOMPARE(tree.tensorCount(ts::NameTree::kRoot), std::uint64_t((*model)->tensors().size()));
    }

    void treeGroupsDottedNamesAndSortsNumbersAsNumbers()
    {
        auto model =
            ts::Checkpoint::open(ts::test::realFixture(QStringLiteral("face_recognition_f16.safetensors")));
        QVERIFY(model);
        const ts::NameTree tree(**model);
        // Every tensor is a leaf whose path is its name, and group totals add up.
        for (int i = 0; i < static_cast<int>((*model)->tensors().size()); ++i) {
            const ts::NameTree::Node node = tree.nodeForTensor(i);
            QVERIFY(node != ts::NameTree::kNone);
            QCOMPARE(tree.tensor(node), i);
            QCOMPARE(tree.path(node), (*model)->tensors()[static_cast<std::size_t>(i)].info.name);
        }
        std::function<void(ts::NameTree::Node)> check = [&](ts::NameTree::Node node) {
            const int tensor = tree.tensor(node);
            std::uint64_t params =
                tensor >= 0 ? (*model)->tensors()[static_cast<std::size_t>(tensor)].info.elementCount() : 0;
            std::uint64_t count = tensor >= 0 ? 1 : 0;
            for (int i = 0; i < tree.childCount(node); ++i) {
                const ts::NameTree::Node child = tree.child(node, i);
                params += tree.parameters(child);
                count += tree.tensorCount(child);
                QCOMPARE(tree.row(child), i);
                QCOMPARE(tree.parent(child), node);
                if (i > 0)
                    QVERIFY(!ts::NameTree::segmentLess(tree.segment(child),
                                                       tree.segment(tree.child(node, i - 1))));
                check(child);
            }
            QCOMPARE(tree.parameters(node), params);
            QCOMPARE(tree.tensorCount(node), count);
            QCOMPARE(std::uint64_t(tree.tensorsUnder(node).size()), count);
        };
        check(ts::NameTree::kRoot);
    }

    void flatTreeMatchesATreeBuiltNaively()
    {
        // Names that stress the build: a tensor that is also a group ("a.b" and "a.b.c"), empty
        // segments ("x..y", ".lead", "trail."), numbers as numbers across many siblings, case, a
        // name deeper than kMaxNameTreeDepth, and siblings added out of order.
        QStringList names{QStringLiteral("a.b"),         QStringLiteral("a.b.c"),     QStringLiteral("a.b.d"),
                          QStringLiteral("a.10"),        QStringLiteral("a.2"),       QStringLiteral("x..y"),
                          QStringLiteral(".lead"),       QStringLiteral("trail."),    QStringLiteral("B"),
                          QStringLiteral("b"),           QStringLiteral(""),          QStringLiteral("a"),
                          QStringLiteral("Conv2d_10.w"), QStringLiteral("Conv2d_2.w")};
        QStringList deep;
        for (int i = 0; i < ts::kMaxNameTreeDepth + 5; ++i)
            deep << QString::number(i);
        names << deep.join(QLatin1Char('.'));
        for (int i = 0; i < 300; ++i)
            names << QStringLiteral("model.layers.%1.mlp.w%2").arg((i * 37) % 100).arg(i % 3);
        names.removeDuplicates();
        std::vector<ts::TensorInfo> infos;
        std::uint64_t offset = 0;
        for (const QString& name : names) {
            ts::TensorInfo t;
            t.name = name;
            t.dtype = name.size() % 2 ? ts::Dtype::F16 : ts::Dtype::F32;
            t.shape = {std::uint64_t(name.size() + 1)};
            t.begin = offset;
            t.end = offset += t.shape[0] * ts::dtypeBits(t.dtype) / 8;
            infos.push_back(t);
        }
        QByteArray file = ts::serializeHeader(infos, std::nullopt, 0);
        file.append(QByteArray(static_cast<qsizetype>(offset), '\0'));
        auto parsed = ts::SafetensorsFile::fromSource(
            std::make_shared<ts::MemorySource>(file, QStringLiteral("names")));
        QVERIFY2(parsed, qPrintable(parsed ? QString() : parsed.error().toString()));
        const auto checkpoint = ts::SafetensorsCheckpoint::fromFile(parsed.value());
        const ts::NameTree tree(*checkpoint);

        // The naive tree: a map of children per path, sorted with the same comparator.
        struct Naive {
            std::map<QString, Naive> children;
            int tensor = -1;
        };
        Naive root;
        for (std::size_t i = 0; i < checkpoint->tensors().size(); ++i) {
            const QString& name = checkpoint->tensors()[i].info.name;
            QStringList parts = name.split(QLatin1Char('.'));
            if (parts.size() > ts::kMaxNameTreeDepth) {
                const QString rest = parts.mid(ts::kMaxNameTreeDepth - 1).join(QLatin1Char('.'));
                parts = parts.mid(0, ts::kMaxNameTreeDepth - 1);
                parts << rest;
            }
            Naive* node = &root;
            for (const QString& part : parts)
                node = &node->children[part];
            node->tensor = int(i);
        }
        std::function<void(const Naive&, ts::NameTree::Node, int)> compare =
            [&](const Naive& naive, ts::NameTree::Node node, int level) {
                QCOMPARE(tree.tensor(node), naive.tensor);
                QCOMPARE(tree.childCount(node), int(naive.children.size()));
                std::vector<QString> expected;
                for (const auto& [segment, child] : naive.children)
                    expected.push_back(segment);
                std::sort(expected.begin(), expected.end(),
                          [](const QString& a, const QString& b) { return ts::naturalLess(a, b); });
                for (int row = 0; row < tree.childCount(node); ++row) {
                    const ts::NameTree::Node child = tree.child(node, row);
                    QCOMPARE(tree.segment(child).toString(), expected[std::size_t(row)]);
                    QCOMPARE(tree.depth(child), level + 1);
                    compare(naive.children.at(expected[std::size_t(row)]), child, level + 1);
                }
            };
        compare(root, ts::NameTree::kRoot, 0);
        QCOMPARE(tree.tensorCount(ts::NameTree::kRoot), std::uint64_t(names.size()));
        QCOMPARE(tree.path(tree.nodeForTensor(checkpoint->indexOf(deep.join(QLatin1Char('.'))))),
                 deep.join(QLatin1Char('.')));
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
