// The window's filter pass (filterTree): which tree nodes stay visible for a pattern and a dtype,
// how many tensors matched, its progress and its cancel. The expected sets are computed here the
// plain way (lower-cased std::string search, a walk up each matching name's prefixes), not by the
// code under test.
#include "checkpoint/NameTree.h"
#include "checkpoint/SafetensorsCheckpoint.h"
#include "checkpoint/TreeFilter.h"
#include "format/HeaderSerializer.h"
#include "io/MemorySource.h"

#include <QTest>

#include <algorithm>
#include <set>
#include <string>

using namespace ts;

namespace {

std::shared_ptr<const Checkpoint> makeModel(const QStringList& names)
{
    std::vector<TensorInfo> infos;
    std::uint64_t offset = 0;
    for (int i = 0; i < names.size(); ++i) {
        TensorInfo t;
        t.name = names[i];
        t.dtype = i % 3 == 0 ? Dtype::BF16 : Dtype::F32;
        t.shape = {2};
        t.begin = offset;
        t.end = offset += 2 * dtypeBits(t.dtype) / 8;
        infos.push_back(t);
    }
    QByteArray file = serializeHeader(infos, std::nullopt, 0);
    file.append(QByteArray(static_cast<qsizetype>(offset), '\0'));
    auto parsed = SafetensorsFile::fromSource(std::make_shared<MemorySource>(file, QStringLiteral("names")));
    if (!parsed)
        qFatal("%s", qPrintable(parsed.error().toString()));
    return SafetensorsCheckpoint::fromFile(parsed.value());
}

// Names that stress the tree (a tensor that is also a group, empty segments, a name deeper than
// the tree's depth limit) and 3,000 layer names in 300 blocks.
QStringList stressNames()
{
    QStringList names{QStringLiteral("a.b"),   QStringLiteral("a.b.c"),  QStringLiteral("x..y"),
                      QStringLiteral(".lead"), QStringLiteral("trail."), QStringLiteral("Model.Norm")};
    QStringList deep;
    for (int i = 0; i < kMaxNameTreeDepth + 5; ++i)
        deep << QString::number(i);
    names << deep.join(QLatin1Char('.'));
    for (int b = 0; b < 300; ++b)
        for (int k = 0; k < 10; ++k)
            names << QStringLiteral("model.layers.%1.mlp.w%2").arg(b).arg(k);
    return names;
}

std::string lower(const QString& s)
{
    std::string out = s.toStdString();
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

// The nodes a plain reading says are visible: every prefix path of a matching name (up to the
// tree's depth limit, where the rest of the name is one segment), as paths.
std::set<QString> expectedPaths(const QStringList& matching)
{
    std::set<QString> paths{QString()};
    for (const QString& name : matching) {
        QStringList parts = name.split(QLatin1Char('.'));
        if (parts.size() > kMaxNameTreeDepth) {
            const QString rest = parts.mid(kMaxNameTreeDepth - 1).join(QLatin1Char('.'));
            parts = parts.mid(0, kMaxNameTreeDepth - 1);
            parts << rest;
        }
        for (int i = 1; i <= parts.size(); ++i)
            paths.insert(parts.mid(0, i).join(QLatin1Char('.')));
    }
    return paths;
}

std::set<QString> visiblePaths(const NameTree& tree, const TreeFilterResult& result)
{
    std::set<QString> paths;
    for (NameTree::Node n = 0; n < tree.nodeCount(); ++n)
        if (result.shows(n))
            paths.insert(n == NameTree::kRoot ? QString() : tree.path(n));
    return paths;
}

} // namespace

class TestTreeFilter : public QObject {
    Q_OBJECT
private slots:
    void visibleNodesAreTheMatchesAndTheirGroups_data();
    void visibleNodesAreTheMatchesAndTheirGroups();
    void dtypeAlone();
    void invalidRegexFiltersNothing();
    void progressCountsEveryName();
    void cancelStopsThePass();
};

void TestTreeFilter::visibleNodesAreTheMatchesAndTheirGroups_data()
{
    using Mode = TensorNameFilter::Mode;
    QTest::addColumn<int>("mode");
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("needle"); // what a lower-cased substring search finds, "" = by hand
    QTest::addColumn<QStringList>("byHand");
    QTest::newRow("substring") << int(Mode::Substring) << QStringLiteral("MLP.W7") << QStringLiteral("mlp.w7")
                               << QStringList();
    QTest::newRow("substring, a group's name") << int(Mode::Substring) << QStringLiteral("layers.29.")
                                               << QStringLiteral("layers.29.") << QStringList();
    QTest::newRow("substring, a tensor that is a group")
        << int(Mode::Substring) << QStringLiteral("a.b") << QStringLiteral("a.b") << QStringList();
    QTest::newRow("substring, none") << int(Mode::Substring) << QStringLiteral("lm_head")
                                     << QStringLiteral("lm_head") << QStringList();
    QTest::newRow("glob, whole name")
        << int(Mode::Glob) << QStringLiteral("model.layers.1?.mlp.w0") << QString() << [] {
               QStringList l;
               for (int b = 10; b < 20; ++b)
                   l << QStringLiteral("model.layers.%1.mlp.w0").arg(b);
               return l;
           }();
    QTest::newRow("regex, the deep name")
        << int(Mode::Regex) << QStringLiteral("^0\\.1\\.2\\..*68$") << QString() << [] {
               QStringList deep;
               for (int i = 0; i < kMaxNameTreeDepth + 5; ++i)
                   deep << QString::number(i);
               return QStringList{deep.join(QLatin1Char('.'))};
           }();
    QTest::newRow("regex, empty segments")
        << int(Mode::Regex) << QStringLiteral("\\.\\.|^\\.|\\.$") << QString()
        << QStringList{QStringLiteral("x..y"), QStringLiteral(".lead"), QStringLiteral("trail.")};
}

void TestTreeFilter::visibleNodesAreTheMatchesAndTheirGroups()
{
    QFETCH(int, mode);
    QFETCH(QString, pattern);
    QFETCH(QString, needle);
    QFETCH(QStringList, byHand);
    const QStringList names = stressNames();
    const auto model = makeModel(names);
    const NameTree tree(*model);
    QStringList matching = byHand;
    if (!needle.isEmpty()) {
        for (const QString& name : names)
            if (lower(name).find(lower(needle)) != std::string::npos)
                matching << name;
    }
    const TreeFilterResult result = filterTree(
        *model, tree, TensorNameFilter(static_cast<TensorNameFilter::Mode>(mode), pattern, std::nullopt));
    QVERIFY(!result.cancelled);
    QCOMPARE(result.tree, &tree);
    QCOMPARE(result.visible.size(), tree.nodeCount());
    QCOMPARE(result.matches, std::uint64_t(matching.size()));
    if (matching.isEmpty()) {
        QCOMPARE(std::count(result.visible.begin(), result.visible.end(), 0),
                 std::ptrdiff_t(result.visible.size()));
        return;
    }
    QCOMPARE(visiblePaths(tree, result), expectedPaths(matching));
    // A node says it shows children exactly when one of its children is shown.
    for (NameTree::Node n = 0; n < tree.nodeCount(); ++n) {
        bool any = false;
        for (int row = 0; row < tree.childCount(n); ++row)
            any = any || result.shows(tree.child(n, row));
        QCOMPARE(result.showsChildrenOf(n), any);
    }
}

void TestTreeFilter::dtypeAlone()
{
    const QStringList names = stressNames();
    const auto model = makeModel(names);
    const NameTree tree(*model);
    QStringList bf16;
    for (int i = 0; i < names.size(); ++i)
        if (i % 3 == 0)
            bf16 << names[i];
    const TensorNameFilter filter(TensorNameFilter::Mode::Substring, QString(), Dtype::BF16);
    QVERIFY(filter.isActive());
    const TreeFilterResult result = filterTree(*model, tree, filter);
    QCOMPARE(result.matches, std::uint64_t(bf16.size()));
    QCOMPARE(visiblePaths(tree, result), expectedPaths(bf16));
}

void TestTreeFilter::invalidRegexFiltersNothing()
{
    const TensorNameFilter filter(TensorNameFilter::Mode::Regex, QStringLiteral("("), std::nullopt);
    QVERIFY(!filter.isValid());
    QVERIFY(!filter.error().isEmpty());
    QVERIFY(!filter.isActive());
    TensorInfo t;
    t.name = QStringLiteral("(");
    QVERIFY(filter.accepts(t));
}

void TestTreeFilter::progressCountsEveryName()
{
    QStringList names;
    for (int i = 0; i < 50000; ++i)
        names << QStringLiteral("m.%1.w").arg(i);
    const auto model = makeModel(names);
    const NameTree tree(*model);
    std::vector<Progress> seen;
    JobControl control;
    control.progress =
        ProgressSink([&](const Progress& p) { seen.push_back(p); }, std::chrono::milliseconds(0));
    const TreeFilterResult result = filterTree(
        *model, tree, TensorNameFilter(TensorNameFilter::Mode::Substring, QStringLiteral("9"), {}), control);
    QVERIFY(!result.cancelled);
    // Every 16,384 names at least: 50,000 names are four strides.
    QVERIFY2(seen.size() >= 4, qPrintable(QString::number(seen.size())));
    for (std::size_t i = 1; i < seen.size(); ++i)
        QVERIFY(seen[i].bytesDone >= seen[i - 1].bytesDone);
    QCOMPARE(seen.back().bytesDone, std::uint64_t(50000));
    QCOMPARE(seen.back().bytesTotal, std::uint64_t(50000));
}

void TestTreeFilter::cancelStopsThePass()
{
    QStringList names;
    for (int i = 0; i < 40000; ++i)
        names << QStringLiteral("m.%1.w").arg(i);
    const auto model = makeModel(names);
    const NameTree tree(*model);
    JobControl control;
    std::uint64_t lastDone = 0;
    // Cancelled from its own first report: the pass stops at the next stride, not at the end.
    control.progress = ProgressSink(
        [&](const Progress& p) {
            lastDone = p.bytesDone;
            if (p.bytesDone > 0)
                control.cancel.cancel();
        },
        std::chrono::milliseconds(0));
    const TreeFilterResult result = filterTree(
        *model, tree, TensorNameFilter(TensorNameFilter::Mode::Substring, QStringLiteral("m"), {}), control);
    QVERIFY(result.cancelled);
    QCOMPARE(lastDone, std::uint64_t(16384));
    QCOMPARE(result.matches, std::uint64_t(16384));
}

QTEST_GUILESS_MAIN(TestTreeFilter)
#include "tst_tree_filter.moc"
