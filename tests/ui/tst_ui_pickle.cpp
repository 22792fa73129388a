// PyTorch pickle checkpoints in the window: a checkpoint torch wrote opens as a document (tree,
// summary, the pickle's disassembly on the header page) with no bar and no dangerous finding; a
// hostile one opens too, read-only, with a bar saying what torch.load would have run and the
// dangerous globals in the audit list with the byte offset of the opcode that names them. Every
// hostile file of tests/pickle/data shows the bar; no file torch wrote does.
#include "document/DocumentWidget.h"
#include "document/PickleBanner.h"
#include "metadata/MetadataModel.h"
#include "metadata/MetadataView.h"
#include "metadata/RawHeaderView.h"
#include "summary/AuditModel.h"
#include "summary/SummaryView.h"
#include "tensor/TensorBrowser.h"
#include "window/MainWindow.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTest>

using namespace ts;
using namespace ts::ui;

namespace {

const QString kData = QStringLiteral(TS_PICKLE_DATA "/");
constexpr int kOpenTimeoutMs = 10000;

DocumentWidget* openLoaded(MainWindow& window, const QString& path)
{
    DocumentWidget* doc = window.openPath(path);
    if (!doc)
        return nullptr;
    if (!QTest::qWaitFor([doc] { return doc->state() != DocumentWidget::State::Loading; }, kOpenTimeoutMs))
        return nullptr;
    return doc;
}

QList<int> rowsWithCode(const AuditModel* audit, const QString& code)
{
    QList<int> rows;
    for (int r = 0; r < audit->rowCount(); ++r) {
        if (audit->diagnostic(r).code == code)
            rows << r;
    }
    return rows;
}

void closeAll(MainWindow& window)
{
    for (int i = window.documentCount() - 1; i >= 0; --i)
        window.closeDocument(i);
}

} // namespace

