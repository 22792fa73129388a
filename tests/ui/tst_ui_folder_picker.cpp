// A folder holding several models (two copies of one, a shard set without an index beside a
// single file) is never merged: the window lists its models and opens the one picked, each in a
// tab of its own; a shard set without an index opens by its pattern path.
#include "Fixtures.h"
#include "TestFiles.h"
#include "document/DocumentWidget.h"
#include "document/ErrorView.h"
#include "document/FolderModelPicker.h"
#include "summary/CheckpointSummary.h"
#include "summary/SummaryView.h"
#include "window/MainWindow.h"

#include <QFile>
#include <QListWidget>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace ts;
using namespace ts::ui;

namespace {

bool settled(const DocumentWidget* doc)
{
    return QTest::qWaitFor([doc] { return doc->state() != DocumentWidget::State::Loading; }, 10000);
}

} // namespace

class TestUiFolderPicker : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        TS_REQUIRE_SHARED_FIXTURES();
        QStandardPaths::setTestModeEnabled(true);
    }

    void aFolderOfSeveralModelsListsThemAndOpensThePickedOne()
    {
        QTemporaryDir dir;
        QVERIFY(ts::test::copyFixtureFiles(QStringLiteral("face_recognition_sharded"), dir.path()));
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("model.safetensors.index.json"))));
        const QString landmark = QStringLiteral("face_landmark_68_f32.safetensors");
        QVERIFY(!ts::test::copyFixture(landmark, dir.path(), QStringLiteral("a.safetensors")).isEmpty());
        QVERIFY(!ts::test::copyFixture(landmark, dir.path(), QStringLiteral("b.safetensors")).isEmpty());

        MainWindow window;
        DocumentWidget* folder = window.openPath(dir.path());
        QVERIFY(settled(folder));
        QCOMPARE(folder->state(), DocumentWidget::State::Failed);
        FolderModelPicker* picker = folder->errorView()->folderPicker();
        QVERIFY(picker->isVisibleTo(folder));
        QListWidget* list = picker->list();
        QCOMPARE(list->count(), 3);
        QVERIFY2(list->item(0)->text().startsWith(QStringLiteral("model-*-of-00002.safetensors (2 shards)")),
                 qPrintable(list->item(0)->text()));
        QVERIFY(list->item(1)->text().startsWith(QStringLiteral("a.safetensors")));

        // The shard set: picked, opened in a new tab, both shards read as one model.
        list->setCurrentRow(0);
        picker->findChild<QPushButton*>()->click();
        QCOMPARE(window.documentCount(), 2);
        DocumentWidget* set = window.document(1);
        QCOMPARE(set->path(), dir.filePath(QStringLiteral("model-*-of-00002.safetensors")));
        QVERIFY(settled(set));
        QCOMPARE(set->state(), DocumentWidget::State::Loaded);
        QCOMPARE(set->summaryView()->summary().shards, 2);
        QCOMPARE(set->summaryView()->summary().tensorCount, std::uint64_t(117));

        // A single file, by activating its row; the folder's tab stays to pick another.
        emit list->itemActivated(list->item(2));
        QCOMPARE(window.documentCount(), 3);
        DocumentWidget* b = window.document(2);
        QCOMPARE(b->path(), dir.filePath(QStringLiteral("b.safetensors")));
        QVERIFY(settled(b));
        QCOMPARE(b->state(), DocumentWidget::State::Loaded);
        QCOMPARE(window.tabs()->currentWidget(), b);
    }

    void aBrokenFileShowsNoPicker()
    {
        QTemporaryDir dir;
        QFile bad(dir.filePath(QStringLiteral("bad.safetensors")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("\x08\x00\x00\x00\x00\x00\x00\x00{\"a\":1}", 16);
        bad.close();
        MainWindow window;
        DocumentWidget* doc = window.openPath(bad.fileName());
        QVERIFY(settled(doc));
        QCOMPARE(doc->state(), DocumentWidget::State::Failed);
        QVERIFY(!doc->errorView()->folderPicker()->isVisibleTo(doc));
    }
};

QTEST_MAIN(TestUiFolderPicker)
#include "tst_ui_folder_picker.moc"
