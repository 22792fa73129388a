// Metadata editing in the window, driven as a user drives it: edits through the model the table
// edits, undo and redo through the Edit menu's shortcuts, saves of copies of real fixtures
// (checked by re-opening the file and hashing its data buffer), the Save / Discard / Cancel prompt
// (injected and the real message box) and the JSON editor's check.

#include "UiTestUtils.h"
#include "checkpoint/Checkpoint.h"
#include "document/DocumentWidget.h"
#include "document/JournalBanner.h"
#include "document/ReloadBanner.h"
#include "format/SafetensorsFile.h"
#include "metadata/JsonEditDialog.h"
#include "metadata/MetadataCommands.h"
#include "metadata/MetadataModel.h"
#include "metadata/MetadataView.h"
#include "summary/AuditModel.h"
#include "summary/SummaryView.h"
#include "tensor/TensorExport.h"
#include "window/MainWindow.h"
#include "window/Preferences.h"
#include "write/MetadataSave.h"
#include "write/SaveJournal.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QCryptographicHash>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoGroup>
#include <QUndoStack>
#include <QtEndian>

using namespace ts;
using namespace ts::ui;
using namespace ts::test;

namespace {

const QString kTiny = QStringLiteral("tiny_face_detector_u8.safetensors"); // has a JSON value
const QString kLandmark = QStringLiteral("face_landmark_68_f32.safetensors");

struct FileParts {
    quint64 headerLength = 0;
    QByteArray dataHash; // sha256 of everything after the header
};

FileParts readParts(const QString& path)
{
    FileParts parts;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return parts;
    const QByteArray prefix = f.read(8);
    if (prefix.size() != 8)
        return parts;
    parts.headerLength = qFromLittleEndian<quint64>(prefix.constData());
    f.seek(static_cast<qint64>(8 + parts.headerLength));
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&f);
    parts.dataHash = hash.result().toHex();
    return parts;
}

std::optional<Metadata> metadataOnDisk(const QString& path)
{
    auto model = Checkpoint::open(path);
    if (!model)
        return std::nullopt;
    return model.value()->metadata();
}

// Answers the next modal message box with `button`, as a user would.
void answerNextMessageBox(QMessageBox::StandardButton button, bool* answered)
{
    auto* timer = new QTimer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, button, answered] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box)
            return;
        if (QAbstractButton* b = box->button(button)) {
            *answered = true;
            timer->stop();
            timer->deleteLater();
            b->click();
        }
    });
    timer->start();
}

} // namespace

class TestUiEdit : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void modelEditsUndoRedo();
    void renameRejectsEmptyAndDuplicateKeys();
    void jsonEditorRejectsInvalidJson();
    void jsonEditorKeepsNumbersAndCompacts();
    void windowShowsUnsavedAndUndoesWithShortcuts();
    void saveInPlaceKeepsDataBuffer();
    void saveAsFullRewriteMovesDocument();
    void headerSlackPreferenceLetsLaterEditsFitInPlace();
    void interruptedSaveIsReportedAndRestoredOnRequest();
    void tornHeaderOpensToTheBanner();
    void foreignJournalIsNeverApplied();
    void readOnlyFileAsksBeforeReplacing();
    void fileChangedOnDiskIsNeverOverwritten();
    void leftoverTemporaryHasARemoveAction();
    void closeTabPromptInjected();
    void reloadAsksBeforeDiscardingEdits();
    void closeTabPromptRealMessageBox();
    void closeWindowSavesOnSave();
    void exportTensorWritesNpy();
    void screenshotOfEditState();

private:
    QString copyFixture(const QString& name) { return ts::test::copyFixture(name, m_dir->path()); }
    DocumentWidget* openLoaded(MainWindow& window, const QString& path);
    bool waitSaved(DocumentWidget* doc);
    QByteArray interruptSave(const QString& path, bool torn);

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestUiEdit::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // QSettings in a test location, not the user's
    QApplication::setOrganizationName(QStringLiteral("TensorscopeTest"));
    QApplication::setApplicationName(QStringLiteral("tst_ui_edit"));
    TS_REQUIRE_FIXTURE(realFixture(kTiny));
    TS_REQUIRE_FIXTURE(realFixture(kLandmark));
}

void TestUiEdit::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    Preferences::setHeaderSlack(0);
}

DocumentWidget* TestUiEdit::openLoaded(MainWindow& window, const QString& path)
{
    QSignalSpy loaded(&window, &MainWindow::documentLoaded);
    DocumentWidget* doc = window.openPath(path);
    if (!loaded.wait(20000) || doc->state() != DocumentWidget::State::Loaded)
        return nullptr;
    return doc;
}

