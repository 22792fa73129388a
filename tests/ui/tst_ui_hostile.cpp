// Hostile files through the GUI's open path: every conformance case, mutants of the
// valid ones (truncated at every header byte, every bit of the length prefix flipped) and crafted
// headers at the format's edges are opened in a real MainWindow on the offscreen platform. Each
// must end Loaded (exactly when the core accepts the file) or Failed with the core's sentence in
// the error view, within a bounded time; a loaded one is shown on every page and painted.
#include "RawFiles.h"
#include "UiTestUtils.h"
#include "checkpoint/Checkpoint.h"
#include "document/DocumentWidget.h"
#include "document/ErrorView.h"
#include "window/MainWindow.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

using namespace ts;
using namespace ts::ui;
using namespace ts::test;

namespace {

const QString kCases = (conformanceDir() + QStringLiteral("/cases/"));
constexpr int kOpenTimeoutMs = 10000; // per file; the slowest here is a few ms

struct Outcome {
    bool finished = false;
    bool loaded = false;
    QString message;
};

// Opens `path` in the window, waits for the load to end, shows every page (painting it), then
// closes the tab again.
Outcome openInWindow(MainWindow& window, const QString& path)
{
    Outcome out;
    DocumentWidget* doc = window.openPath(path);
    if (!doc)
        return out;
    out.finished =
        QTest::qWaitFor([doc] { return doc->state() != DocumentWidget::State::Loading; }, kOpenTimeoutMs);
    if (out.finished) {
        out.loaded = doc->state() == DocumentWidget::State::Loaded;
        if (out.loaded) {
            for (auto page : {DocumentWidget::SummaryPage, DocumentWidget::TensorsPage,
                              DocumentWidget::MetadataPage, DocumentWidget::HeaderPage}) {
                doc->showPage(page);
                QApplication::processEvents();
                (void)doc->grab(); // paints the page: the widgets meet the file's contents
            }
        } else {
            out.message = doc->errorView()->message();
            (void)doc->grab();
        }
    }
    for (int i = window.documentCount() - 1; i >= 0; --i)
        window.closeDocument(i);
    return out;
}

// Not padded: these headers are hostile byte for byte.
QByteArray withHeader(const QByteArray& header, const QByteArray& data = {})
{
    return rawSafetensors(header, data, 1);
}

} // namespace

