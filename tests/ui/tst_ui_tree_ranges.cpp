// A group of more than TensorTreeModel::kBucketThreshold children is shown in ranges of
// kBucketSize: the model stays a consistent tree (indexes, parents, totals), the filter shows a
// range while any of its entries matches, and selecting a tensor opens its range.
#include "TensorCount.h"
#include "UiTestUtils.h"
#include "checkpoint/NameTree.h"
#include "checkpoint/TensorNameFilter.h"
#include "checkpoint/TreeFilter.h"
#include "format/HeaderSerializer.h"
#include "tensor/TensorBrowser.h"
#include "tensor/TensorFilterProxy.h"
#include "tensor/TensorTreeModel.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace ts;
using namespace ts::ui;
using namespace ts::test;

namespace {

// "wide.w0" ... "wide.w60000" (one group of 60,001) and "narrow.a", "narrow.b".
constexpr int kWide = 60'001;

} // namespace

class TestUiTreeRanges : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void aHugeGroupIsShownInRanges();
    void everyTensorHasItsPlace();
    void theFilterShowsRangesWithMatches();
    void selectingATensorOpensItsRange();

private:
    QTemporaryDir m_dir;
    std::shared_ptr<const Checkpoint> m_model;
    std::shared_ptr<const NameTree> m_tree;
};

void TestUiTreeRanges::initTestCase()
{
    QVERIFY(m_dir.isValid());
    std::vector<TensorInfo> tensors;
    std::uint64_t offset = 0;
    const auto add = [&](const QString& name, std::uint64_t bytes) {
        TensorInfo t;
        t.name = name;
        t.dtype = Dtype::U8;
        t.shape = {bytes};
        t.begin = offset;
        t.end = offset + bytes;
        offset = t.end;
        tensors.push_back(std::move(t));
    };
    for (int i = 0; i < kWide; ++i)
        add(QStringLiteral("wide.w%1").arg(i), 1);
    add(QStringLiteral("narrow.a"), 3);
    add(QStringLiteral("narrow.b"), 4);
    QByteArray bytes = serializeHeader(tensors, std::nullopt);
    bytes.append(QByteArray(static_cast<qsizetype>(offset), '\0'));
    const QString path = m_dir.filePath(QStringLiteral("wide.safetensors"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes), bytes.size());
    f.close();
    auto opened = Checkpoint::open(path);
    QVERIFY2(opened.ok(), opened.ok() ? "" : qPrintable(opened.error().toString()));
    m_model = opened.value();
    m_tree = std::make_shared<const NameTree>(*m_model);
}

void TestUiTreeRanges::aHugeGroupIsShownInRanges()
{
    TensorTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setModel(m_model, m_tree);
    QCOMPARE(model.rowCount(), 2); // narrow, wide: the root is small
    const QModelIndex wide = model.index(1, 0);
    QCOMPARE(wide.data(TensorTreeModel::PathRole).toString(), QStringLiteral("wide"));
    const int ranges = (kWide + TensorTreeModel::kBucketSize - 1) / TensorTreeModel::kBucketSize;
    QCOMPARE(model.rowCount(wide), ranges);
    std::uint64_t total = 0;
    for (int r = 0; r < ranges; ++r) {
        const QModelIndex range = model.index(r, 0, wide);
        QCOMPARE(model.parent(range), wide);
        QCOMPARE(model.node(range), NameTree::kNone);
        QCOMPARE(range.data(TensorTreeModel::TensorIndexRole).toInt(), -1);
        const int rows = model.rowCount(range);
        QCOMPARE(rows, r + 1 < ranges ? TensorTreeModel::kBucketSize : kWide % TensorTreeModel::kBucketSize);
        // Named by its first and last entries, in the tree's natural order.
        const QString first = model.index(0, 0, range).data().toString();
        const QString last = model.index(rows - 1, 0, range).data().toString();
        QCOMPARE(range.data().toString(), first + QStringLiteral(" \u2026 ") + last);
        QCOMPARE(model.parent(model.index(rows - 1, 0, range)), range);
        total += range.data(TensorTreeModel::TensorCountRole).toULongLong();
        QCOMPARE(range.data(TensorTreeModel::DtypeRole).toInt(), static_cast<int>(Dtype::U8));
    }
    QCOMPARE(model.index(0, 0, model.index(0, 0, wide)).data().toString(), QStringLiteral("w0"));
    QCOMPARE(model.index(0, 0, model.index(ranges - 1, 0, wide)).data().toString(),
             QStringLiteral("w%1").arg((ranges - 1) * TensorTreeModel::kBucketSize));
    QCOMPARE(total, std::uint64_t(kWide));
    QCOMPARE(std::uint64_t(countTensors(&model)), std::uint64_t(kWide + 2));
    // A small group is not split.
    QCOMPARE(model.rowCount(model.index(0, 0)), 2);
    model.clear();
}