bool TestUiEdit::waitSaved(DocumentWidget* doc)
{
    // A save ends with a reload of the saved file: wait for both.
    QSignalSpy saved(doc, &DocumentWidget::saveFinished);
    QSignalSpy loaded(doc, &DocumentWidget::loaded);
    if (!saved.wait(20000) || !saved.first().at(0).toBool()) {
        qWarning() << "save failed:" << (saved.isEmpty() ? QString() : saved.first().at(1).toString());
        return false;
    }
    return loaded.wait(20000) && doc->state() == DocumentWidget::State::Loaded;
}

void TestUiEdit::modelEditsUndoRedo()
{
    MetadataModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QUndoStack stack;
    Metadata original;
    original.set(QStringLiteral("format"), QStringLiteral("pt"));
    original.set(QStringLiteral("license"), QStringLiteral("MIT"));
    original.set(QStringLiteral("config"), QStringLiteral("{\"a\": 1}"));
    model.setMetadata(original);
    QVERIFY(!(model.flags(model.index(0, 1)) & Qt::ItemIsEditable)); // read-only without a stack
    QVERIFY(!model.setData(model.index(0, 1), QStringLiteral("x")));
    model.setUndoStack(&stack);
    QVERIFY(model.flags(model.index(0, 1)) & Qt::ItemIsEditable);
    QVERIFY(model.flags(model.index(2, 0)) & Qt::ItemIsEditable);
    // The JSON value goes through the checking editor, never the line editor.
    QVERIFY(!(model.flags(model.index(2, 1)) & Qt::ItemIsEditable));

    QVERIFY(model.setData(model.index(0, 1), QStringLiteral("safetensors \u00e9\u4e2d"))); // unicode
    QVERIFY(model.setData(model.index(1, 0), QStringLiteral("licence")));
    stack.push(
        new AddRemoveKeyCommand(&model, AddRemoveKeyCommand::Kind::Add, 1, QStringLiteral("empty"), {}));
    stack.push(new AddRemoveKeyCommand(&model, AddRemoveKeyCommand::Kind::Remove, 3, QStringLiteral("config"),
                                       QStringLiteral("{\"a\": 1}")));
    // The third column is the key's meaning (MetadataKeys): it follows the key through the edits.
    const QString formatMeaning = QStringLiteral(
        "The framework that wrote the tensors: pt (PyTorch), tf, flax, np or mlx; transformers refuses to "
        "load a file without it as a PyTorch checkpoint. (safetensors / transformers)");
    const QStringList edited = {QStringLiteral("format | safetensors \u00e9\u4e2d | ") + formatMeaning,
                                QStringLiteral("empty |  | "), QStringLiteral("licence | MIT | ")};
    QCOMPARE(dumpModel(&model), edited);
    QCOMPARE(stack.count(), 4);

    while (stack.canUndo())
        stack.undo();
    QCOMPARE(model.metadata(), std::optional<Metadata>(original));
    QVERIFY(stack.isClean());
    while (stack.canRedo())
        stack.redo();
    QCOMPARE(dumpModel(&model), edited);
    QVERIFY(!stack.isClean());
}

void TestUiEdit::renameRejectsEmptyAndDuplicateKeys()
{
    MetadataModel model;
    QUndoStack stack;
    Metadata original;
    original.set(QStringLiteral("a"), QStringLiteral("1"));
    original.set(QStringLiteral("b"), QStringLiteral("2"));
    model.setMetadata(original);
    model.setUndoStack(&stack);
    QVERIFY(!model.setData(model.index(0, 0), QString()));
    QVERIFY(!model.setData(model.index(0, 0), QStringLiteral("b")));
    QVERIFY(model.setData(model.index(0, 0), QStringLiteral("a"))); // unchanged: nothing to undo
    QCOMPARE(stack.count(), 0);
    QCOMPARE(model.metadata(), std::optional<Metadata>(original));
}

void TestUiEdit::jsonEditorRejectsInvalidJson()
{
    JsonEditDialog dialog(QStringLiteral("config"), QStringLiteral("{\"scheme\":\"affine\",\"bits\":8}"));
    QPushButton* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    QVERIFY(dialog.jsonCheck()->isChecked());
    QVERIFY(ok->isEnabled());
    QVERIFY(dialog.editor()->toPlainText().contains(QLatin1Char('\n'))); // shown pretty-printed

    dialog.editor()->setPlainText(QStringLiteral("{\n  \"scheme\": \"affine\",\n  \"bits\": 8,\n}"));
    QVERIFY(!dialog.isValid());
    QVERIFY(!ok->isEnabled());
    const auto error = JsonEditDialog::jsonError(dialog.editor()->toPlainText());
    QVERIFY(error);
    QVERIFY2(error->contains(QStringLiteral("line 4")), qPrintable(*error));
    dialog.show();
    dialog.accept(); // Enter while invalid: refused
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
    QVERIFY(dialog.isVisible());

    // Turning the check off stores the text as a plain string.
    dialog.jsonCheck()->setChecked(false);
    QVERIFY(ok->isEnabled());
    dialog.jsonCheck()->setChecked(true);
    dialog.editor()->setPlainText(QStringLiteral("{\"scheme\": \"affine\", \"bits\": 4}"));
    QVERIFY(ok->isEnabled());
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(dialog.value(), QStringLiteral("{\"scheme\":\"affine\",\"bits\":4}"));

    QVERIFY(JsonEditDialog::jsonError(QStringLiteral("not json")));
    QVERIFY(JsonEditDialog::jsonError(QStringLiteral("[1, 2")));
    QVERIFY(!JsonEditDialog::jsonError(QStringLiteral("[1, 2]")));
}

