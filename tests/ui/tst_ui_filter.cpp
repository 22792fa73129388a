// The tensor filter (substring, glob, regex, dtype, debounced) on a 100,000-tensor file the test
// writes. Expected counts follow from how the names are built, not from the code under test.

#include "TensorCount.h"
#include "UiTestUtils.h"
#include "format/HeaderSerializer.h"
#include "tensor/TensorBrowser.h"
#include "tensor/TensorTreeModel.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace ts;
using namespace ts::ui;
using namespace ts::test;

namespace {

// 1,000 blocks x 10 sub-layers x 10 kinds = 100,000 tensors.
constexpr int kBlocks = 1000;
constexpr int kSubs = 10;
const char* const kKinds[] = {
    "attn.q.weight",   "attn.k.weight",   "attn.v.weight", "attn.o.weight", "mlp.up.weight",
    "mlp.down.weight", "mlp.gate.weight", "norm1.weight",  "norm2.weight",  "bias"};

Dtype kindDtype(int kind)
{
    return kind < 7 ? Dtype::F32 : kind < 9 ? Dtype::F16 : Dtype::BF16;
}

} // namespace

class TestUiFilter : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void filter_data();
    void filter();
    void dtypeCombinesWithName();
    void typingIsDebounced();
    void passRunsOffTheUiThread();
    void newerFilterSupersedes();

private:
    void setFilter(TensorNameFilter::Mode mode, const QString& text, int dtypeIndex = 0);

    QTemporaryDir m_dir;
    std::shared_ptr<const Checkpoint> m_model;
    std::unique_ptr<TensorBrowser> m_browser;
};

void TestUiFilter::initTestCase()
{
    QVERIFY(m_dir.isValid());
    std::vector<TensorInfo> tensors;
    tensors.reserve(kBlocks * kSubs * 10);
    std::uint64_t offset = 0;
    for (int b = 0; b < kBlocks; ++b) {
        for (int s = 0; s < kSubs; ++s) {
            for (int k = 0; k < 10; ++k) {
                TensorInfo t;
                t.name =
                    QStringLiteral("model.blocks.%1.sub%2.%3").arg(b).arg(s).arg(QLatin1String(kKinds[k]));
                t.dtype = kindDtype(k);
                t.shape = {2};
                t.begin = offset;
                t.end = offset + (t.dtype == Dtype::F32 ? 8 : 4);
                offset = t.end;
                tensors.push_back(std::move(t));
            }
        }
    }
    QByteArray bytes = serializeHeader(tensors, std::nullopt);
    bytes.append(QByteArray(static_cast<qsizetype>(offset), '\0'));
    const QString path = m_dir.filePath(QStringLiteral("big.safetensors"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes), bytes.size());
    f.close();

    auto opened = Checkpoint::open(path);
    QVERIFY2(opened.ok(), opened.ok() ? "" : qPrintable(opened.error().toString()));
    m_model = opened.value();
    QCOMPARE(m_model->tensors().size(), std::size_t(100000));
    m_browser = std::make_unique<TensorBrowser>();
    QAbstractItemModelTester sourceTester(m_browser->treeModel(),
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_browser->setModel(m_model, std::make_shared<const NameTree>(*m_model));
    QCOMPARE(m_browser->matchingTensorCount(), 100000);
    QCOMPARE(child<QComboBox>(m_browser.get(), "dtypeFilter")->count(), 4); // all, F16, BF16, F32
}

void TestUiFilter::setFilter(TensorNameFilter::Mode mode, const QString& text, int dtypeIndex)
{
    // Set every control, then filter once (as the debounce timer would).
    const QSignalBlocker modeBlocker(child<QComboBox>(m_browser.get(), "filterMode"));
    const QSignalBlocker dtypeBlocker(child<QComboBox>(m_browser.get(), "dtypeFilter"));
    child<QComboBox>(m_browser.get(), "filterMode")->setCurrentIndex(static_cast<int>(mode));
    child<QComboBox>(m_browser.get(), "dtypeFilter")->setCurrentIndex(dtypeIndex);
    child<QLineEdit>(m_browser.get(), "filter")->setText(text);
    m_browser->applyFilter();
    // The pass runs on the pool; the tree shows its result when it is done.
    QVERIFY(QTest::qWaitFor([this] { return !m_browser->isFilterPending(); }, 60000));
}

void TestUiFilter::filter_data()
{
    using Mode = TensorNameFilter::Mode;
    QTest::addColumn<int>("mode");
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<int>("expected");
    QTest::newRow("empty") << int(Mode::Substring) << QString() << 100000;
    QTest::newRow("substring") << int(Mode::Substring) << QStringLiteral("mlp.up") << 10000;
    QTest::newRow("substring, any case") << int(Mode::Substring) << QStringLiteral("MLP.UP") << 10000;
    QTest::newRow("substring, one block") << int(Mode::Substring) << QStringLiteral("blocks.999.") << 100;
    QTest::newRow("substring, none") << int(Mode::Substring) << QStringLiteral("lm_head") << 0;
    QTest::newRow("glob, suffix") << int(Mode::Glob) << QStringLiteral("*.weight") << 90000;
    QTest::newRow("glob, whole name") << int(Mode::Glob) << QStringLiteral("weight") << 0;
    QTest::newRow("glob, ?") << int(Mode::Glob) << QStringLiteral("model.blocks.1?.*.bias") << 100;
    QTest::newRow("glob, class") << int(Mode::Glob)
                                 << QStringLiteral("model.blocks.5.sub[0-2].attn.[qk].weight") << 6;
    QTest::newRow("regex") << int(Mode::Regex) << QStringLiteral(R"(blocks\.(7|77)\.sub[0-4]\.attn)") << 40;
    QTest::newRow("regex, anchored") << int(Mode::Regex)
                                     << QStringLiteral(R"(^model\.blocks\.12\d\.sub0\.bias$)") << 10;
    QTest::newRow("regex, invalid shows all") << int(Mode::Regex) << QStringLiteral("(") << 100000;
}

void TestUiFilter::filter()
{
    QFETCH(int, mode);
    QFETCH(QString, pattern);
    QFETCH(int, expected);
    setFilter(static_cast<TensorNameFilter::Mode>(mode), pattern);
    QCOMPARE(m_browser->matchingTensorCount(), expected);
    QCOMPARE(countTensors(m_browser->proxy()), expected);
}

void TestUiFilter::dtypeCombinesWithName()
{
    QComboBox* dtypes = child<QComboBox>(m_browser.get(), "dtypeFilter");
    const int f16 = dtypes->findText(QStringLiteral("F16"));
    const int bf16 = dtypes->findText(QStringLiteral("BF16"));
    QVERIFY(f16 > 0 && bf16 > 0);
    setFilter(TensorNameFilter::Mode::Substring, QString(), f16);
    QCOMPARE(countTensors(m_browser->proxy()), 20000);
    setFilter(TensorNameFilter::Mode::Substring, QStringLiteral("norm1"), f16);
    QCOMPARE(countTensors(m_browser->proxy()), 10000);
    setFilter(TensorNameFilter::Mode::Glob, QStringLiteral("*.bias"), f16);
    QCOMPARE(countTensors(m_browser->proxy()), 0);
    setFilter(TensorNameFilter::Mode::Glob, QStringLiteral("*.bias"), bf16);
    QCOMPARE(countTensors(m_browser->proxy()), 10000);
    setFilter(TensorNameFilter::Mode::Substring, QString(), 0);
    QCOMPARE(countTensors(m_browser->proxy()), 100000);
}

void TestUiFilter::typingIsDebounced()
{
    setFilter(TensorNameFilter::Mode::Substring, QString());
    m_browser->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_browser.get()));
    QTest::keyClicks(child<QLineEdit>(m_browser.get(), "filter"), QStringLiteral("blocks.42.sub3."));
    // Keystrokes alone do not refilter 100,000 rows each time...
    QCOMPARE(m_browser->matchingTensorCount(), 100000);
    // ...the pause after them does. Few matches: the view is expanded so they are visible.
    QTRY_COMPARE(m_browser->matchingTensorCount(), 10);
    const QModelIndex first = m_browser->proxy()->index(0, 0);
    QVERIFY(child<QTreeView>(m_browser.get(), "tree")->isExpanded(first));
    // Selecting a tensor the filter hides clears the filter.
    QVERIFY(m_browser->selectTensor(QStringLiteral("model.blocks.0.sub0.bias")));
    QVERIFY(child<QLineEdit>(m_browser.get(), "filter")->text().isEmpty());
    QCOMPARE(
        child<QTreeView>(m_browser.get(), "tree")->currentIndex().data(TensorTreeModel::PathRole).toString(),
        QStringLiteral("model.blocks.0.sub0.bias"));
}

