// The Convert dialog driven as a user drives it: options typed into its fields, the
// preview read back from its model before anything is written, the write run to completion (and
// the output re-opened through the core), Cancel, and File > Convert... in the window.

#include "UiTestUtils.h"
#include "checkpoint/Checkpoint.h"
#include "conversion/ConvertDialog.h"
#include "conversion/ConvertPreviewModel.h"
#include "conversion/ConvertPreviewProxy.h"
#include "document/DocumentWidget.h"
#include "window/MainWindow.h"
#include "window/Preferences.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>

#include <cmath>
#include <limits>
#include <map>

using namespace ts;
using namespace ts::ui;
using namespace ts::test;

namespace {

const QString kLandmark = QStringLiteral("face_landmark_68_f32.safetensors");

// A single-tensor F32 file big enough (32 MiB) that a write cannot finish before Cancel reaches it.
bool writeBigFile(const QString& path)
{
    constexpr std::uint64_t elements = 8ull * 1024 * 1024;
    return writeSafetensors(
        path, {{QStringLiteral("w"), Dtype::F32, {elements}, bytesOf(std::vector<float>(elements, 1.0f))}});
}

// A plan as lines "source -> name dtype" and "metadata key=value", for comparing the dialog's with
// the CLI's report.
QStringList describePlan(const ConvertPlan& plan)
{
    QStringList lines;
    for (const PlannedTensor& t : plan.tensors)
        lines << QStringLiteral("%1 -> %2 %3").arg(t.sourceName, t.name, dtypeName(t.to));
    if (plan.metadata) {
        for (const auto& [key, value] : plan.metadata->entries())
            lines << QStringLiteral("metadata %1=%2").arg(key, value);
    }
    return lines;
}

QStringList describePlan(const QJsonObject& report)
{
    QStringList lines;
    for (const QJsonValue& v : report.value(QStringLiteral("tensors")).toArray()) {
        const QJsonObject t = v.toObject();
        lines << QStringLiteral("%1 -> %2 %3")
                     .arg(t.value(QStringLiteral("source")).toString(),
                          t.value(QStringLiteral("name")).toString(),
                          t.value(QStringLiteral("to")).toString());
    }
    const QJsonObject metadata = report.value(QStringLiteral("metadata")).toObject();
    for (auto it = metadata.begin(); it != metadata.end(); ++it)
        lines << QStringLiteral("metadata %1=%2").arg(it.key(), it.value().toString());
    return lines;
}

void selectDtype(ConvertDialog& dialog, const QString& dtype)
{
    auto* box = child<QComboBox>(&dialog, "dtype");
    box->setCurrentIndex(box->findData(dtype));
}

} // namespace

class TestUiConvert : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void previewAndConvertToF16();
    void previewModelIsConsistent();
    void optionErrorsAndStalePreview();
    void perTensorDtypesAndMetadataEdits();
    void cancelLeavesNoOutput_data();
    void cancelLeavesNoOutput();
    void convertActionInWindow();
    void dialogAndCliReadTheSameText();
    void previewSortsFiltersAndShowsSourceNanInf();

private:
    QString copyFixture(const QString& name) { return ts::test::copyFixture(name, m_dir->path()); }
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestUiConvert::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // QSettings in a test location, not the user's
    QApplication::setOrganizationName(QStringLiteral("TensorscopeTest"));
    QApplication::setApplicationName(QStringLiteral("tst_ui_convert"));
    TS_REQUIRE_FIXTURE(realFixture(kLandmark));
}

void TestUiConvert::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    Preferences::setHeaderSlack(0);
}