void TestUiEdit::jsonEditorKeepsNumbersAndCompacts()
{
    // Numbers keep their spelling, strings their spaces; only whitespace between tokens goes.
    QCOMPARE(
        JsonEditDialog::compactJson(QStringLiteral("{ \"a b\" : 1.50e0 ,\n \"c\": [ 1e400, \"x\\\" y\" ] }")),
        QStringLiteral("{\"a b\":1.50e0,\"c\":[1e400,\"x\\\" y\"]}"));
    // A value that was multi-line in the file stays as typed.
    JsonEditDialog dialog(QStringLiteral("k"), QStringLiteral("{\n \"a\": 1\n}"));
    dialog.editor()->setPlainText(QStringLiteral("{\n \"a\": 2\n}"));
    QCOMPARE(dialog.value(), QStringLiteral("{\n \"a\": 2\n}"));
}

void TestUiEdit::windowShowsUnsavedAndUndoesWithShortcuts()
{
    const QString path = copyFixture(kLandmark);
    QVERIFY(!path.isEmpty());
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    DocumentWidget* doc = openLoaded(window, path);
    QVERIFY(doc);
    QVERIFY(doc->isEditable());
    QVERIFY(!window.saveAction()->isEnabled());
    const QString cleanTitle = window.tabs()->tabText(0);
    MetadataModel* model = doc->metadataView()->model();
    const auto original = model->metadata();

    QVERIFY(model->setData(model->index(model->rowOf(QStringLiteral("license")), 1),
                           QStringLiteral("Apache-2.0")));
    QVERIFY(doc->isModified());
    QVERIFY(window.tabs()->tabText(0).contains(QChar(0x2022)));
    QVERIFY(window.windowTitle().startsWith(window.tabs()->tabText(0) + QStringLiteral(" \u2014")));
    QVERIFY(window.saveAction()->isEnabled());
    doc->showPage(DocumentWidget::MetadataPage);
    doc->metadataView()->table()->setFocus();

    QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(model->metadata(), original);
    QVERIFY(!doc->isModified());
    QCOMPARE(window.tabs()->tabText(0), cleanTitle);
    QVERIFY(!window.windowTitle().contains(QChar(0x2022)));

    QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(model->metadata()->value(QStringLiteral("license")), QStringLiteral("Apache-2.0"));
    QVERIFY(doc->isModified());

    // Add and remove through the view's buttons' slots, then undo both.
    doc->metadataView()->table()->setCurrentIndex(model->index(0, 0));
    doc->metadataView()->addKey();
    QCOMPARE(model->index(1, 0).data().toString(), QStringLiteral("new_key"));
    doc->metadataView()->removeSelectedKey();
    QCOMPARE(model->rowOf(QStringLiteral("new_key")), -1);
    window.undoGroup()->undo();
    QCOMPARE(model->rowOf(QStringLiteral("new_key")), 1);
    window.undoGroup()->undo();
    QCOMPARE(model->rowOf(QStringLiteral("new_key")), -1);
    // Discard on close, without asking the real box.
    window.setUnsavedChangesPrompt([](QWidget*, const QString&) { return QMessageBox::Discard; });
}

void TestUiEdit::saveInPlaceKeepsDataBuffer()
{
    const QString path = copyFixture(kTiny);
    QVERIFY(!path.isEmpty());
    const FileParts before = readParts(path);
    MainWindow window;
    DocumentWidget* doc = openLoaded(window, path);
    QVERIFY(doc);
    MetadataModel* model = doc->metadataView()->model();
    // Shorter than before, so the new header fits in the old one's space.
    QVERIFY(
        model->setData(model->index(model->rowOf(QStringLiteral("source")), 1), QStringLiteral("face-api")));
    QVERIFY(
        model->setData(model->index(model->rowOf(QStringLiteral("license")), 0), QStringLiteral("licence")));

    QSignalSpy saved(doc, &DocumentWidget::saveFinished);
    QVERIFY(doc->save());
    QVERIFY(doc->isSaving());
    QVERIFY(!doc->save()); // one at a time
    QVERIFY(waitSaved(doc));
    QVERIFY2(saved.first().at(1).toString().contains(QStringLiteral("in place")),
             qPrintable(saved.first().at(1).toString()));
    QVERIFY(!doc->isModified());
    QCOMPARE(doc->undoStack()->count(), 0);

    const FileParts after = readParts(path);
    QCOMPARE(after.headerLength, before.headerLength);
    QCOMPARE(after.dataHash, before.dataHash);
    const auto disk = metadataOnDisk(path);
    QVERIFY(disk);
    QCOMPARE(disk->value(QStringLiteral("source")), QStringLiteral("face-api"));
    QCOMPARE(disk->value(QStringLiteral("licence")), QStringLiteral("MIT"));
    QVERIFY(!disk->contains(QStringLiteral("license")));
    // The window shows the file as it is now, with no reload banner for our own save.
    QCOMPARE(doc->metadataView()->model()->metadata(), disk);
    QCOMPARE(doc->result().model->metadata(), disk);
    QVERIFY(!QFileInfo::exists(SaveJournal::pathFor(path))); // the save is final
    doc->checkForChanges();
    QVERIFY(!doc->isReloadPromptVisible());
}

