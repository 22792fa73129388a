// The window, driven the way a user drives it: opening valid, invalid and sharded inputs through
// openPath() (what File > Open, Open Recent and the command line call) and through drops; the
// summary's numbers for the real fixtures; the reload prompt when the open file is truncated.

#include "UiTestUtils.h"
#include "base/Format.h"
#include "document/DocumentWidget.h"
#include "document/ErrorView.h"
#include "document/LoadResult.h"
#include "document/ReloadBanner.h"
#include "format/SafetensorsFile.h"
#include "metadata/MetadataView.h"
#include "metadata/RawHeaderView.h"
#include "summary/AuditModel.h"
#include "summary/SummaryView.h"
#include "tensor/TensorBrowser.h"
#include "tensor/TensorDetailsView.h"
#include "tensor/TensorTreeModel.h"
#include "window/MainWindow.h"
#include "window/RecentFiles.h"
#include "window/StartPage.h"

#include <QApplication>
#include <QClipboard>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTreeView>
#include <QUrl>
#include <QtEndian>

using namespace ts;
using namespace ts::ui;
using namespace ts::test;

namespace {

const QString kLandmark = QStringLiteral("face_landmark_68_f32.safetensors");

DocumentWidget* openAndWait(MainWindow& window, const QString& path)
{
    DocumentWidget* doc = window.openPath(path);
    if (!QTest::qWaitFor([doc] { return doc->state() != DocumentWidget::State::Loading; }, 10000))
        return nullptr;
    return doc;
}

void drop(QWidget* target, const QStringList& paths)
{
    auto* mime = new QMimeData;
    QList<QUrl> urls;
    for (const QString& p : paths)
        urls << QUrl::fromLocalFile(p);
    mime->setUrls(urls);
    const QPoint pos = target->rect().center();
    QDragEnterEvent enter(pos, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent dropEvent(QPointF(pos), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &dropEvent);
    QVERIFY(dropEvent.isAccepted());
    delete mime;
}

} // namespace

class TestUiWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void startPageWhenNothingIsOpen();
    void opensValidFile();
    void headerTextWaitsForItsPage();
    void opensInvalidFileWithMessageAndHeader_data();
    void opensInvalidFileWithMessageAndHeader();
    void opensShardedModel_data();
    void opensShardedModel();
    void dropOpensFiles();
    void summaryNumbers_data();
    void summaryNumbers();
    void auditRowLeadsToTensor();
    void selectingTensorShowsDetails();
    void shortcutFocusesFilter();
    void offersReloadWhenFileIsTruncated();
    void staleLoadsAreDropped();
    void tabsMayHoldOtherViews();
};

void TestUiWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // QSettings in a test location, not the user's
    QApplication::setOrganizationName(QStringLiteral("TensorscopeTest"));
    QApplication::setApplicationName(QStringLiteral("tst_ui_window"));
    TS_REQUIRE_FIXTURE(realFixture(kLandmark));
}

void TestUiWindow::init()
{
    RecentFiles::clear();
}

void TestUiWindow::startPageWhenNothingIsOpen()
{
    MainWindow window;
    QVERIFY(window.isShowingStartPage());
    QCOMPARE(window.windowTitle(), QStringLiteral("Tensorscope"));
    DocumentWidget* doc = openAndWait(window, realFixture(kLandmark));
    QVERIFY(doc);
    QVERIFY(!window.isShowingStartPage());
    window.closeDocument(0);
    QVERIFY(window.isShowingStartPage());
    // The file just opened is listed as recent, and opening it from there works.
    QListWidget* recent = window.startPage()->recentList();
    QCOMPARE(recent->count(), 1);
    QCOMPARE(recent->item(0)->data(Qt::UserRole).toString(),
             QFileInfo(realFixture(kLandmark)).canonicalFilePath());
    emit recent->itemActivated(recent->item(0));
    QCOMPARE(window.documentCount(), 1);
}