void TestUiConvert::previewAndConvertToF16()
{
    const QString input = copyFixture(kLandmark);
    QVERIFY2(!input.isEmpty(), "cannot copy the landmark fixture");
    const auto source = openCheckpoint(input);
    QVERIFY(source);
    std::map<QString, std::uint64_t> sourceBytes;
    for (const CheckpointTensor& t : source->tensors())
        sourceBytes[t.info.name] = t.info.byteSize();
    QCOMPARE(sourceBytes.size(), std::size_t{49});

    ConvertDialog dialog(source);
    QVERIFY(!child<QPushButton>(&dialog, "convert")->isEnabled()); // nothing is written before a preview
    selectDtype(dialog, QStringLiteral("F16"));
    child<QLineEdit>(&dialog, "exclude")->setText(QStringLiteral("*.bias"));
    const QString output = m_dir->filePath(QStringLiteral("out-f16.safetensors"));
    child<QLineEdit>(&dialog, "output")->setText(output);

    QSignalSpy previewed(&dialog, &ConvertDialog::previewFinished);
    QVERIFY(dialog.startPreview());
    QVERIFY(previewed.wait(20000));
    QVERIFY2(previewed.first().at(0).toBool(), qPrintable(child<QLabel>(&dialog, "status")->text()));
    QVERIFY(!QFileInfo::exists(output)); // the preview writes nothing

    const ConvertPreviewModel* model = dialog.previewModel();
    QCOMPARE(model->rowCount(), 32); // 49 tensors less the 17 biases
    for (int row = 0; row < model->rowCount(); ++row) {
        const auto cell = [&](int column, int role = Qt::DisplayRole) {
            return model->index(row, column).data(role);
        };
        const QString name = cell(ConvertPreviewModel::NameColumn).toString();
        QVERIFY2(!name.endsWith(QStringLiteral(".bias")), qPrintable(name));
        QCOMPARE(cell(ConvertPreviewModel::FromColumn).toString(), QStringLiteral("F32"));
        QCOMPARE(cell(ConvertPreviewModel::ToColumn).toString(), QStringLiteral("F16"));
        const quint64 before =
            cell(ConvertPreviewModel::BytesBeforeColumn, ConvertPreviewModel::RawRole).toULongLong();
        const quint64 after =
            cell(ConvertPreviewModel::BytesAfterColumn, ConvertPreviewModel::RawRole).toULongLong();
        QCOMPARE(before, sourceBytes.at(name));
        QCOMPARE(after * 2, before);
        // The report pass ran: the counts are numbers, not "not measured". These are small
        // landmark weights, well inside F16's range, and the file has no NaN.
        QVERIFY(cell(ConvertPreviewModel::OverflowColumn, ConvertPreviewModel::RawRole).isValid());
        QCOMPARE(cell(ConvertPreviewModel::OverflowColumn, ConvertPreviewModel::RawRole).toULongLong(), 0ull);
        QCOMPARE(cell(ConvertPreviewModel::NanColumn, ConvertPreviewModel::RawRole).toULongLong(), 0ull);
        QVERIFY(cell(ConvertPreviewModel::UnderflowColumn, ConvertPreviewModel::RawRole).isValid());
    }
    QVERIFY(child<QPushButton>(&dialog, "convert")->isEnabled());
    // Not a check: TS_UI_SCREENSHOT=out.png saves the dialog with its preview, for a look.
    if (const QString shot = qEnvironmentVariable("TS_UI_SCREENSHOT"); !shot.isEmpty()) {
        dialog.show();
        dialog.grab().save(shot);
    }

    QSignalSpy converted(&dialog, &ConvertDialog::convertFinished);
    QVERIFY(dialog.startConvert());
    QVERIFY(dialog.isBusy());
    QVERIFY(child<QPushButton>(&dialog, "cancel")->isEnabled());
    QVERIFY(converted.wait(20000));
    QVERIFY2(converted.first().at(0).toBool(), qPrintable(converted.first().at(2).toString()));
    QVERIFY(!converted.first().at(1).toBool());
    QVERIFY(!dialog.isBusy());

    const auto written = openCheckpoint(output);
    QVERIFY2(written, "the converted file should re-open as a valid safetensors file");
    QCOMPARE(written->tensors().size(), std::size_t{32});
    for (const CheckpointTensor& t : written->tensors()) {
        QCOMPARE(t.info.dtype, Dtype::F16);
        QVERIFY(!t.info.name.endsWith(QStringLiteral(".bias")));
        QCOMPARE(t.info.byteSize() * 2, sourceBytes.at(t.info.name));
    }
    QCOMPARE(written->metadata(), source->metadata()); // metadata is kept
}