void TestUiEdit::saveAsFullRewriteMovesDocument()
{
    const QString path = copyFixture(kTiny);
    QVERIFY(!path.isEmpty());
    const QByteArray originalHash = fileSha256(path);
    const FileParts before = readParts(path);
    MainWindow window;
    DocumentWidget* doc = openLoaded(window, path);
    QVERIFY(doc);
    MetadataModel* model = doc->metadataView()->model();
    const QString big(20000, QLatin1Char('x')); // cannot fit in place
    QVERIFY(model->setData(model->index(0, 1), big));
    const QString target = m_dir->filePath(QStringLiteral("edited.safetensors"));
    QVERIFY(doc->save(target));
    QVERIFY(waitSaved(doc));
    QCOMPARE(doc->path(), QFileInfo(target).canonicalFilePath());
    QCOMPARE(window.tabs()->tabToolTip(0), doc->path());
    QCOMPARE(fileSha256(path), originalHash); // Save As leaves the original alone
    const FileParts after = readParts(target);
    QVERIFY(after.headerLength > before.headerLength);
    QCOMPARE(after.dataHash, before.dataHash);
    QCOMPARE(metadataOnDisk(target)->value(QStringLiteral("format")), big);
    QCOMPARE(doc->metadataView()->model()->metadata()->value(QStringLiteral("format")), big);
}

void TestUiEdit::headerSlackPreferenceLetsLaterEditsFitInPlace()
{
    const QString path = copyFixture(kLandmark);
    QVERIFY(!path.isEmpty());
    const FileParts before = readParts(path);
    Preferences::setHeaderSlack(4096);
    MainWindow window;
    DocumentWidget* doc = openLoaded(window, path);
    QVERIFY(doc);
    MetadataModel* model = doc->metadataView()->model();
    // Longer than the old header allows: a full rewrite, which adds the slack.
    QVERIFY(model->setData(model->index(0, 1), QString(200, QLatin1Char('y'))));
    QSignalSpy saved(doc, &DocumentWidget::saveFinished);
    QVERIFY(doc->save());
    QVERIFY(waitSaved(doc));
    QVERIFY(saved.first().at(1).toString().contains(QStringLiteral("full rewrite")));
    const FileParts rewritten = readParts(path);
    QVERIFY(rewritten.headerLength >= before.headerLength + 200 + 4096 - 8);
    QCOMPARE(rewritten.dataHash, before.dataHash);

    // A later, larger edit now fits in the spaces.
    doc->metadataView()->table()->setCurrentIndex(model->index(model->rowCount() - 1, 0));
    doc->metadataView()->addKey();
    QVERIFY(model->setData(model->index(model->rowCount() - 1, 1), QString(1000, QLatin1Char('z'))));
    saved.clear();
    QVERIFY(doc->save());
    QVERIFY(waitSaved(doc));
    QVERIFY2(saved.first().at(1).toString().contains(QStringLiteral("in place")),
             qPrintable(saved.first().at(1).toString()));
    const FileParts inPlace = readParts(path);
    QCOMPARE(inPlace.headerLength, rewritten.headerLength);
    QCOMPARE(inPlace.dataHash, before.dataHash);
    QCOMPARE(metadataOnDisk(path)->value(QStringLiteral("new_key")), QString(1000, QLatin1Char('z')));
}

// Writes the journal a crash after the header write leaves, for a save that shortens "source"
// (so it fits in place), and returns the file's bytes before that save.
QByteArray TestUiEdit::interruptSave(const QString& path, bool torn)
{
    const QByteArray original = readFile(path);
    auto file = SafetensorsFile::open(path);
    if (!file)
        return {};
    Metadata edited = (*file)->header().metadata.value_or(Metadata{});
    edited.set(QStringLiteral("source"), QStringLiteral("x"));
    const auto after = MetadataSave::inPlaceHeader((*file)->header(), edited);
    if (!after)
        return {};
    QFile f(path);
    if (!f.open(QIODevice::ReadWrite) ||
        !SaveJournal::write(f.handle(), path, original.left(after->size()), *after))
        return {};
    // Torn: the new header reached the disk up to just after the new value, so the old bytes
    // that follow make it unparseable.
    const qsizetype cut = after->indexOf("\"source\":\"x\"");
    if (torn && cut < 0)
        return {};
    const qsizetype n = torn ? cut + 12 : after->size();
    f.write(after->left(n));
    return original;
}