class TestUiHostile : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("TensorscopeTest"));
        QApplication::setApplicationName(QStringLiteral("tst_ui_hostile"));
        QVERIFY(m_tmp.isValid());
    }

    // All 106 public cases: the window agrees with expected.jsonl and shows the core's sentence.
    void everyConformanceCase()
    {
        QFile expectedFile(conformanceDir() + QStringLiteral("/expected.jsonl"));
        QVERIFY(expectedFile.open(QIODevice::ReadOnly));
        MainWindow window;
        window.resize(1000, 700);
        window.show();
        int cases = 0;
        while (!expectedFile.atEnd()) {
            const QJsonObject e = QJsonDocument::fromJson(expectedFile.readLine()).object();
            if (e.isEmpty())
                continue;
            const QString path = kCases + e.value(QStringLiteral("file")).toString();
            const bool ok = e.value(QStringLiteral("ok")).toBool();
            const Outcome o = openInWindow(window, path);
            QVERIFY2(o.finished, qPrintable(path + QStringLiteral(": still loading after 10 s")));
            QVERIFY2(o.loaded == ok, qPrintable(path + QStringLiteral(": ") + o.message));
            if (!ok) {
                const auto core = Checkpoint::open(path);
                QVERIFY(!core);
                QVERIFY2(o.message.contains(core.error().message.mid(1)),
                         qPrintable(path + QStringLiteral(": ") + o.message));
            }
            ++cases;
        }
        QCOMPARE(cases, 106);
    }

    // Mutants of small valid cases: truncated at every byte of the length prefix and header, and
    // every bit of the prefix flipped. Whatever the core says, the window says the same.
    void mutantsOfValidCases()
    {
        const QStringList seeds = QDir(kCases).entryList({QStringLiteral("v_*.safetensors")}, QDir::Files,
                                                         QDir::Size | QDir::Reversed);
        QVERIFY(seeds.size() >= 4);
        MainWindow window;
        window.show();
        int mutants = 0;
        QElapsedTimer slowest;
        qint64 worstMs = 0;
        for (const QString& seed : seeds.mid(0, 4)) {
            const QByteArray bytes = readFile(kCases + seed);
            QVERIFY(bytes.size() > 8);
            const quint64 n = qFromLittleEndian<quint64>(bytes.constData());
            QList<QByteArray> variants;
            for (qsizetype cut = 0; cut < std::min<qsizetype>(bytes.size(), static_cast<qsizetype>(8 + n));
                 ++cut)
                variants << bytes.left(cut);
            for (int bit = 0; bit < 64; ++bit) {
                QByteArray flipped = bytes;
                flipped[bit / 8] = static_cast<char>(flipped[bit / 8] ^ (1 << (bit % 8)));
                variants << flipped;
            }
            for (const QByteArray& v : std::as_const(variants)) {
                const QString path = m_tmp.filePath(QStringLiteral("mutant.safetensors"));
                QVERIFY(writeFile(path, v));
                const auto core = Checkpoint::open(path);
                const bool coreOk = core.ok();
                slowest.start();
                const Outcome o = openInWindow(window, path);
                worstMs = std::max(worstMs, slowest.elapsed());
                QVERIFY2(o.finished,
                         qPrintable(seed + QStringLiteral(" mutant %1 still loading").arg(mutants)));
                QVERIFY2(o.loaded == coreOk,
                         qPrintable(seed + QStringLiteral(" mutant %1: ").arg(mutants) + o.message));
                if (!o.loaded)
                    QVERIFY2(o.message.contains(core.error().message.mid(1)), qPrintable(o.message));
                ++mutants;
            }
        }
        qInfo("%d mutants opened in the window, slowest %lld ms", mutants, static_cast<long long>(worstMs));
        QVERIFY(mutants > 300);
    }

    // Headers at the format's edges, crafted here: each is refused with a sentence.
    void craftedEdges_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("says");
        QByteArray hugeN(8, '\0');
        qToLittleEndian<quint64>(0x7fffffffffffffffull, hugeN.data());
        QTest::newRow("length prefix 2^63-1") << hugeN + QByteArray("{}") << QStringLiteral("header");
        QTest::newRow("offsets near 2^64")
            << withHeader(R"({"a":{"dtype":"U8","shape":[2],"data_offsets":[18446744073709551615,1]}})")
            << QStringLiteral("a");
        QTest::newRow("shape product overflows")
            << withHeader(R"({"a":{"dtype":"F32","shape":[4294967296,4294967296,16],"data_offsets":[0,0]}})")
            << QStringLiteral("a");
        QTest::newRow("rank 10000") << withHeader("{\"a\":{\"dtype\":\"U8\",\"shape\":[" +
                                                      QByteArray("1,").repeated(9999) +
                                                      "1],\"data_offsets\":[0,1]}}",
                                                  QByteArray(1, 'x'))
                                    << QString();
        QTest::newRow("nested 200 deep")
            << withHeader(QByteArray("{\"__metadata__\":") + QByteArray("[").repeated(200) +
                          QByteArray("]").repeated(200) + "}")
            << QStringLiteral("");
    }
    void craftedEdges()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, says);
        const QString path = m_tmp.filePath(QStringLiteral("crafted.safetensors"));
        QVERIFY(writeFile(path, bytes));
        const auto core = Checkpoint::open(path);
        MainWindow window;
        window.show();
        const Outcome o = openInWindow(window, path);
        QVERIFY(o.finished);
        QCOMPARE(o.loaded, core.ok());
        if (!o.loaded) {
            QVERIFY(!o.message.isEmpty());
            QVERIFY2(o.message.contains(core.error().message.mid(1)), qPrintable(o.message));
            QVERIFY2(o.message.contains(says), qPrintable(o.message));
        }
    }

private:
    QTemporaryDir m_tmp;
};

QTEST_MAIN(TestUiHostile)
#include "tst_ui_hostile.moc"
