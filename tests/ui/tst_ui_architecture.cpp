// What the window shows of a model's architecture, its Hub-style count and its config.json, the
// metadata view's explanations of known keys, and File > Export Report: real files, real
// widgets, offscreen.
#include "../architecture/ModelFolders.h"
#include "../report/ReportTestModels.h"

#include "audit/ReportExportDialog.h"
#include "document/DocumentWidget.h"
#include "metadata/MetadataModel.h"
#include "metadata/MetadataView.h"
#include "summary/ArchitecturePanel.h"
#include "summary/AuditModel.h"
#include "summary/SummaryView.h"
#include "window/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace ts;
using namespace ts::ui;

namespace {

DocumentWidget* openAndWait(MainWindow& window, const QString& path)
{
    DocumentWidget* doc = window.openPath(path);
    if (!QTest::qWaitFor([doc] { return doc->state() != DocumentWidget::State::Loading; }, 30000))
        return nullptr;
    return doc;
}

QStringList auditCodes(const AuditModel* model)
{
    QStringList codes;
    for (int r = 0; r < model->rowCount(); ++r)
        codes << model->diagnostic(r).code;
    return codes;
}

ReportExportDialog* exportDialog(MainWindow& window)
{
    QAction* action = window.findChild<QAction*>(QStringLiteral("exportReportAction"));
    if (!action)
        return nullptr;
    action->trigger();
    return window.findChild<ReportExportDialog*>();
}

} // namespace

class TestUiArchitecture : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!models::folder(QString()).isEmpty(), "make_models.py could not write the models");
    }
    void summaryShowsArchitectureAndHubCount();
    void configMismatchIsRedAndAnAuditRow();
    void metadataViewExplainsKnownKeys();
    void exportReportWritesTheFiles();
    void exportReportCancels();
};

void TestUiArchitecture::summaryShowsArchitectureAndHubCount()
{
    MainWindow window;
    DocumentWidget* doc = openAndWait(window, models::folder(QStringLiteral("meta-llama--Llama-3.1-8B")));
    QVERIFY(doc);
    QCOMPARE(doc->state(), DocumentWidget::State::Loaded);
    const ArchitecturePanel* panel = doc->summaryView()->architecturePanel();
    QVERIFY2(panel->title().contains(QLatin1String("Llama-style decoder")), qPrintable(panel->title()));
    QCOMPARE(panel->fieldText(QStringLiteral("model"), QStringLiteral("num_hidden_layers")),
             QStringLiteral("32"));
    QCOMPARE(panel->fieldText(QStringLiteral("model"), QStringLiteral("vocab_size")),
             QStringLiteral("128256"));
    // What the shapes cannot tell is said, with config.json's value beside it.
    const QString heads = panel->fieldText(QStringLiteral("model"), QStringLiteral("num_attention_heads"));
    QVERIFY2(heads.contains(QLatin1String("cannot tell")) && heads.contains(QLatin1String("config: 32")),
             qPrintable(heads));
    QVERIFY2(panel->hubText().contains(QLatin1String("8,030,261,248")), qPrintable(panel->hubText()));
    QVERIFY2(panel->configText().contains(QLatin1String("0 disagree")), qPrintable(panel->configText()));
    QVERIFY(panel->isVisible() || !window.isVisible());
    // A diffusers pipeline: its UNet opens, the other components are listed with their sizes.
    DocumentWidget* sd =
        openAndWait(window, models::folder(QStringLiteral("CompVis--stable-diffusion-v1-4")));
    QVERIFY(sd);
    QCOMPARE(sd->state(), DocumentWidget::State::Loaded);
    const ArchitecturePanel* sdPanel = sd->summaryView()->architecturePanel();
    QVERIFY2(sdPanel->title().contains(QLatin1String("Stable Diffusion UNet")), qPrintable(sdPanel->title()));
    QVERIFY2(sdPanel->pipelineText().contains(QLatin1String("vae 83.7M")),
             qPrintable(sdPanel->pipelineText()));
    QVERIFY2(sdPanel->hubText().contains(QLatin1String("859,520,964")), qPrintable(sdPanel->hubText()));
}

void TestUiArchitecture::configMismatchIsRedAndAnAuditRow()
{
    QTemporaryDir dir;
    QVERIFY(reportmodels::writeDemo(QDir(dir.path()).filePath(QStringLiteral("model.safetensors"))));
    QVERIFY(reportmodels::writeConfig(dir.path(), 8));
    MainWindow window;
    DocumentWidget* doc = openAndWait(window, dir.path());
    QVERIFY(doc);
    const ArchitecturePanel* panel = doc->summaryView()->architecturePanel();
    QVERIFY(panel->fieldDisagrees(QStringLiteral("model"), QStringLiteral("num_hidden_layers")));
    const QString layers = panel->fieldText(QStringLiteral("model"), QStringLiteral("num_hidden_layers"));
    QVERIFY2(layers.contains(QLatin1String("#c62828")) &&
                 layers.contains(QLatin1String("num_hidden_layers 8")),
             qPrintable(layers));
    QVERIFY(!panel->fieldDisagrees(QStringLiteral("model"), QStringLiteral("hidden_size")));
    QVERIFY(auditCodes(doc->summaryView()->auditModel()).contains(QStringLiteral("ConfigMismatch")));
}