void TestUiEdit::interruptedSaveIsReportedAndRestoredOnRequest()
{
    const QString path = copyFixture(kTiny);
    QVERIFY(!path.isEmpty());
    const QByteArray original = interruptSave(path, false);
    QVERIFY(!original.isEmpty());
    const QByteArray interrupted = fileSha256(path);
    QVERIFY(interrupted != fileSha256(realFixture(kTiny)));

    MainWindow window;
    DocumentWidget* doc = openLoaded(window, path);
    QVERIFY(doc);
    // Opening wrote nothing: the file and the journal are as the crash left them.
    QCOMPARE(fileSha256(path), interrupted);
    QVERIFY(QFileInfo::exists(SaveJournal::pathFor(path)));
    JournalBanner* banner = doc->journalBanner();
    QVERIFY(banner->isVisibleTo(doc));
    QVERIFY(banner->restoreButton()->isVisibleTo(banner));
    QVERIFY2(banner->message().contains(QStringLiteral("interrupted")), qPrintable(banner->message()));
    QVERIFY2(banner->message().contains(QStringLiteral("\"source\"")), qPrintable(banner->message()));
    // Keep current: nothing happens to either file.
    banner->keepButton()->click();
    QVERIFY(!banner->isVisibleTo(doc));
    QCOMPARE(fileSha256(path), interrupted);
    QVERIFY(QFileInfo::exists(SaveJournal::pathFor(path)));
    // The next load reports it again; Restore puts the old header back and reloads.
    QSignalSpy reloaded(doc, &DocumentWidget::loaded);
    doc->reload();
    QVERIFY(reloaded.wait(20000));
    QVERIFY(banner->isVisibleTo(doc));
    banner->restoreButton()->click();
    QVERIFY(reloaded.wait(20000));
    QCOMPARE(fileSha256(path), fileSha256(realFixture(kTiny)));
    QVERIFY(!QFileInfo::exists(SaveJournal::pathFor(path)));
    QVERIFY(!banner->isVisibleTo(doc));
    QCOMPARE(doc->state(), DocumentWidget::State::Loaded);
}

void TestUiEdit::tornHeaderOpensToTheBanner()
{
    // Half a new header does not parse: the error page shows, with the banner that fixes it.
    const QString path = copyFixture(kTiny);
    QVERIFY(!interruptSave(path, true).isEmpty());
    MainWindow window;
    QSignalSpy loaded(&window, &MainWindow::documentLoaded);
    DocumentWidget* doc = window.openPath(path);
    QVERIFY(loaded.wait(20000));
    QCOMPARE(doc->state(), DocumentWidget::State::Failed);
    JournalBanner* banner = doc->journalBanner();
    QVERIFY(banner->isVisibleTo(doc));
    QCOMPARE(banner->inspection().state, JournalInspection::State::Torn);
    QSignalSpy reloaded(doc, &DocumentWidget::loaded);
    banner->restoreButton()->click();
    QVERIFY(reloaded.wait(20000));
    QCOMPARE(doc->state(), DocumentWidget::State::Loaded);
    QCOMPARE(fileSha256(path), fileSha256(realFixture(kTiny)));
}

void TestUiEdit::foreignJournalIsNeverApplied()
{
    const QString path = copyFixture(kTiny);
    const QString other = m_dir->filePath(QStringLiteral("other.safetensors"));
    QVERIFY(QFile::copy(path, other));
    QVERIFY(!interruptSave(other, false).isEmpty());
    // other's journal, planted beside path: recorded for another inode.
    QVERIFY(QFile::rename(SaveJournal::pathFor(other), SaveJournal::pathFor(path)));
    const QByteArray before = fileSha256(path);
    MainWindow window;
    DocumentWidget* doc = openLoaded(window, path);
    QVERIFY(doc);
    JournalBanner* banner = doc->journalBanner();
    QVERIFY(banner->isVisibleTo(doc));
    QVERIFY(!banner->restoreButton()->isVisibleTo(banner));
    QVERIFY2(banner->message().contains(QStringLiteral("never")), qPrintable(banner->message()));
    banner->deleteButton()->click();
    QVERIFY(!QFileInfo::exists(SaveJournal::pathFor(path)));
    QVERIFY(!banner->isVisibleTo(doc));
    QCOMPARE(fileSha256(path), before);
}