void TestUiConvert::previewModelIsConsistent()
{
    const QString input = copyFixture(kLandmark);
    QVERIFY(!input.isEmpty());
    ConvertDialog dialog(openCheckpoint(input));
    QAbstractItemModelTester tester(dialog.previewModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    selectDtype(dialog, QStringLiteral("BF16"));
    child<QPlainTextEdit>(&dialog, "rename")->setPlainText(QStringLiteral("^dense=block"));
    QSignalSpy previewed(&dialog, &ConvertDialog::previewFinished);
    QVERIFY(dialog.startPreview());
    QVERIFY(previewed.wait(20000));
    QVERIFY(previewed.first().at(0).toBool());
    QCOMPARE(dialog.previewModel()->rowCount(), 49);
    const QModelIndex first = dialog.previewModel()->index(0, ConvertPreviewModel::NameColumn);
    QVERIFY(first.data().toString().startsWith(QStringLiteral("block")));
    QVERIFY(dialog.previewModel()
                ->index(0, ConvertPreviewModel::NoteColumn)
                .data()
                .toString()
                .contains(QStringLiteral("dense")));
    // Changing an option the plan depends on empties the preview (through the tester's checks).
    child<QLineEdit>(&dialog, "exclude")->setText(QStringLiteral("fc.*"));
    QCOMPARE(dialog.previewModel()->rowCount(), 0);
}

void TestUiConvert::optionErrorsAndStalePreview()
{
    const QString input = copyFixture(kLandmark);
    QVERIFY(!input.isEmpty());
    ConvertDialog dialog(openCheckpoint(input));
    child<QPlainTextEdit>(&dialog, "rename")->setPlainText(QStringLiteral("no equals sign"));
    QVERIFY(!dialog.startPreview());
    QVERIFY(!child<QLabel>(&dialog, "status")->text().isEmpty());
    child<QPlainTextEdit>(&dialog, "rename")->setPlainText(QStringLiteral("(=x"));
    QVERIFY(!dialog.startPreview());
    child<QPlainTextEdit>(&dialog, "rename")->clear();
    child<QLineEdit>(&dialog, "shardSize")->setText(QStringLiteral("lots"));
    QVERIFY(!dialog.startPreview());
    child<QLineEdit>(&dialog, "shardSize")->clear();

    QSignalSpy previewed(&dialog, &ConvertDialog::previewFinished);
    QVERIFY(dialog.startPreview());
    QVERIFY(previewed.wait(20000));
    QVERIFY(dialog.hasPreview());
    selectDtype(dialog, QStringLiteral("F8_E4M3"));
    QVERIFY(!dialog.hasPreview());
    QVERIFY(!child<QPushButton>(&dialog, "convert")->isEnabled());
    QVERIFY(!dialog.startConvert()); // a stale preview is never written
}

// The dialog's --dtype-for, --set and --unset: the preview shows the per-tensor dtypes, the
// written file has them and the edited metadata, and a malformed line is refused with a sentence.
void TestUiConvert::perTensorDtypesAndMetadataEdits()
{
    const QString input = copyFixture(kLandmark);
    QVERIFY(!input.isEmpty());
    const auto source = openCheckpoint(input);
    QVERIFY(source);
    ConvertDialog dialog(source);
    selectDtype(dialog, QStringLiteral("F16"));
    child<QPlainTextEdit>(&dialog, "dtypeFor")
        ->setPlainText(QStringLiteral("dense0.*=BF16\n  *.bias = F32  \n"));
    child<QPlainTextEdit>(&dialog, "setMetadata")
        ->setPlainText(QStringLiteral("note=half precision, biases kept\nformat=pt\n"));
    child<QPlainTextEdit>(&dialog, "unsetMetadata")->setPlainText(QStringLiteral("license\n"));
    const QString output = m_dir->filePath(QStringLiteral("out-mixed.safetensors"));
    child<QLineEdit>(&dialog, "output")->setText(output);

    // The dtype the rules give each tensor: the last matching rule wins, else the dialog's dtype.
    const auto expected = [](const QString& name) {
        if (name.endsWith(QStringLiteral(".bias")))
            return Dtype::F32;
        if (name.startsWith(QStringLiteral("dense0.")))
            return Dtype::BF16;
        return Dtype::F16;
    };
    QSignalSpy previewed(&dialog, &ConvertDialog::previewFinished);
    QVERIFY(dialog.startPreview());
    QVERIFY(previewed.wait(20000));
    QVERIFY2(previewed.first().at(0).toBool(), qPrintable(child<QLabel>(&dialog, "status")->text()));
    const ConvertPreviewModel* model = dialog.previewModel();
    QCOMPARE(model->rowCount(), 49);
    QSet<QString> shown;
    for (int row = 0; row < model->rowCount(); ++row) {
        const QString name = model->index(row, ConvertPreviewModel::NameColumn).data().toString();
        const QString to = model->index(row, ConvertPreviewModel::ToColumn).data().toString();
        QCOMPARE(to, dtypeName(expected(name)));
        shown << to;
    }
    QCOMPARE(shown.size(), 3); // every rule took effect somewhere

    QSignalSpy converted(&dialog, &ConvertDialog::convertFinished);
    QVERIFY(dialog.startConvert());
    QVERIFY(converted.wait(20000));
    QVERIFY2(converted.first().at(0).toBool(), qPrintable(converted.first().at(2).toString()));
    const auto written = openCheckpoint(output);
    QVERIFY(written);
    for (const CheckpointTensor& t : written->tensors())
        QCOMPARE(t.info.dtype, expected(t.info.name));
    const auto metadata = written->metadata();
    QVERIFY(metadata);
    QCOMPARE(metadata->value(QStringLiteral("note")),
             std::optional<QString>(QStringLiteral("half precision, biases kept")));
    QCOMPARE(metadata->value(QStringLiteral("format")), std::optional<QString>(QStringLiteral("pt")));
    QVERIFY(!metadata->value(QStringLiteral("license")));
    QCOMPARE(metadata->value(QStringLiteral("source")), source->metadata()->value(QStringLiteral("source")));

    // Malformed lines: nothing starts, and the status says what is wrong.
    child<QPlainTextEdit>(&dialog, "dtypeFor")->setPlainText(QStringLiteral("*.bias=F12"));
    QVERIFY(!dialog.startPreview());
    QVERIFY2(child<QLabel>(&dialog, "status")->text().contains(QStringLiteral("*.bias=F12")),
             qPrintable(child<QLabel>(&dialog, "status")->text()));
    child<QPlainTextEdit>(&dialog, "dtypeFor")->setPlainText(QStringLiteral("*.bias=I32"));
    QVERIFY(!dialog.startPreview()); // not a conversion target
    child<QPlainTextEdit>(&dialog, "dtypeFor")->clear();
    child<QPlainTextEdit>(&dialog, "setMetadata")->setPlainText(QStringLiteral("no equals sign"));
    QVERIFY(!dialog.startPreview());
    QVERIFY(child<QLabel>(&dialog, "status")->text().contains(QStringLiteral("no equals sign")));
}

void TestUiConvert::cancelLeavesNoOutput_data()
{
    QTest::addColumn<bool>("duringWrite");
    QTest::newRow("at once") << false;          // before the job gets a thread, or at its first chunk
    QTest::newRow("at first progress") << true; // the engine is writing, or already done
}

void TestUiConvert::cancelLeavesNoOutput()
{
    QFETCH(bool, duringWrite);
    const QString input = m_dir->filePath(QStringLiteral("big.safetensors"));
    QVERIFY(writeBigFile(input));
    const auto source = openCheckpoint(input);
    QVERIFY(source);
    ConvertDialog dialog(source);
    selectDtype(dialog, QStringLiteral("F16"));
    const QString output = m_dir->filePath(QStringLiteral("cancelled.safetensors"));
    child<QLineEdit>(&dialog, "output")->setText(output);
    QSignalSpy previewed(&dialog, &ConvertDialog::previewFinished);
    QVERIFY(dialog.startPreview());
    QVERIFY(previewed.wait(20000));
    QVERIFY(previewed.first().at(0).toBool());

    QSignalSpy converted(&dialog, &ConvertDialog::convertFinished);
    if (duringWrite) {
        connect(child<QProgressBar>(&dialog, "progress"), &QProgressBar::valueChanged, &dialog,
                [&dialog](int value) {
                    if (value > 0)
                        child<QPushButton>(&dialog, "cancel")->click();
                });
    }
    QVERIFY(dialog.startConvert());
    if (!duringWrite)
        child<QPushButton>(&dialog, "cancel")->click();
    QVERIFY(converted.wait(20000));
    if (duringWrite && converted.first().at(0).toBool()) {
        // The write won the race with Cancel (progress reaches the dialog later than the engine
        // makes it). Then the dialog must say so and the file must be complete, never "cancelled"
        // beside a file that exists.
        QVERIFY(!converted.first().at(1).toBool());
        QVERIFY(openCheckpoint(output));
        return;
    }
    QVERIFY(!converted.first().at(0).toBool());
    QVERIFY(converted.first().at(1).toBool());
    QVERIFY(!QFileInfo::exists(output));
    // No temporary file left behind either: the folder holds the input only.
    QCOMPARE(QDir(m_dir->path()).entryList(QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("big.safetensors")});
    QVERIFY(child<QPushButton>(&dialog, "convert")
                ->isEnabled()); // the preview still stands; the user may try again
}

void TestUiConvert::convertActionInWindow()
{
    const QString input = copyFixture(kLandmark);
    QVERIFY(!input.isEmpty());
    MainWindow window;
    QAction* convert = nullptr;
    for (QAction* menu : window.menuBar()->actions()) {
        if (!menu->menu())
            continue;
        for (QAction* a : menu->menu()->actions()) {
            if (a->text().remove(QLatin1Char('&')).startsWith(QStringLiteral("Convert")))
                convert = a;
        }
    }
    QVERIFY2(convert, "File > Convert... is missing");
    QVERIFY(!convert->isEnabled()); // no document yet
    QSignalSpy loaded(&window, &MainWindow::documentLoaded);
    DocumentWidget* doc = window.openPath(input);
    QVERIFY(loaded.wait(20000));
    QCOMPARE(doc->state(), DocumentWidget::State::Loaded);
    QVERIFY(convert->isEnabled());
    convert->trigger();
    auto* dialog = window.findChild<ConvertDialog*>();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->previewModel()->rowCount(), 0);
    dialog->close();
}