void TestUiWindow::opensValidFile()
{
    MainWindow window;
    const QString path = realFixture(kLandmark);
    DocumentWidget* doc = openAndWait(window, path);
    QVERIFY(doc);
    QCOMPARE(doc->state(), DocumentWidget::State::Loaded);
    QCOMPARE(window.windowTitle(), kLandmark + QStringLiteral(" \u2014 Tensorscope"));
    QCOMPARE(doc->currentPage(), DocumentWidget::SummaryPage);
    QCOMPARE(doc->summaryView()->fact(QStringLiteral("tensors")), QStringLiteral("49"));
    QVERIFY(doc->rawHeaderView()->text()->toPlainText().contains(QStringLiteral("\"dense0.conv0.filters\"")));
    QCOMPARE(RecentFiles::paths(), QStringList{QFileInfo(path).canonicalFilePath()});
    // Opening it again switches to its tab instead of opening a second one.
    QCOMPARE(window.openPath(path), doc);
    QCOMPARE(window.documentCount(), 1);
    // The raw header search finds text.
    doc->rawHeaderView()->searchEdit()->setText(QStringLiteral("dense3"));
    QVERIFY(doc->rawHeaderView()->findNext());
    QCOMPARE(doc->rawHeaderView()->text()->textCursor().selectedText(), QStringLiteral("dense3"));
}

void TestUiWindow::headerTextWaitsForItsPage()
{
    // A valid local model is opened without reading its header as text: that is done when the
    // Header page is first shown (the text of a 100,000-tensor header is 20 MB).
    const QString path = realFixture(kLandmark);
    LoadResult result = loadModel(path);
    QVERIFY(result.ok());
    QVERIFY(result.headerDeferred);
    QVERIFY(result.headerText.isEmpty());
    QVERIFY(result.headerSource.isEmpty());
    readHeaderText(result);
    QVERIFY(!result.headerDeferred);
    QCOMPARE(result.headerSource, path);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray prefix = file.read(8);
    QCOMPARE(result.headerBytesTotal, qFromLittleEndian<quint64>(prefix.constData()));
    QVERIFY(result.headerText.contains("\"dense0.conv0.filters\": {"));
    // The view says what it read once it is shown, and not before.
    const auto labelContaining = [](const QWidget* parent, const QString& text) {
        const auto labels = parent->findChildren<QLabel*>();
        return std::any_of(labels.begin(), labels.end(),
                           [&](const QLabel* label) { return label->text().contains(text); });
    };
    RawHeaderView view;
    view.setHeader(loadModel(path));
    QVERIFY(!labelContaining(&view, QStringLiteral("bytes")));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(labelContaining(&view, formatGrouped(result.headerBytesTotal) + QStringLiteral(" bytes")));
    QVERIFY(view.text()->toPlainText().contains(QStringLiteral("\"dense0.conv0.filters\"")));
}

void TestUiWindow::opensInvalidFileWithMessageAndHeader_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("hasHeaderText");
    QTest::newRow("unterminated JSON") << QStringLiteral("i_json_unterminated.safetensors") << true;
    QTest::newRow("offsets past EOF") << QStringLiteral("i_offsets_past_eof.safetensors") << true;
    QTest::newRow("7 bytes") << QStringLiteral("i_file_7_bytes.safetensors") << false;
}

void TestUiWindow::opensInvalidFileWithMessageAndHeader()
{
    QFETCH(QString, file);
    QFETCH(bool, hasHeaderText);
    const QString path = (conformanceDir() + QStringLiteral("/cases/")) + file;
    const auto expected = Checkpoint::open(path);
    QVERIFY(!expected.ok());
    MainWindow window;
    DocumentWidget* doc = openAndWait(window, path);
    QVERIFY(doc);
    QCOMPARE(doc->state(), DocumentWidget::State::Failed);
    QVERIFY(doc->errorView()->isVisibleTo(doc));
    // The core's sentence and its code are in the window.
    QVERIFY2(doc->errorView()->message().contains(expected.error().message.mid(1)),
             qPrintable(doc->errorView()->message()));
    QVERIFY(doc->errorView()->details().contains(errorCodeName(expected.error().code)));
    if (expected.error().offset)
        QVERIFY(doc->errorView()->details().contains(formatGrouped(*expected.error().offset)));
    QCOMPARE(!doc->errorView()->headerText()->toPlainText().isEmpty(), hasHeaderText);
    QVERIFY(window.windowTitle().startsWith(file));
    QVERIFY(RecentFiles::paths().isEmpty()); // broken files are not offered again
}