void TestUiArchitecture::metadataViewExplainsKnownKeys()
{
    MainWindow window;
    DocumentWidget* doc = openAndWait(window, QDir(models::folder(QStringLiteral("kohya-lora-sd15")))
                                                  .filePath(QStringLiteral("example_lora.safetensors")));
    QVERIFY(doc);
    const MetadataModel* model = doc->metadataView()->model();
    QCOMPARE(model->columnCount(), 3);
    QCOMPARE(model->headerData(MetadataModel::MeaningColumn, Qt::Horizontal).toString(),
             QStringLiteral("Meaning"));
    int dim = model->rowOf(QStringLiteral("ss_network_dim"));
    int started = model->rowOf(QStringLiteral("ss_training_started_at"));
    QVERIFY(dim >= 0 && started >= 0);
    QVERIFY(
        model->index(dim, MetadataModel::MeaningColumn).data().toString().contains(QLatin1String("rank")));
    QVERIFY(model->index(started, MetadataModel::MeaningColumn)
                .data()
                .toString()
                .startsWith(QLatin1String("2023-11-14 22:13:20 UTC")));
    QVERIFY(!(model->flags(model->index(dim, MetadataModel::MeaningColumn)) & Qt::ItemIsEditable));
    // Selecting the row shows the meaning above the value.
    doc->showPage(DocumentWidget::MetadataPage);
    doc->metadataView()->table()->setCurrentIndex(model->index(started, MetadataModel::KeyColumn));
    QVERIFY2(doc->metadataView()->meaningLabel()->text().contains(QLatin1String("kohya-ss sd-scripts")),
             qPrintable(doc->metadataView()->meaningLabel()->text()));
    // The architecture of the adapter: rank and alpha.
    const ArchitecturePanel* panel = doc->summaryView()->architecturePanel();
    QCOMPARE(panel->fieldText(QStringLiteral("adapter"), QStringLiteral("r")), QStringLiteral("16"));
    QCOMPARE(panel->fieldText(QStringLiteral("adapter"), QStringLiteral("lora_alpha")), QStringLiteral("8"));
}

void TestUiArchitecture::exportReportWritesTheFiles()
{
    QTemporaryDir dir;
    const QString model = QDir(dir.path()).filePath(QStringLiteral("model.safetensors"));
    QVERIFY(reportmodels::writeDemo(model));
    MainWindow window;
    DocumentWidget* doc = openAndWait(window, model);
    QVERIFY(doc);
    ReportExportDialog* dialog = exportDialog(window);
    QVERIFY(dialog);
    const QString out = QDir(dir.path()).filePath(QStringLiteral("audit.html"));
    dialog->pathEdit()->setText(out);
    dialog->jsonBox()->setChecked(true);
    QSignalSpy finished(dialog, &ReportExportDialog::exportFinished);
    QVERIFY(dialog->startExport());
    QVERIFY(dialog->isRunning());
    QVERIFY(finished.wait(60000 * qMax(1, qEnvironmentVariableIntValue("TS_TIMEOUT_SCALE"))));
    QCOMPARE(finished.front().front().toBool(), true);
    QVERIFY2(dialog->outcome().ok, qPrintable(dialog->outcome().error));
    QCOMPARE(dialog->outcome().written,
             (QStringList{out, QDir(dir.path()).filePath(QStringLiteral("audit.json"))}));
    QFile json(QDir(dir.path()).filePath(QStringLiteral("audit.json")));
    QVERIFY(json.open(QIODevice::ReadOnly));
    const QJsonObject report = QJsonDocument::fromJson(json.readAll()).object();
    QVERIFY(report.value(QLatin1String("scan")).toObject().value(QLatin1String("ran")).toBool());
    QCOMPARE(report.value(QLatin1String("architecture")).toObject().value(QLatin1String("family")).toString(),
             QStringLiteral("llama"));
    QVERIFY(dialog->statusText().startsWith(QLatin1String("Wrote audit.html, audit.json")));
    QVERIFY(!dialog->isRunning());
    // Over the model itself: refused before anything runs.
    dialog->pathEdit()->setText(QDir(dir.path()).filePath(QStringLiteral("model.md")));
    dialog->jsonBox()->setChecked(false);
    dialog->markdownBox()->setChecked(false);
    dialog->setReplacePrompt([](QWidget*, const QStringList&) { return true; });
    dialog->pathEdit()->setText(model + QStringLiteral(".html"));
    QVERIFY(QFile::link(model, model + QStringLiteral(".html")));
    QVERIFY(!dialog->startExport());
    QVERIFY2(dialog->statusText().contains(QLatin1String("input")), qPrintable(dialog->statusText()));
}

void TestUiArchitecture::exportReportCancels()
{
    // 16 GB of (sparse) weights: hashing them takes far longer than the cancel.
    MainWindow window;
    DocumentWidget* doc = openAndWait(window, models::folder(QStringLiteral("meta-llama--Llama-3.1-8B")));
    QVERIFY(doc);
    ReportExportDialog* dialog = exportDialog(window);
    QVERIFY(dialog);
    QTemporaryDir dir;
    const QString out = QDir(dir.path()).filePath(QStringLiteral("r.html"));
    dialog->pathEdit()->setText(out);
    QSignalSpy finished(dialog, &ReportExportDialog::exportFinished);
    QVERIFY(dialog->startExport());
    QVERIFY(dialog->cancelButton()->isVisible() || !dialog->isVisible());
    dialog->cancel();
    QVERIFY(finished.wait(30000 * qMax(1, qEnvironmentVariableIntValue("TS_TIMEOUT_SCALE"))));
    QCOMPARE(finished.front().front().toBool(), false);
    QVERIFY(dialog->outcome().cancelled);
    QVERIFY(!QFile::exists(out));
    QCOMPARE(dialog->statusText(), QStringLiteral("Cancelled: nothing was written."));
}

QTEST_MAIN(TestUiArchitecture)
#include "tst_ui_architecture.moc"