void TestUiEdit::readOnlyFileAsksBeforeReplacing()
{
    const QString path = copyFixture(kTiny);
    QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::ReadGroup));
    const QByteArray before = fileSha256(path);
    MainWindow window;
    DocumentWidget* doc = openLoaded(window, path);
    QVERIFY(doc);
    MetadataModel* model = doc->metadataView()->model();
    QVERIFY(model->setData(model->index(model->rowOf(QStringLiteral("source")), 1), QStringLiteral("x")));
    QString asked;
    doc->setForcePrompt([&asked](QWidget*, const QString& question) {
        asked = question;
        return false;
    });
    QVERIFY(!doc->save());
    QVERIFY2(asked.contains(QStringLiteral("read-only")), qPrintable(asked));
    QCOMPARE(fileSha256(path), before);
    QVERIFY(doc->isModified());
    doc->setForcePrompt([](QWidget*, const QString&) { return true; });
    QVERIFY(doc->save());
    QVERIFY(waitSaved(doc));
    QCOMPARE(metadataOnDisk(path)->value(QStringLiteral("source")), QStringLiteral("x"));
    QCOMPARE(QFileInfo(path).permissions() & (QFile::WriteOwner | QFile::WriteGroup | QFile::WriteOther),
             QFileDevice::Permissions());
}

void TestUiEdit::fileChangedOnDiskIsNeverOverwritten()
{
    const QString path = copyFixture(kTiny);
    MainWindow window;
    DocumentWidget* doc = openLoaded(window, path);
    QVERIFY(doc);
    MetadataModel* model = doc->metadataView()->model();
    QVERIFY(model->setData(model->index(model->rowOf(QStringLiteral("source")), 1), QStringLiteral("mine")));
    // Another program saves the file meanwhile.
    const ProcessRun cli =
        runCli({QStringLiteral("meta"), path, QStringLiteral("--set"), QStringLiteral("theirs=1")});
    QVERIFY2(cli.exitCode == 0, qPrintable(cli.describe()));
    const QByteArray theirs = fileSha256(path);
    QSignalSpy saved(doc, &DocumentWidget::saveFinished);
    QVERIFY(doc->save());
    QVERIFY(saved.wait(20000));
    QVERIFY(!saved.first().at(0).toBool());
    QVERIFY2(saved.first().at(1).toString().contains(QStringLiteral("changed on disk")),
             qPrintable(saved.first().at(1).toString()));
    QCOMPARE(fileSha256(path), theirs);
    QVERIFY(doc->isReloadPromptVisible());
    QVERIFY2(doc->reloadBanner()->message().contains(QStringLiteral("not saved")),
             qPrintable(doc->reloadBanner()->message()));
    QVERIFY(doc->isModified()); // the edits are still there for Save As
}

void TestUiEdit::leftoverTemporaryHasARemoveAction()
{
    const QString path = copyFixture(kTiny);
    const QString temp = m_dir->filePath(QStringLiteral(".") + kTiny + QStringLiteral(".tensorscope-Zz9yX8"));
    {
        QFile f(temp);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(1 << 20, '\0'));
    }
    MainWindow window;
    DocumentWidget* doc = openLoaded(window, path);
    QVERIFY(doc);
    QVERIFY(QFileInfo::exists(temp)); // listing is not removing
    AuditModel* audit = doc->summaryView()->auditModel();
    bool listed = false;
    for (int row = 0; row < audit->rowCount(); ++row)
        listed = listed || (audit->diagnostic(row).code == QLatin1String("LeftoverTemporary") &&
                            audit->diagnostic(row).message.contains(QStringLiteral("1.00 MiB")));
    QVERIFY(listed);
    QPushButton* remove = child<QPushButton>(doc->summaryView(), "removeLeftovers");
    QVERIFY(remove->isVisibleTo(doc->summaryView()));
    QSignalSpy reloaded(doc, &DocumentWidget::loaded);
    remove->click();
    QVERIFY(!QFileInfo::exists(temp));
    QVERIFY(QFileInfo::exists(path));
    QVERIFY(reloaded.wait(20000));
    QVERIFY(!remove->isVisibleTo(doc->summaryView()));
}

void TestUiEdit::closeTabPromptInjected()
{
    const QString path = copyFixture(kLandmark);
    QVERIFY(!path.isEmpty());
    const QByteArray originalHash = fileSha256(path);
    MainWindow window;
    QStringList asked;
    QMessageBox::StandardButton answer = QMessageBox::Cancel;
    window.setUnsavedChangesPrompt([&](QWidget*, const QString& name) {
        asked << name;
        return answer;
    });
    DocumentWidget* doc = openLoaded(window, path);
    QVERIFY(doc);
    MetadataModel* model = doc->metadataView()->model();

    window.closeDocument(0); // nothing edited: closes without asking
    QCOMPARE(window.documentCount(), 0);
    QVERIFY(asked.isEmpty());

    doc = openLoaded(window, path);
    QVERIFY(doc);
    model = doc->metadataView()->model();
    QVERIFY(model->setData(model->index(0, 1), QStringLiteral("cancelled")));
    window.closeDocument(0);
    QCOMPARE(asked, QStringList{kLandmark});
    QCOMPARE(window.documentCount(), 1); // Cancel keeps it
    QVERIFY(doc->isModified());

    answer = QMessageBox::Discard;
    window.closeDocument(0);
    QCOMPARE(window.documentCount(), 0);
    QCOMPARE(fileSha256(path), originalHash);

    doc = openLoaded(window, path);
    QVERIFY(doc);
    model = doc->metadataView()->model();
    QVERIFY(model->setData(model->index(0, 1), QStringLiteral("saved on close")));
    answer = QMessageBox::Save;
    window.closeDocument(0);
    QCOMPARE(window.documentCount(), 1); // closes when the save has finished
    QTRY_COMPARE_WITH_TIMEOUT(window.documentCount(), 0, 20000);
    QCOMPARE(metadataOnDisk(path)->value(QStringLiteral("format")), QStringLiteral("saved on close"));
}