void TestUiWindow::opensShardedModel_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("folder") << realFixture(QStringLiteral("face_recognition_sharded"));
    QTest::newRow("index.json") << realFixture(
        QStringLiteral("face_recognition_sharded/model.safetensors.index.json"));
}

void TestUiWindow::opensShardedModel()
{
    QFETCH(QString, path);
    TS_REQUIRE_FIXTURE(path);
    MainWindow window;
    DocumentWidget* doc = openAndWait(window, path);
    QVERIFY(doc);
    QCOMPARE(doc->state(), DocumentWidget::State::Loaded);
    const CheckpointSummary& s = doc->summaryView()->summary();
    QCOMPARE(s.shards, 2);
    QCOMPARE(s.tensorCount, std::uint64_t(117));
    QCOMPARE(s.parameters, std::uint64_t(5614592));
    QCOMPARE(s.tensorBytes, std::uint64_t(22458368));
    QCOMPARE(s.fileBytes, std::uint64_t(1359576 + 21109912));
    QCOMPARE(doc->summaryView()->fact(QStringLiteral("shards")), QStringLiteral("2"));
    // Tensors of either shard are found, each placed in its own file (per the index's weight_map).
    QVERIFY(doc->selectTensor(QStringLiteral("conv128_1.conv1.conv.bias")));
    QCOMPARE(doc->tensorBrowser()->details()->field(QStringLiteral("shard")),
             QStringLiteral("model-00002-of-00002.safetensors"));
    QVERIFY(doc->selectTensor(QStringLiteral("conv32_1.conv1.conv.bias")));
    QCOMPARE(doc->tensorBrowser()->details()->field(QStringLiteral("shard")),
             QStringLiteral("model-00001-of-00002.safetensors"));
}

void TestUiWindow::dropOpensFiles()
{
    MainWindow window;
    const QString valid = realFixture(kLandmark);
    const QString invalid = conformanceDir() + QStringLiteral("/cases/i_json_unterminated.safetensors");
    const QString folder = realFixture(QStringLiteral("face_recognition_sharded"));
    drop(&window, {valid, invalid, folder});
    QCOMPARE(window.documentCount(), 3);
    QTRY_VERIFY(window.document(0)->state() == DocumentWidget::State::Loaded);
    QTRY_VERIFY(window.document(1)->state() == DocumentWidget::State::Failed);
    QTRY_VERIFY(window.document(2)->state() == DocumentWidget::State::Loaded);
    QCOMPARE(window.document(2)->result().model->parts().size(), std::size_t(2));
    // Dropping an open file again switches to it.
    drop(&window, {valid});
    QCOMPARE(window.documentCount(), 3);
    QCOMPARE(window.tabs()->currentIndex(), 0);
}