// The dialog and `tensorscope-cli convert` read options through one parser
// (core/convert/ConvertOptionsParser.h): the same text gives the same plan, and the same bad text
// the same sentence. The texts are those the two used to read differently: '=' in a glob (split at
// the last), in a replacement and in a value (split at the first), a lower-case dtype, spaces
// around '='.
void TestUiConvert::dialogAndCliReadTheSameText()
{
    const QString input = m_dir->filePath(QStringLiteral("mixed.safetensors"));
    const QByteArray four = bytesOf(std::vector<float>{0.5f, -1.0f, 2.0f, 70000.0f});
    Metadata metadata;
    metadata.set(QStringLiteral("format"), QStringLiteral("pt"));
    metadata.set(QStringLiteral("license"), QStringLiteral("mit"));
    QVERIFY(writeSafetensors(input,
                             {{QStringLiteral("lora.alpha=2.weight"), Dtype::F32, {4}, four},
                              {QStringLiteral("model.dense.weight"), Dtype::F32, {4}, four},
                              {QStringLiteral("model.dense.bias"), Dtype::F32, {4}, four},
                              {QStringLiteral("model.norm.weight"), Dtype::F32, {4}, four}},
                             metadata));
    const QString dtypeFor = QStringLiteral("lora.alpha=2.*=f16\n*.bias = F64");
    const QString rename = QStringLiteral("^model\\.=m=");
    const QString set = QStringLiteral("note=a=b");

    ConvertDialog dialog(openCheckpoint(input));
    selectDtype(dialog, QStringLiteral("BF16"));
    child<QPlainTextEdit>(&dialog, "dtypeFor")->setPlainText(dtypeFor);
    child<QLineEdit>(&dialog, "exclude")->setText(QStringLiteral("*.norm.*"));
    child<QPlainTextEdit>(&dialog, "rename")->setPlainText(rename);
    child<QPlainTextEdit>(&dialog, "setMetadata")->setPlainText(set);
    child<QPlainTextEdit>(&dialog, "unsetMetadata")->setPlainText(QStringLiteral("license"));
    QSignalSpy previewed(&dialog, &ConvertDialog::previewFinished);
    QVERIFY(dialog.startPreview());
    QVERIFY(previewed.wait(20000));
    QVERIFY2(previewed.first().at(0).toBool(), qPrintable(child<QLabel>(&dialog, "status")->text()));
    const QStringList fromDialog = describePlan(dialog.previewModel()->plan());

    QStringList args{QStringLiteral("convert"),   input,
                     QStringLiteral("--dry-run"), QStringLiteral("--json"),
                     QStringLiteral("--dtype"),   QStringLiteral("bf16"),
                     QStringLiteral("--exclude"), QStringLiteral("*.norm.*"),
                     QStringLiteral("--rename"),  rename,
                     QStringLiteral("--set"),     set,
                     QStringLiteral("--unset"),   QStringLiteral("license")};
    for (const QString& rule : dtypeFor.split(QLatin1Char('\n')))
        args << QStringLiteral("--dtype-for") << rule;
    const ProcessRun cli = runCli(args);
    QVERIFY2(cli.exitCode == 0, qPrintable(cli.describe()));
    const QStringList fromCli = describePlan(QJsonDocument::fromJson(cli.out).object());
    QCOMPARE(fromDialog, fromCli);
    // And it is the plan those rules describe, not one both got wrong alike.
    QCOMPARE(fromDialog,
             (QStringList{QStringLiteral("lora.alpha=2.weight -> lora.alpha=2.weight F16"),
                          QStringLiteral("model.dense.bias -> m=dense.bias F64"),
                          QStringLiteral("model.dense.weight -> m=dense.weight BF16"),
                          QStringLiteral("metadata format=pt"), QStringLiteral("metadata note=a=b")}));

    // A bad option: nothing starts in either, and both say the same sentence.
    child<QPlainTextEdit>(&dialog, "dtypeFor")->setPlainText(QStringLiteral("*.bias=F12"));
    QVERIFY(!dialog.startPreview());
    const ProcessRun bad = runCli({QStringLiteral("convert"), input, QStringLiteral("--dry-run"),
                                   QStringLiteral("--dtype-for"), QStringLiteral("*.bias=F12")});
    QCOMPARE(bad.exitCode, 2);
    QCOMPARE(QStringLiteral("tensorscope-cli: ") + child<QLabel>(&dialog, "status")->text(),
             QString::fromUtf8(bad.err).section(QLatin1Char('\n'), 0, 0));
}