// Reload (menu, F5, the banner's button) with unsaved edits asks first: Cancel keeps the edits,
// Discard and Reload shows the file as it is on disk. Without edits it reloads without asking.
void TestUiEdit::reloadAsksBeforeDiscardingEdits()
{
    const QString path = copyFixture(kLandmark);
    QVERIFY(!path.isEmpty());
    MainWindow window;
    window.setUnsavedChangesPrompt([](QWidget*, const QString&) { return QMessageBox::Discard; });
    DocumentWidget* doc = openLoaded(window, path);
    QVERIFY(doc);
    QStringList asked;
    bool discard = false;
    doc->setDiscardPrompt([&](QWidget*, const QString& name) {
        asked << name;
        return discard;
    });
    MetadataModel* model = doc->metadataView()->model();
    const auto onDisk = model->metadata();
    QVERIFY(model->setData(model->index(0, 1), QStringLiteral("edited")));
    QVERIFY(doc->isModified());

    doc->reloadBanner()->reloadRequested(); // the banner's button, as a click emits it
    QCOMPARE(asked, QStringList{kLandmark});
    QCOMPARE(doc->state(), DocumentWidget::State::Loaded); // Cancel: no reload started
    QVERIFY(doc->isModified());
    QCOMPARE(doc->metadataView()->model()->index(0, 1).data().toString(), QStringLiteral("edited"));

    discard = true;
    doc->requestReload();
    QCOMPARE(asked.size(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(doc->state(), DocumentWidget::State::Loaded, 20000);
    QVERIFY(!doc->isModified());
    QCOMPARE(doc->metadataView()->model()->metadata(), onDisk);

    doc->requestReload(); // nothing edited: no question
    QCOMPARE(asked.size(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(doc->state(), DocumentWidget::State::Loaded, 20000);
}

void TestUiEdit::closeTabPromptRealMessageBox()
{
    const QString path = copyFixture(kLandmark);
    QVERIFY(!path.isEmpty());
    const QByteArray originalHash = fileSha256(path);
    MainWindow window;
    window.show();
    DocumentWidget* doc = openLoaded(window, path);
    QVERIFY(doc);
    MetadataModel* model = doc->metadataView()->model();
    QVERIFY(model->setData(model->index(0, 1), QStringLiteral("edited")));

    bool answered = false;
    answerNextMessageBox(QMessageBox::Cancel, &answered);
    window.closeDocument(0);
    QVERIFY(answered);
    QCOMPARE(window.documentCount(), 1);

    answered = false;
    answerNextMessageBox(QMessageBox::Discard, &answered);
    QVERIFY(window.close()); // Discard: the window closes and the file stays as it was
    QVERIFY(answered);
    QVERIFY(!window.isVisible());
    QCOMPARE(fileSha256(path), originalHash);
}

void TestUiEdit::closeWindowSavesOnSave()
{
    const QString a = copyFixture(kLandmark);
    const QString b = copyFixture(kTiny);
    QVERIFY(!a.isEmpty() && !b.isEmpty());
    const FileParts beforeB = readParts(b);
    MainWindow window;
    window.show();
    QList<QMessageBox::StandardButton> answers = {QMessageBox::Save, QMessageBox::Cancel};
    window.setUnsavedChangesPrompt([&](QWidget*, const QString&) { return answers.takeFirst(); });
    DocumentWidget* docA = openLoaded(window, a);
    DocumentWidget* docB = openLoaded(window, b);
    QVERIFY(docA && docB);
    QVERIFY(docA->metadataView()->model()->setData(docA->metadataView()->model()->index(0, 1),
                                                   QStringLiteral("A")));
    QVERIFY(docB->metadataView()->model()->setData(docB->metadataView()->model()->index(0, 1),
                                                   QStringLiteral("B")));

    // Save for one, Cancel for the other: nothing is saved, nothing closes.
    QVERIFY(!window.close());
    QVERIFY(window.isVisible());
    QVERIFY(answers.isEmpty());
    QVERIFY(docA->isModified() && docB->isModified());
    QCOMPARE(metadataOnDisk(a)->value(QStringLiteral("format")), QStringLiteral("pt"));

    answers = {QMessageBox::Save, QMessageBox::Save};
    QVERIFY(!window.close()); // waits for the saves
    QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 20000);
    QCOMPARE(metadataOnDisk(a)->value(QStringLiteral("format")), QStringLiteral("A"));
    QCOMPARE(metadataOnDisk(b)->value(QStringLiteral("format")), QStringLiteral("B"));
    QCOMPARE(readParts(b).dataHash, beforeB.dataHash);
}

void TestUiEdit::exportTensorWritesNpy()
{
    // What the tensor browser's "Export Tensor..." runs after its file dialog.
    auto opened = Checkpoint::open(realFixture(kLandmark));
    QVERIFY2(opened, "the landmark fixture should open");
    std::shared_ptr<const Checkpoint> model = opened.value();
    int tensor = -1;
    for (int i = 0; i < static_cast<int>(model->tensors().size()); ++i) {
        if (model->tensors()[static_cast<std::size_t>(i)].info.dtype == Dtype::F32) {
            tensor = i;
            break;
        }
    }
    QVERIFY(tensor >= 0);
    const TensorInfo& info = model->tensors()[static_cast<std::size_t>(tensor)].info;
    const QString out = m_dir->filePath(QStringLiteral("t.npy"));
    const TensorExport::Outcome done = TensorExport::run(model, tensor, out);
    QVERIFY2(done, qPrintable(done ? QString() : done.error().toString()));

    QFile npy(out);
    QVERIFY(npy.open(QIODevice::ReadOnly));
    const QByteArray bytes = npy.readAll();
    QVERIFY(bytes.startsWith(QByteArray("\x93NUMPY", 6)));
    QVERIFY(bytes.contains("'descr': '<f4'"));
    QFile source(realFixture(kLandmark));
    QVERIFY(source.open(QIODevice::ReadOnly));
    source.seek(static_cast<qint64>(model->safetensorsFile()->header().dataOffset() + info.begin));
    const QByteArray raw = source.read(static_cast<qint64>(info.byteSize()));
    QCOMPARE(raw.size(), static_cast<qsizetype>(info.byteSize()));
    QVERIFY(bytes.endsWith(raw));

    const TensorExport::Outcome refused =
        TensorExport::run(model, tensor, m_dir->filePath(QStringLiteral("t.bin")));
    QVERIFY(!refused);
    QCOMPARE(refused.error().code, ErrorCode::InvalidArgument);

    // Never over the model's own file, even by a name the dialog accepts (a symlink to it): the
    // dialog's "replace?" covers other files only.
    const QString own = m_dir->filePath(QStringLiteral("the-model.npy"));
    QVERIFY(QFile::link(realFixture(kLandmark), own));
    const TensorExport::Outcome overInput = TensorExport::run(model, tensor, own);
    QVERIFY(!overInput);
    QVERIFY2(overInput.error().message.contains(QStringLiteral("never writes over the model")),
             qPrintable(overInput.error().toString()));
    QVERIFY(QFileInfo(own).isSymLink());
}

// Not a check: with TS_UI_SCREENSHOT=out.png (run under Xvfb with -platform xcb) it saves what a
// user sees after an edit, for a person to judge.
void TestUiEdit::screenshotOfEditState()
{
    const QString out = qEnvironmentVariable("TS_UI_SCREENSHOT");
    if (out.isEmpty())
        QSKIP("set TS_UI_SCREENSHOT=file.png to save a screenshot of the edit state");
    const QString path = copyFixture(kTiny);
    QVERIFY(!path.isEmpty());
    MainWindow window;
    window.resize(1280, 760);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    DocumentWidget* doc = openLoaded(window, path);
    QVERIFY(doc);
    doc->showPage(DocumentWidget::MetadataPage);
    MetadataModel* model = doc->metadataView()->model();
    QVERIFY(model->setData(model->index(model->rowOf(QStringLiteral("license")), 1),
                           QStringLiteral("Apache-2.0")));
    doc->metadataView()->table()->setCurrentIndex(
        model->index(model->rowOf(QStringLiteral("quantization")), 1));
    doc->metadataView()->addKey();
    QVERIFY(model->setData(model->index(model->rowOf(QStringLiteral("new_key")), 0),
                           QStringLiteral("finetuned_by")));
    QVERIFY(model->setData(model->index(model->rowOf(QStringLiteral("finetuned_by")), 1),
                           QStringLiteral("tensorscope")));
    doc->metadataView()->table()->setCurrentIndex(
        model->index(model->rowOf(QStringLiteral("quantization")), 1));
    // The selection's layout and repaint requests are posted events: deliver them once, so the
    // picture shows the state just set.
    QCoreApplication::sendPostedEvents();
    QVERIFY(window.grab().save(out));
    window.setUnsavedChangesPrompt([](QWidget*, const QString&) { return QMessageBox::Discard; });
}

QTEST_MAIN(TestUiEdit)
#include "tst_ui_edit.moc"