void TestUiWindow::summaryNumbers_data()
{
    // Numbers computed from the files' headers by an independent script (Python json + struct).
    QTest::addColumn<QString>("file");
    QTest::addColumn<quint64>("tensors");
    QTest::addColumn<quint64>("parameters");
    QTest::addColumn<quint64>("tensorBytes");
    QTest::addColumn<quint64>("fileBytes");
    QTest::addColumn<quint64>("headerBytes");
    QTest::addColumn<int>("metadataKeys");
    QTest::addColumn<QString>("dtypes");
    QTest::addColumn<int>("modules");
    QTest::newRow("landmark") << kLandmark << 49ull << 356840ull << 1427360ull << 1431968ull << 4608ull << 3
                              << QStringLiteral("F32") << 5;
    QTest::newRow("recognition f16") << QStringLiteral("face_recognition_f16.safetensors") << 117ull
                                     << 5614592ull << 11229184ull << 11240560ull << 11376ull << 3
                                     << QStringLiteral("F16") << 16;
    QTest::newRow("ssd bf16") << QStringLiteral("ssd_mobilenetv1_bf16.safetensors") << 151ull << 5555541ull
                              << 11111082ull << 11128538ull << 17456ull << 3 << QStringLiteral("BF16") << 6;
    QTest::newRow("tiny u8") << QStringLiteral("tiny_face_detector_u8.safetensors") << 57ull << 193359ull
                             << 193473ull << 198097ull << 4624ull << 4 << QStringLiteral("U8, F32") << 7;
    QTest::newRow("anomalies") << QStringLiteral("age_gender_anomalies_f32.safetensors") << 51ull << 421731ull
                               << 1686924ull << 1693012ull << 6088ull << 3 << QStringLiteral("F32") << 4;
}

void TestUiWindow::summaryNumbers()
{
    QFETCH(QString, file);
    QFETCH(quint64, tensors);
    QFETCH(quint64, parameters);
    QFETCH(quint64, tensorBytes);
    QFETCH(quint64, fileBytes);
    QFETCH(quint64, headerBytes);
    QFETCH(int, metadataKeys);
    QFETCH(QString, dtypes);
    QFETCH(int, modules);
    const QString path = realFixture(file);
    TS_REQUIRE_FIXTURE(path);
    MainWindow window;
    DocumentWidget* doc = openAndWait(window, path);
    QVERIFY(doc);
    QCOMPARE(doc->state(), DocumentWidget::State::Loaded);
    const SummaryView* view = doc->summaryView();
    const CheckpointSummary& s = view->summary();
    QCOMPARE(s.tensorCount, tensors);
    QCOMPARE(s.parameters, parameters);
    QCOMPARE(s.tensorBytes, tensorBytes);
    QCOMPARE(s.fileBytes, fileBytes);
    QCOMPARE(s.headerBytes, headerBytes);
    QCOMPARE(s.metadataKeys, metadataKeys);
    QCOMPARE(static_cast<int>(s.modules.size()), modules);
    // What the user reads.
    QCOMPARE(view->fact(QStringLiteral("tensors")), QString::number(tensors));
    QCOMPARE(view->fact(QStringLiteral("parameters")), formatCount(parameters));
    QCOMPARE(view->fact(QStringLiteral("fileSize")), formatBytes(fileBytes));
    QCOMPARE(view->fact(QStringLiteral("dtypes")), dtypes);
    QCOMPARE(view->fact(QStringLiteral("shards")), QStringLiteral("1"));
    std::uint64_t dtypeParams = 0;
    for (const DtypeTotals& d : s.dtypes)
        dtypeParams += d.parameters;
    QCOMPARE(dtypeParams, parameters);
}