class TestUiPickle : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void benignCheckpoint()
    {
        MainWindow window;
        DocumentWidget* doc = openLoaded(window, kData + QStringLiteral("torch/zip_dtypes.pt"));
        QVERIFY(doc);
        QCOMPARE(doc->state(), DocumentWidget::State::Loaded);
        QVERIFY(doc->result().model);
        QCOMPARE(doc->result().model->formatName().isEmpty(), false);
        QVERIFY(!doc->result().model->tensors().empty());
        QCOMPARE(doc->tensorBrowser()->matchingTensorCount(),
                 static_cast<int>(doc->result().model->tensors().size()));
        QVERIFY(doc->pickleBanner()->isHidden());
        QVERIFY(doc->pickleBanner()->message().isEmpty());
        QVERIFY(rowsWithCode(doc->summaryView()->auditModel(), QStringLiteral("PickleDangerousGlobal"))
                    .isEmpty());
        // A pickle's metadata cannot be edited or saved in place: the table takes no edits.
        QVERIFY(!doc->isEditable());
        QVERIFY(!doc->metadataView()->model()->isEditable());
        // The header page shows the pickle's opcodes with their file offsets, not JSON.
        doc->showPage(DocumentWidget::HeaderPage);
        const QString text = doc->rawHeaderView()->text()->toPlainText();
        QVERIFY2(text.contains(QLatin1String("_rebuild_tensor_v2")), qPrintable(text.left(400)));
        QVERIFY2(text.contains(QLatin1String("STOP")), qPrintable(text.right(400)));
        (void)window.grab();
    }

    void hostileCheckpoint()
    {
        MainWindow window;
        window.resize(1280, 820);
        const QString path = kData + QStringLiteral("hostile/h_os_system.pt");
        DocumentWidget* doc = openLoaded(window, path);
        QVERIFY(doc);
        QCOMPARE(doc->state(), DocumentWidget::State::Loaded);
        QVERIFY(!doc->isEditable());
        // The bar says, before anything else, what loading would run.
        QVERIFY(!doc->pickleBanner()->isHidden());
        const QString message = doc->pickleBanner()->message();
        QVERIFY2(message.contains(QLatin1String("would run code")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("system")), qPrintable(message));
        // The audit list holds the dangerous global at the byte of the opcode that names it.
        const AuditModel* audit = doc->summaryView()->auditModel();
        const QList<int> rows = rowsWithCode(audit, QStringLiteral("PickleDangerousGlobal"));
        QVERIFY(!rows.isEmpty());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        for (int r : rows) {
            const Diagnostic& d = audit->diagnostic(r);
            QCOMPARE(d.severity, Severity::Error);
            QVERIFY(d.offset.has_value());
            QVERIFY(*d.offset < static_cast<std::uint64_t>(bytes.size()));
            const char op = bytes.at(static_cast<qsizetype>(*d.offset));
            QVERIFY2(op == 'c' || op == '\x93' || op == 'i', qPrintable(d.message));
            QVERIFY(!audit->index(r, AuditModel::OffsetColumn).data().toString().isEmpty());
        }
        // "Show Findings" brings the summary page and its audit list.
        doc->showPage(DocumentWidget::TensorsPage);
        QPushButton* show = nullptr;
        for (QPushButton* b : doc->pickleBanner()->findChildren<QPushButton*>()) {
            if (b->text() == QLatin1String("Show Findings"))
                show = b;
        }
        QVERIFY(show);
        show->click();
        QCOMPARE(doc->currentPage(), DocumentWidget::SummaryPage);
        (void)window.grab();
    }

    void everyHostileFileShowsTheBar()
    {
        MainWindow window;
        const QStringList files = QDir(kData + QStringLiteral("hostile")).entryList(QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 27);
        for (const QString& name : files) {
            DocumentWidget* doc = openLoaded(window, kData + QStringLiteral("hostile/") + name);
            QVERIFY2(doc, qPrintable(name));
            if (doc->state() == DocumentWidget::State::Loaded) {
                QVERIFY2(!doc->pickleBanner()->isHidden(), qPrintable(name));
                QVERIFY2(
                    !rowsWithCode(doc->summaryView()->auditModel(), QStringLiteral("PickleDangerousGlobal"))
                         .isEmpty(),
                    qPrintable(name));
            }
            (void)doc->grab();
            closeAll(window);
        }
    }

    void noTorchFileShowsTheBar()
    {
        MainWindow window;
        const QStringList files = QDir(kData + QStringLiteral("torch")).entryList(QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 12);
        for (const QString& name : files) {
            // A TorchScript archive runs code under torch.jit.load, and a pickled nn.Module names
            // its classes, which torch.load would import: each has its own bar, checked below.
            if (name == QLatin1String("torchscript.pt") || name == QLatin1String("torch_module.pt"))
                continue;
            DocumentWidget* doc = openLoaded(window, kData + QStringLiteral("torch/") + name);
            QVERIFY2(doc, qPrintable(name));
            QCOMPARE(doc->state(), DocumentWidget::State::Loaded);
            QVERIFY2(doc->pickleBanner()->isHidden(), qPrintable(name + doc->pickleBanner()->message()));
            closeAll(window);
        }
        DocumentWidget* script = openLoaded(window, kData + QStringLiteral("torch/torchscript.pt"));
        QVERIFY(script);
        if (script->state() == DocumentWidget::State::Loaded)
            QVERIFY2(script->pickleBanner()->message().contains(QLatin1String("TorchScript")),
                     qPrintable(script->pickleBanner()->message()));
        DocumentWidget* module = openLoaded(window, kData + QStringLiteral("torch/torch_module.pt"));
        QVERIFY(module);
        QCOMPARE(module->state(), DocumentWidget::State::Loaded);
        QVERIFY2(module->pickleBanner()->message().contains(QLatin1String("weights_only")),
                 qPrintable(module->pickleBanner()->message()));
    }
};

QTEST_MAIN(TestUiPickle)
#include "tst_ui_pickle.moc"
