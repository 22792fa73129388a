// Every item model of the window under QAbstractItemModelTester, attached before data is loaded,
// and the tensor tree of a real fixture compared with an expected dump.

#include "UiTestUtils.h"
#include "base/Format.h"
#include "checkpoint/Checkpoint.h"
#include "checkpoint/NameTree.h"
#include "metadata/JsonPretty.h"
#include "metadata/MetadataModel.h"
#include "metadata/MetadataView.h"
#include "summary/AuditModel.h"
#include "summary/CheckpointSummary.h"
#include "summary/ModuleShareModel.h"
#include "tensor/TensorFilterProxy.h"
#include "tensor/TensorTreeModel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPlainTextEdit>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using namespace ts;
using namespace ts::ui;
using namespace ts::test;

namespace {

struct Loaded {
    std::shared_ptr<const Checkpoint> model;
    std::shared_ptr<const NameTree> tree;
};

Loaded load(const QString& path)
{
    auto opened = Checkpoint::open(path);
    if (!opened)
        qFatal("cannot open %s: %s", qPrintable(path), qPrintable(opened.error().toString()));
    Loaded l{opened.value(), nullptr};
    l.tree = std::make_shared<const NameTree>(*l.model);
    return l;
}

} // namespace

class TestUiModels : public QObject {
    Q_OBJECT
private slots:
    void tensorTreeUnderTester_data();
    void tensorTreeUnderTester();
    void treeMatchesExpectedDump();
    void sortsNumbersAsNumbers();
    void filterProxyUnderTester();
    void metadataModel();
    void auditModelAcceptsExtraDiagnostics();
    void moduleShareModel();
    void manyModulesShareOneRow();
    void prettyJsonKeepsOrderAndNumbers();
};

void TestUiModels::tensorTreeUnderTester_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("face_landmark") << realFixture(QStringLiteral("face_landmark_68_f32.safetensors"));
    QTest::newRow("tiny_face_detector") << realFixture(QStringLiteral("tiny_face_detector_u8.safetensors"));
    QTest::newRow("sharded") << realFixture(QStringLiteral("face_recognition_sharded"));
    QTest::newRow("dots_slashes") << conformanceDir() +
                                         QStringLiteral("/cases/v_names_dots_slashes.safetensors");
}