void TestUiWindow::auditRowLeadsToTensor()
{
    // A valid file whose header the core flags: tensor "b" (F64) starts at an unaligned offset.
    const QString path = conformanceDir() + QStringLiteral("/cases/v_raw_unaligned_offsets.safetensors");
    const auto expected = Checkpoint::open(path);
    QVERIFY(expected.ok());
    MainWindow window;
    DocumentWidget* doc = openAndWait(window, path);
    QVERIFY(doc);
    AuditModel* audit = doc->summaryView()->auditModel();
    QTreeView* view = child<QTreeView>(doc->summaryView(), "audit");
    QCOMPARE(audit->rowCount(), static_cast<int>(expected->get()->warnings().size()));
    int unaligned = -1;
    for (int r = 0; r < audit->rowCount(); ++r) {
        QCOMPARE(audit->index(r, AuditModel::CodeColumn).data().toString(),
                 expected->get()->warnings()[std::size_t(r)].code);
        if (audit->index(r, AuditModel::CodeColumn).data().toString() == QLatin1String("UnalignedOffset"))
            unaligned = r;
    }
    QVERIFY(unaligned >= 0);
    emit view->activated(audit->index(unaligned, AuditModel::MessageColumn));
    QCOMPARE(doc->currentPage(), DocumentWidget::TensorsPage);
    QCOMPARE(doc->tensorBrowser()->details()->field(QStringLiteral("name")), QStringLiteral("b"));

    // Findings of a later scan join the list and are clickable the same way.
    doc->showPage(DocumentWidget::SummaryPage);
    audit->addDiagnostics(QStringLiteral("scan"), {Diagnostic{QStringLiteral("AllZero"), Severity::Warning,
                                                              QStringLiteral("all values are zero"),
                                                              QStringLiteral("a"), std::nullopt}});
    QCOMPARE(audit->rowCount(), static_cast<int>(expected->get()->warnings().size()) + 1);
    emit view->activated(audit->index(audit->rowCount() - 1, AuditModel::MessageColumn));
    QCOMPARE(doc->currentPage(), DocumentWidget::TensorsPage);
    QCOMPARE(doc->tensorBrowser()->details()->field(QStringLiteral("name")), QStringLiteral("a"));
}

void TestUiWindow::selectingTensorShowsDetails()
{
    MainWindow window;
    DocumentWidget* doc = openAndWait(window, realFixture(kLandmark));
    QVERIFY(doc);
    const Checkpoint& model = *doc->result().model;
    const int t = model.indexOf(QStringLiteral("fc.weights"));
    QVERIFY(t >= 0);
    const TensorInfo& info = model.tensors()[static_cast<std::size_t>(t)].info;
    QVERIFY(doc->selectTensor(info.name));
    const TensorDetailsView* details = doc->tensorBrowser()->details();
    QCOMPARE(details->field(QStringLiteral("dtype")), QStringLiteral("F32"));
    QCOMPARE(details->field(QStringLiteral("shape")), info.shapeString());
    QVERIFY(details->field(QStringLiteral("parameters")).startsWith(formatGrouped(info.elementCount())));
    const std::uint64_t begin = model.safetensorsFile()->header().dataOffset() + info.begin;
    QVERIFY(details->field(QStringLiteral("range")).startsWith(formatGrouped(begin)));
}

void TestUiWindow::shortcutFocusesFilter()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    DocumentWidget* doc = openAndWait(window, realFixture(kLandmark));
    QVERIFY(doc);
    QTest::keyClick(&window, Qt::Key_F, Qt::ControlModifier);
    QCOMPARE(doc->currentPage(), DocumentWidget::TensorsPage);
    QTRY_COMPARE(QApplication::focusWidget(),
                 static_cast<QWidget*>(child<QLineEdit>(doc->tensorBrowser(), "filter")));
    // Ctrl+C in the tree copies the tensor's full name.
    QVERIFY(doc->selectTensor(QStringLiteral("fc.weights")));
    QTreeView* tree = child<QTreeView>(doc->tensorBrowser(), "tree");
    tree->setFocus();
    QTRY_VERIFY(tree->hasFocus());
    QApplication::clipboard()->clear();
    QTest::keyClick(tree, Qt::Key_C, Qt::ControlModifier);
    QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("fc.weights"));
    QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
    QCOMPARE(doc->currentPage(), DocumentWidget::MetadataPage);
}