void TestUiFilter::passRunsOffTheUiThread()
{
    setFilter(TensorNameFilter::Mode::Substring, QString());
    const QSignalBlocker modeBlocker(child<QComboBox>(m_browser.get(), "filterMode"));
    child<QComboBox>(m_browser.get(), "filterMode")->setCurrentIndex(int(TensorNameFilter::Mode::Regex));
    QSignalSpy applied(m_browser.get(), &TensorBrowser::filterApplied);
    child<QLineEdit>(m_browser.get(), "filter")->setText(QStringLiteral(R"(blocks\.3\d\d\.sub[01]\.mlp)"));
    m_browser->applyFilter();
    // applyFilter() returned before the pass did: nothing is filtered yet.
    QVERIFY(m_browser->isFilterPending());
    QCOMPARE(applied.count(), 0);
    QCOMPARE(m_browser->matchingTensorCount(), 100000);
    QCOMPARE(countTensors(m_browser->proxy()), 100000);
    QVERIFY(applied.wait(60000));
    QVERIFY(!m_browser->isFilterPending());
    QCOMPARE(m_browser->matchingTensorCount(), 100 * 2 * 3); // blocks 300-399, sub0-1, up/down/gate
    QCOMPARE(countTensors(m_browser->proxy()), 600);
    QCOMPARE(child<QLabel>(m_browser.get(), "filterMatches")->text(),
             QStringLiteral("600 of 100,000 tensors match"));
}

void TestUiFilter::newerFilterSupersedes()
{
    setFilter(TensorNameFilter::Mode::Substring, QString());
    QSignalSpy applied(m_browser.get(), &TensorBrowser::filterApplied);
    QLineEdit* box = child<QLineEdit>(m_browser.get(), "filter");
    box->setText(QStringLiteral("mlp"));
    m_browser->applyFilter();
    box->setText(QStringLiteral("blocks.7.sub"));
    m_browser->applyFilter();
    QVERIFY(applied.wait(60000));
    // Only the last filter reaches the tree: the first pass's result, however late, is dropped.
    QTest::qWait(200);
    QCOMPARE(applied.count(), 1);
    QCOMPARE(m_browser->matchingTensorCount(), 100);
    QCOMPARE(countTensors(m_browser->proxy()), 100);
    setFilter(TensorNameFilter::Mode::Substring, QString());
    QCOMPARE(countTensors(m_browser->proxy()), 100000);
}

QTEST_MAIN(TestUiFilter)
#include "tst_ui_filter.moc"