void TestUiTreeRanges::everyTensorHasItsPlace()
{
    TensorTreeModel model;
    model.setModel(m_model, m_tree);
    for (const char* name :
         {"wide.w0", "wide.w9999", "wide.w10000", "wide.w59999", "wide.w60000", "narrow.b"}) {
        const int tensor = m_model->indexOf(QString::fromLatin1(name));
        QVERIFY(tensor >= 0);
        const QModelIndex index = model.indexForTensor(tensor);
        QVERIFY(index.isValid());
        QCOMPARE(index.data(TensorTreeModel::PathRole).toString(), QString::fromLatin1(name));
        // The index is the one its parent gives for its row: the view and the proxy find it.
        QCOMPARE(model.index(index.row(), 0, model.parent(index)), index);
        const bool inRange = QByteArray(name).startsWith("wide.");
        QCOMPARE(model.rangeOf(model.parent(index)).has_value(), inRange);
        QCOMPARE(model.viewDepth(m_tree->nodeForTensor(tensor)), inRange ? 3 : 2);
    }
}

void TestUiTreeRanges::theFilterShowsRangesWithMatches()
{
    TensorTreeModel model;
    TensorFilterProxy proxy;
    proxy.setSourceModel(&model);
    model.setModel(m_model, m_tree);
    // w1, w10-w19, w100-w199, w1000-w1999 and w10000-w19999 (11,111 names): the first two ranges.
    const auto pass = std::make_shared<const TreeFilterResult>(
        filterTree(*m_model, *m_tree,
                   TensorNameFilter(TensorNameFilter::Mode::Glob, QStringLiteral("wide.w1*"), std::nullopt)));
    QCOMPARE(pass->matches, std::uint64_t(11111));
    proxy.setResult(pass);
    QCOMPARE(proxy.rowCount(), 1); // wide
    const QModelIndex wide = proxy.index(0, 0);
    QCOMPARE(proxy.rowCount(wide), 2);
    QVERIFY(proxy.hasChildren(proxy.index(0, 0, wide)));
    QCOMPARE(std::uint64_t(countTensors(&proxy)), pass->matches);
    // One match in the last range.
    const auto last = std::make_shared<const TreeFilterResult>(filterTree(
        *m_model, *m_tree,
        TensorNameFilter(TensorNameFilter::Mode::Substring, QStringLiteral("w60000"), std::nullopt)));
    proxy.setResult(last);
    QCOMPARE(proxy.rowCount(proxy.index(0, 0)), 1);
    QCOMPARE(std::uint64_t(countTensors(&proxy)), std::uint64_t(1));
}

void TestUiTreeRanges::selectingATensorOpensItsRange()
{
    TensorBrowser browser;
    browser.resize(900, 600);
    browser.setModel(m_model, m_tree);
    QVERIFY(browser.selectTensor(QStringLiteral("wide.w45678")));
    auto* view = browser.findChild<QTreeView*>();
    QVERIFY(view);
    const QModelIndex current = view->currentIndex();
    QCOMPARE(current.data(TensorTreeModel::PathRole).toString(), QStringLiteral("wide.w45678"));
    QVERIFY(view->isExpanded(current.parent()));          // its range
    QVERIFY(view->isExpanded(current.parent().parent())); // "wide"
}

QTEST_MAIN(TestUiTreeRanges)
#include "tst_ui_tree_ranges.moc"