void TestUiWindow::offersReloadWhenFileIsTruncated()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(kLandmark);
    QVERIFY(QFile::copy(realFixture(kLandmark), path));
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    MainWindow window;
    window.show();
    DocumentWidget* doc = openAndWait(window, path);
    QVERIFY(doc);
    QCOMPARE(doc->state(), DocumentWidget::State::Loaded);
    QVERIFY(!doc->isReloadPromptVisible());
    QVERIFY(QFile::resize(path, 1000)); // mid-header: the file is no longer what was opened
    QTRY_VERIFY_WITH_TIMEOUT(doc->isReloadPromptVisible(), 8000);
    QVERIFY(doc->reloadBanner()->message().contains(kLandmark));
    // What was read stays on screen until the user chooses; reloading shows what the file is now.
    QCOMPARE(doc->state(), DocumentWidget::State::Loaded);
    doc->reloadBanner()->reloadButton()->click();
    QTRY_VERIFY(doc->state() == DocumentWidget::State::Failed);
    QVERIFY(!doc->isReloadPromptVisible());
    QVERIFY(!doc->errorView()->message().isEmpty());
}

void TestUiWindow::staleLoadsAreDropped()
{
    MainWindow window;
    DocumentWidget* doc = openAndWait(window, realFixture(kLandmark));
    QVERIFY(doc);
    QSignalSpy loaded(doc, &DocumentWidget::loaded);
    // Three reloads in a row: only the last one's result is applied.
    doc->reload();
    doc->reload();
    doc->reload();
    QCOMPARE(doc->state(), DocumentWidget::State::Loading);
    QTRY_COMPARE(loaded.count(), 1);
    // The two earlier loads still end and report: wait for them (on the global pool) and for their
    // reports to be delivered; they must not have been applied.
    QVERIFY(QThreadPool::globalInstance()->waitForDone(60000));
    QTRY_VERIFY_WITH_TIMEOUT(jobsDelivered(doc), 60000);
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(doc->state(), DocumentWidget::State::Loaded);
}

void TestUiWindow::tabsMayHoldOtherViews()
{
    // A comparison of two models is a tab that is no DocumentWidget: every window action, the
    // re-open of a path, the session memory and closing must take it in their stride.
    MainWindow window;
    const QString valid = realFixture(kLandmark);
    DocumentWidget* doc = openAndWait(window, valid);
    QVERIFY(doc);
    auto* other = new QLabel(QStringLiteral("a comparison"));
    QPointer<QLabel> watch(other);
    const int index =
        window.addPage(other, QStringLiteral("A vs B"), QStringLiteral("a.safetensors vs b.safetensors"));
    QCOMPARE(window.tabs()->currentIndex(), index);
    QVERIFY(!window.currentDocument());
    QVERIFY(!window.isShowingStartPage());
    QVERIFY(window.windowTitle().startsWith(QStringLiteral("A vs B")));
    // The actions that act on "the current document", triggered with the other view current:
    // reload, save, scan, the pages, the search box. None may crash or touch the document.
    const QList<QKeySequence> keys{QKeySequence(QKeySequence::Refresh),
                                   QKeySequence(QKeySequence::Save),
                                   QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K),
                                   QKeySequence(Qt::CTRL | Qt::Key_2),
                                   QKeySequence(Qt::CTRL | Qt::Key_5),
                                   QKeySequence(QKeySequence::Find)};
    int triggered = 0;
    for (QAction* action : window.findChildren<QAction*>()) {
        for (const QKeySequence& key : keys) {
            if (action->shortcuts().contains(key)) {
                action->trigger();
                ++triggered;
            }
        }
    }
    QVERIFY(triggered >= 4);
    QCOMPARE(window.tabs()->currentIndex(), index);
    QCOMPARE(doc->state(), DocumentWidget::State::Loaded);
    // Opening the document's path again finds its tab past the other view.
    QCOMPARE(window.openPath(valid), doc);
    QCOMPARE(window.tabs()->currentIndex(), 0);
    window.tabs()->setCurrentIndex(index);
    window.closeDocument(index);
    QTRY_VERIFY(watch.isNull());
    QCOMPARE(window.documentCount(), 1);
    QCOMPARE(window.currentDocument(), doc);
}

QTEST_MAIN(TestUiWindow)
#include "tst_ui_window.moc"