void TestUiModels::tensorTreeUnderTester()
{
    QFETCH(QString, path);
    TS_REQUIRE_FIXTURE(path);
    TensorTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const Loaded l = load(path);
    model.setModel(l.model, l.tree);
    // Every tensor is reachable, and indexForTensor finds it where the tree put it.
    for (int t = 0; t < static_cast<int>(l.model->tensors().size()); ++t) {
        const QModelIndex index = model.indexForTensor(t);
        QVERIFY(index.isValid());
        QCOMPARE(index.data(TensorTreeModel::TensorIndexRole).toInt(), t);
        QCOMPARE(index.data(TensorTreeModel::PathRole).toString(),
                 l.model->tensors()[static_cast<std::size_t>(t)].info.name);
    }
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestUiModels::treeMatchesExpectedDump()
{
    const QString path = realFixture(QStringLiteral("face_landmark_68_f32.safetensors"));
    TS_REQUIRE_FIXTURE(path);
    TensorTreeModel model;
    const Loaded l = load(path);
    model.setModel(l.model, l.tree);
    const QStringList actual = dumpModel(&model);
    const QString expectedPath = QStringLiteral(TS_UI_EXPECTED "/face_landmark_68_f32.tree.txt");
    if (qEnvironmentVariableIsSet("TS_WRITE_EXPECTED")) {
        QFile out(expectedPath);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write((actual.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8());
    }
    QFile in(expectedPath);
    QVERIFY2(in.open(QIODevice::ReadOnly), qPrintable(expectedPath));
    const QStringList expected = QString::fromUtf8(in.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(actual, expected);
}

void TestUiModels::sortsNumbersAsNumbers()
{
    const QString path = realFixture(QStringLiteral("face_landmark_68_f32.safetensors"));
    TS_REQUIRE_FIXTURE(path);
    TensorTreeModel model;
    TensorFilterProxy proxy;
    proxy.setSourceModel(&model);
    const Loaded l = load(path);
    model.setModel(l.model, l.tree);
    // Top-level modules by bytes, ascending: the displayed "1.2 MiB" must come after "900 KiB".
    proxy.sort(TensorTreeModel::BytesColumn, Qt::AscendingOrder);
    QVERIFY(proxy.rowCount() > 2);
    quint64 previous = 0;
    for (int r = 0; r < proxy.rowCount(); ++r) {
        const quint64 bytes =
            proxy.index(r, TensorTreeModel::BytesColumn).data(TensorTreeModel::SortRole).toULongLong();
        QVERIFY2(bytes >= previous, qPrintable(proxy.index(r, 0).data().toString()));
        previous = bytes;
    }
    QCOMPARE(previous, [&] {
        std::uint64_t m = 0;
        for (int row = 0; row < l.tree->childCount(NameTree::kRoot); ++row)
            m = std::max(m, l.tree->bytes(l.tree->child(NameTree::kRoot, row)));
        return m;
    }());
}

void TestUiModels::filterProxyUnderTester()
{
    const QString path = realFixture(QStringLiteral("tiny_face_detector_u8.safetensors"));
    TS_REQUIRE_FIXTURE(path);
    TensorTreeModel model;
    TensorFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const Loaded l = load(path);
    model.setModel(l.model, l.tree);
    proxy.sort(TensorTreeModel::ParametersColumn, Qt::DescendingOrder);
    const auto pass = [&](const QString& glob, std::optional<Dtype> dtype) {
        return std::make_shared<const TreeFilterResult>(
            filterTree(*l.model, *l.tree, TensorNameFilter(TensorNameFilter::Mode::Glob, glob, dtype)));
    };
    proxy.setResult(pass(QStringLiteral("*_scale"), Dtype::U8));
    QVERIFY(proxy.isFiltering());
    QCOMPARE(proxy.rowCount(), 0); // the scales are F32
    const auto scales = pass(QStringLiteral("*_scale"), std::nullopt);
    QVERIFY(scales->matches > 0);
    proxy.setResult(scales);
    QVERIFY(proxy.rowCount() > 0);
    // Exactly the matching tensors are reachable, with the groups that hold them (a tensor that
    // does not match would count a million).
    std::function<std::uint64_t(const QModelIndex&)> tensorsUnder = [&](const QModelIndex& parent) {
        std::uint64_t n = 0;
        for (int r = 0; r < proxy.rowCount(parent); ++r) {
            const QModelIndex index = proxy.index(r, 0, parent);
            if (index.data(TensorTreeModel::TensorIndexRole).toInt() >= 0)
                n += index.data(TensorTreeModel::PathRole).toString().endsWith(QLatin1String("_scale"))
                         ? 1
                         : 1000000;
            n += tensorsUnder(index);
        }
        return n;
    };
    QCOMPARE(tensorsUnder({}), scales->matches);
    // A pass over another tree (a model reopened since) hides nothing rather than indexing it.
    const NameTree other(*l.model);
    auto stale = std::make_shared<TreeFilterResult>(*scales);
    stale->tree = &other;
    proxy.setResult(stale);
    QCOMPARE(proxy.rowCount(), model.rowCount());
    proxy.setResult(nullptr);
    QVERIFY(!proxy.isFiltering());
    QCOMPARE(proxy.rowCount(), model.rowCount());
    model.clear();
}

void TestUiModels::metadataModel()
{
    const QString path = realFixture(QStringLiteral("tiny_face_detector_u8.safetensors"));
    TS_REQUIRE_FIXTURE(path);
    MetadataView view; // owns a MetadataModel; attach the tester before data arrives
    QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const Loaded l = load(path);
    QVERIFY(l.model->metadata().has_value());
    view.setMetadata(l.model->metadata());
    const Metadata& md = *l.model->metadata();
    QCOMPARE(view.model()->rowCount(), md.size());
    int jsonRows = 0;
    for (int r = 0; r < md.size(); ++r) {
        const auto& [key, value] = md.entries()[static_cast<std::size_t>(r)];
        QCOMPARE(view.model()->index(r, MetadataModel::KeyColumn).data().toString(), key);
        QCOMPARE(
            view.model()->index(r, MetadataModel::ValueColumn).data(MetadataModel::FullValueRole).toString(),
            value);
        const bool json =
            view.model()->index(r, MetadataModel::ValueColumn).data(MetadataModel::IsJsonRole).toBool();
        QCOMPARE(json, !QJsonDocument::fromJson(value.toUtf8()).isNull());
        if (json) {
            ++jsonRows;
            // Selecting a JSON value shows it pretty-printed in the side panel.
            view.table()->setCurrentIndex(view.model()->index(r, MetadataModel::ValueColumn));
            QVERIFY(view.valuePanel()->toPlainText().contains(QLatin1Char('\n')));
            QCOMPARE(QJsonDocument::fromJson(view.valuePanel()->toPlainText().toUtf8()),
                     QJsonDocument::fromJson(value.toUtf8()));
        }
    }
    QVERIFY2(jsonRows > 0, "the fixture holds JSON in its metadata");
    // Copy as JSON: the whole map, in file order.
    view.copyAsJson();
    const QJsonObject copied = QJsonDocument::fromJson(QApplication::clipboard()->text().toUtf8()).object();
    QCOMPARE(copied.size(), md.size());
    for (const auto& [key, value] : md.entries())
        QCOMPARE(copied.value(key).toString(), value);
    view.setMetadata(std::nullopt);
    QCOMPARE(view.model()->rowCount(), 0);
}

void TestUiModels::auditModelAcceptsExtraDiagnostics()
{
    AuditModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDiagnostics({Diagnostic{QStringLiteral("DuplicateKey"), Severity::Warning, QStringLiteral("m"),
                                     QStringLiteral("a.weight"), 42}});
    QCOMPARE(model.rowCount(), 1);
    model.addDiagnostics(QStringLiteral("scan"),
                         {Diagnostic{QStringLiteral("NaN"), Severity::Error, QStringLiteral("nan"),
                                     QStringLiteral("b.weight"), std::nullopt},
                          Diagnostic{QStringLiteral("Inf"), Severity::Error, QStringLiteral("inf"),
                                     QStringLiteral("c.weight"), std::nullopt}});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(1, AuditModel::TensorColumn).data(AuditModel::TensorRole).toString(),
             QStringLiteral("b.weight"));
    QCOMPARE(model.index(1, AuditModel::SourceColumn).data().toString(), QStringLiteral("scan"));
    QCOMPARE(model.index(0, AuditModel::OffsetColumn).data().toString(), QStringLiteral("42"));
    // A new scan replaces the previous scan's findings, not the header's.
    model.addDiagnostics(QStringLiteral("scan"),
                         {Diagnostic{QStringLiteral("Zero"), Severity::Info, QStringLiteral("z"),
                                     QStringLiteral("d.weight"), std::nullopt}});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, AuditModel::CodeColumn).data().toString(), QStringLiteral("DuplicateKey"));
    QCOMPARE(model.index(1, AuditModel::CodeColumn).data().toString(), QStringLiteral("Zero"));
    model.setDiagnostics({});
    QCOMPARE(model.rowCount(), 0);
}