// Item 7 of #16: the preview a user can act on. Sorting goes by the raw numbers and the natural
// order of names, Problems only leaves exactly the planted problem rows, the source's NaN and Inf
// show in their rows, and a long name (elided in the middle) is whole in its tooltip.
void TestUiConvert::previewSortsFiltersAndShowsSourceNanInf()
{
    const QString input = m_dir->filePath(QStringLiteral("problems.safetensors"));
    const float inf = std::numeric_limits<float>::infinity();
    const QString longName = QStringLiteral("model.encoder.") +
                             QStringLiteral("very_long_module_name_").repeated(12) +
                             QStringLiteral("17.attention.weight");
    std::vector<float> withNan = smallWeights(8, 0.5f);
    withNan[5] = std::nanf("");
    std::vector<float> withInf = smallWeights(8, 0.5f);
    withInf[0] = -inf;
    withInf[7] = inf;
    // 900 and 4096 bytes: as text "900 B" sorts after "4 KiB", as numbers before.
    QVERIFY(writeSafetensors(
        input,
        {{QStringLiteral("layers.2.small"), Dtype::F32, {225}, bytesOf(smallWeights(225, 0.5f))},
         {QStringLiteral("layers.10.big"), Dtype::F32, {32, 32}, bytesOf(smallWeights(1024, 0.5f))},
         {QStringLiteral("layers.3.over"), Dtype::F32, {2}, bytesOf(std::vector<float>{1.0f, 7e4f})},
         {QStringLiteral("layers.4.nan"), Dtype::F32, {2, 4}, bytesOf(withNan)},
         {QStringLiteral("layers.5.inf"), Dtype::F32, {8}, bytesOf(withInf)},
         {QStringLiteral("layers.6.under"), Dtype::F32, {2}, bytesOf(std::vector<float>{1.0f, 1e-9f})},
         {QStringLiteral("scales"), Dtype::F8_E8M0, {4}, QByteArray(4, char(0x7f))}, // kept: a note
         {QStringLiteral("positions"), Dtype::I32, {4}, bytesOf(std::vector<std::int32_t>{0, 1, 2, 3})},
         {longName, Dtype::F32, {4}, bytesOf(smallWeights(4, 0.5f))}}));
    ConvertDialog dialog(openCheckpoint(input));
    ConvertPreviewProxy* proxy = dialog.previewProxy();
    QAbstractItemModelTester modelTester(dialog.previewModel(),
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(child<QTableView>(&dialog, "previewTable")->model(), static_cast<QAbstractItemModel*>(proxy));
    selectDtype(dialog, QStringLiteral("F16"));
    QSignalSpy previewed(&dialog, &ConvertDialog::previewFinished);
    QVERIFY(dialog.startPreview());
    QVERIFY(previewed.wait(20000));
    QVERIFY2(previewed.first().at(0).toBool(), qPrintable(child<QLabel>(&dialog, "status")->text()));
    // One overflowing value, in the singular.
    QVERIFY2(child<QLabel>(&dialog, "status")
                 ->text()
                 .startsWith(QStringLiteral("Warning: 1 value is out of range")),
             qPrintable(child<QLabel>(&dialog, "status")->text()));
    QCOMPARE(proxy->rowCount(), 9);

    const auto names = [proxy] {
        QStringList out;
        for (int row = 0; row < proxy->rowCount(); ++row)
            out << proxy->index(row, ConvertPreviewModel::NameColumn)
                       .data(ConvertPreviewModel::RawRole)
                       .toString();
        return out;
    };
    const auto rowOf = [proxy](const QString& name) {
        for (int row = 0; row < proxy->rowCount(); ++row) {
            if (proxy->index(row, ConvertPreviewModel::NameColumn).data(ConvertPreviewModel::RawRole) == name)
                return row;
        }
        return -1;
    };
    // Names in natural order: layers.2 before layers.10.
    proxy->sort(ConvertPreviewModel::NameColumn, Qt::AscendingOrder);
    QVERIFY2(rowOf(QStringLiteral("layers.2.small")) < rowOf(QStringLiteral("layers.10.big")),
             qPrintable(names().join(QLatin1Char(' '))));
    // Bytes by value: the 900-byte tensor before the 4 KiB one, and the column never goes down.
    proxy->sort(ConvertPreviewModel::BytesBeforeColumn, Qt::AscendingOrder);
    QVERIFY2(rowOf(QStringLiteral("layers.2.small")) < rowOf(QStringLiteral("layers.10.big")),
             qPrintable(names().join(QLatin1Char(' '))));
    for (int row = 1; row < proxy->rowCount(); ++row) {
        const auto bytes = [&](int r) {
            return proxy->index(r, ConvertPreviewModel::BytesBeforeColumn)
                .data(ConvertPreviewModel::RawRole)
                .toULongLong();
        };
        QVERIFY(bytes(row - 1) <= bytes(row));
    }
    proxy->sort(ConvertPreviewModel::BytesBeforeColumn, Qt::DescendingOrder);
    QVERIFY(rowOf(QStringLiteral("layers.10.big")) < rowOf(QStringLiteral("layers.2.small")));

    // The source's NaN and Inf, in their rows; none in a clean row.
    const auto cell = [&](const QString& name, int column) {
        return proxy->index(rowOf(name), column).data(ConvertPreviewModel::RawRole).toULongLong();
    };
    QCOMPARE(cell(QStringLiteral("layers.4.nan"), ConvertPreviewModel::NanColumn), 1ull);
    QCOMPARE(
        proxy->index(rowOf(QStringLiteral("layers.4.nan")), ConvertPreviewModel::NanColumn).data().toString(),
        QStringLiteral("1"));
    QCOMPARE(cell(QStringLiteral("layers.4.nan"), ConvertPreviewModel::InfColumn), 0ull);
    QCOMPARE(cell(QStringLiteral("layers.5.inf"), ConvertPreviewModel::InfColumn), 2ull);
    QCOMPARE(cell(QStringLiteral("layers.5.inf"), ConvertPreviewModel::OverflowColumn),
             0ull); // Inf stays Inf
    QCOMPARE(cell(QStringLiteral("layers.3.over"), ConvertPreviewModel::OverflowColumn), 1ull);
    QCOMPARE(cell(QStringLiteral("layers.10.big"), ConvertPreviewModel::NanColumn), 0ull);
    QCOMPARE(cell(QStringLiteral("layers.10.big"), ConvertPreviewModel::InfColumn), 0ull);

    // Problems only: exactly the planted rows, whatever the sort.
    auto* problemsOnly = child<QCheckBox>(&dialog, "problemsOnly");
    QVERIFY(problemsOnly->text().contains(QStringLiteral("5 of 9")));
    problemsOnly->setChecked(true);
    QStringList problems = names();
    problems.sort();
    QCOMPARE(problems, (QStringList{QStringLiteral("layers.3.over"), QStringLiteral("layers.4.nan"),
                                    QStringLiteral("layers.5.inf"), QStringLiteral("layers.6.under"),
                                    QStringLiteral("scales")}));
    problemsOnly->setChecked(false);
    QCOMPARE(proxy->rowCount(), 9);

    // The long name: elided in the middle by the view, whole in the tooltip.
    QCOMPARE(child<QTableView>(&dialog, "previewTable")->textElideMode(), Qt::ElideMiddle);
    QCOMPARE(proxy->index(rowOf(longName), ConvertPreviewModel::NameColumn).data(Qt::ToolTipRole).toString(),
             longName);
    // Not a check: TS_UI_SCREENSHOT_PROBLEMS=out.png saves the dialog showing the problems only.
    if (const QString shot = qEnvironmentVariable("TS_UI_SCREENSHOT_PROBLEMS"); !shot.isEmpty()) {
        child<QTableView>(&dialog, "previewTable")
            ->sortByColumn(ConvertPreviewModel::NameColumn, Qt::AscendingOrder);
        problemsOnly->setChecked(true);
        dialog.resize(1000, 600);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        dialog.grab().save(shot);
    }
}

QTEST_MAIN(TestUiConvert)
#include "tst_ui_convert.moc"