void TestUiModels::moduleShareModel()
{
    const QString path = realFixture(QStringLiteral("face_recognition_f16.safetensors"));
    TS_REQUIRE_FIXTURE(path);
    ModuleShareModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const Loaded l = load(path);
    const CheckpointSummary s = summarize(*l.model, *l.tree);
    model.setModules(s.modules);
    QCOMPARE(model.rowCount(), 16);
    double total = 0;
    std::uint64_t previous = UINT64_MAX;
    for (int r = 0; r < model.rowCount(); ++r) {
        total += model.index(r, 0).data(ModuleShareModel::ShareRole).toDouble();
        const quint64 params =
            model.index(r, ModuleShareModel::ParametersColumn).data(ModuleShareModel::SortRole).toULongLong();
        QVERIFY(params <= previous); // largest first
        previous = params;
    }
    QVERIFY(qAbs(total - 1.0) < 1e-9);
    model.setModules({});
    QCOMPARE(model.rowCount(), 0);
}

void TestUiModels::manyModulesShareOneRow()
{
    // 250 top-level names, m0 with 1 byte ... m249 with 250 bytes: the 200 largest are listed,
    // the other 50 (1..50 bytes) share one row.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QByteArray header = "{";
    std::uint64_t offset = 0;
    for (int i = 0; i < 250; ++i) {
        const std::uint64_t n = static_cast<std::uint64_t>(i) + 1;
        header += (i ? "," : "") + QByteArray("\"m") + QByteArray::number(i) +
                  "\":{\"dtype\":\"U8\",\"shape\":[" + QByteArray::number(n) + "],\"data_offsets\":[" +
                  QByteArray::number(offset) + "," + QByteArray::number(offset + n) + "]}";
        offset += n;
    }
    header += "}";
    header += QByteArray((8 - header.size() % 8) % 8, ' ');
    QByteArray file(8, '\0');
    for (int i = 0; i < 8; ++i)
        file[i] = static_cast<char>((static_cast<quint64>(header.size()) >> (8 * i)) & 0xff);
    file += header + QByteArray(static_cast<qsizetype>(offset), 'x');
    const QString path = dir.filePath(QStringLiteral("many.safetensors"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(file) == file.size());
    f.close();
    const Loaded l = load(path);
    const CheckpointSummary s = summarize(*l.model, *l.tree);
    QCOMPARE(s.modules.size(), kMaxModulesShown + 1);
    QCOMPARE(s.modules.front().name, QStringLiteral("m249"));
    QCOMPARE(s.modules[kMaxModulesShown - 1].name, QStringLiteral("m50"));
    const ModuleShare& rest = s.modules.back();
    QCOMPARE(rest.name, QStringLiteral("(50 more modules)"));
    QCOMPARE(rest.tensors, std::uint64_t(50));
    QCOMPARE(rest.parameters, std::uint64_t(50 * 51 / 2));
    double total = 0;
    for (const ModuleShare& m : s.modules)
        total += m.share;
    QVERIFY(qAbs(total - 1.0) < 1e-9);
}

void TestUiModels::prettyJsonKeepsOrderAndNumbers()
{
    const QByteArray in = R"({"z":1,"a":{"n":18446744073709551615,"s":"x,{y}\"q"},"e":[],"f":{},)"
                          R"("shape":[ 4096 ,11008],"m":[1,"a,]"],"nest":[[1,2],[3]]})";
    const QByteArray out = prettyJsonText(in);
    QCOMPARE(
        out,
        QByteArray(
            "{\n  \"z\": 1,\n  \"a\": {\n    \"n\": 18446744073709551615,\n    \"s\": \"x,{y}\\\"q\"\n  },\n"
            "  \"e\": [],\n  \"f\": {},\n  \"shape\": [4096, 11008],\n  \"m\": [1, \"a,]\"],\n"
            "  \"nest\": [\n    [1, 2],\n    [3]\n  ]\n}"));
    QVERIFY(looksLikeJsonContainer(QStringLiteral(" {\"a\": [1, 2]} ")));
    QVERIFY(!looksLikeJsonContainer(QStringLiteral("{not json")));
    QVERIFY(!looksLikeJsonContainer(QStringLiteral("42")));
}

QTEST_MAIN(TestUiModels)
#include "tst_ui_models.moc"
