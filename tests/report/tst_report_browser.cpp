// The HTML report in a real browser (Debian's chromium, headless, over the DevTools protocol):
// it loads with no console error and no request to anything but the file itself, even when the
// model's metadata is written to make one. The checker is proven on planted pages first: a page
// that requests an image and a page that logs an error must both be caught.
#include "HeadlessChromium.h"
#include "ReportTestModels.h"

#include "checkpoint/Checkpoint.h"
#include "report/ReportBuilder.h"
#include "report/ReportOutput.h"

#include <QFile>
#include <QJsonDocument>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace ts;

namespace {

int timeoutMs()
{
    return 30000 * qMax(1, qEnvironmentVariableIntValue("TS_TIMEOUT_SCALE"));
}

const QString kProbe =
    QStringLiteral("JSON.stringify({svg: document.querySelectorAll('svg').length, title: document.title,"
                   " sections: document.querySelectorAll('section').length,"
                   " resources: performance.getEntriesByType('resource').length,"
                   " images: document.images.length, scripts: document.scripts.length})");

QString describe(const HeadlessChromium::PageLoad& load)
{
    return QStringLiteral("requests: [%1]; errors: [%2]")
        .arg(load.requests.join(QStringLiteral(", ")), load.consoleErrors.join(QStringLiteral(" | ")));
}

QJsonObject probed(const HeadlessChromium::PageLoad& load)
{
    return QJsonDocument::fromJson(load.evaluated.value(QLatin1String("value")).toString().toUtf8()).object();
}

} // namespace

class TestReportBrowser : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void theCheckerCatchesAPlantedRequest();
    void theCheckerCatchesAPlantedError();
    void reportLoadsCleanAndOffline();

private:
    QTemporaryDir m_dir;
    QTcpServer m_server; // where every planted request points: a request must never reach it from the report
    int m_hits = 0;      // requests it answered
    std::unique_ptr<HeadlessChromium> m_browser;
};

void TestReportBrowser::initTestCase()
{
    if (HeadlessChromium::executable().isEmpty())
        QFAIL("chromium is not installed (installer/install-deps.sh installs Debian's chromium)");
    QVERIFY(m_server.listen(QHostAddress::LocalHost));
    // Every request gets a 404 at once, so a page that makes one still finishes loading.
    connect(&m_server, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket* socket = m_server.nextPendingConnection()) {
            connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                if (!socket->readAll().contains("\r\n\r\n"))
                    return;
                ++m_hits;
                socket->write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                socket->disconnectFromHost();
            });
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        }
    });
    m_browser = std::make_unique<HeadlessChromium>();
    QVERIFY2(m_browser->start(timeoutMs()), qPrintable(m_browser->error()));
}

void TestReportBrowser::theCheckerCatchesAPlantedRequest()
{
    const QString page = m_dir.filePath(QStringLiteral("planted-request.html"));
    QFile f(page);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QStringLiteral("<!DOCTYPE html><html><head><title>t</title></head><body>"
                           "<img src=\"http://127.0.0.1:%1/pixel.png\"></body></html>")
                .arg(m_server.serverPort())
                .toUtf8());
    f.close();
    const auto load = m_browser->load(QUrl::fromLocalFile(page).toString(), kProbe, timeoutMs());
    QVERIFY2(load.loaded, qPrintable(describe(load)));
    QVERIFY2(
        load.requests.contains(QStringLiteral("http://127.0.0.1:%1/pixel.png").arg(m_server.serverPort())),
        qPrintable(describe(load)));
    QVERIFY(m_hits > 0); // and it really left the page
}

void TestReportBrowser::theCheckerCatchesAPlantedError()
{
    const QString page = m_dir.filePath(QStringLiteral("planted-error.html"));
    QFile f(page);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(
        "<!DOCTYPE html><html><head><title>t</title></head><body><script>console.error('planted')</script>"
        "</body></html>");
    f.close();
    const auto load = m_browser->load(QUrl::fromLocalFile(page).toString(), kProbe, timeoutMs());
    QVERIFY2(load.loaded, qPrintable(describe(load)));
    QVERIFY2(load.consoleErrors.join(QString()).contains(QLatin1String("planted")),
             qPrintable(describe(load)));
}

void TestReportBrowser::reportLoadsCleanAndOffline()
{
    // A model with real values (charts), a block that stands out, a NaN, a config that lies
    // about its layers, and metadata written to make the report fetch, run or render markup.
    const QString model = m_dir.filePath(QStringLiteral("model.safetensors"));
    reportmodels::DemoOptions options;
    options.plantNaN = true;
    options.metadata = reportmodels::hostileMetadata(m_server.serverPort());
    QVERIFY(reportmodels::writeDemo(model, options));
    QVERIFY(reportmodels::writeConfig(m_dir.path(), 8));
    auto checkpoint = Checkpoint::open(model);
    QVERIFY2(checkpoint, qPrintable(checkpoint ? QString() : checkpoint.error().toString()));
    ReportOptions ro;
    ro.tool = QStringLiteral("Tensorscope test");
    ReportBuilder builder(checkpoint.value(), model, ro);
    auto report = builder.run();
    QVERIFY2(report, qPrintable(report ? QString() : report.error().toString()));
    QVERIFY(!report->layers.empty());
    QVERIFY(report->errorCount() > 0);
    const QString html = m_dir.filePath(QStringLiteral("report.html"));
    QVERIFY(
        ReportOutput::write(html, ReportOutput::render(*report, ReportFormat::Html), InputFiles(), false));

    const QString url = QUrl::fromLocalFile(html).toString();
    m_hits = 0;
    const auto load = m_browser->load(url, kProbe, timeoutMs());
    QVERIFY2(load.loaded, qPrintable(describe(load)));
    // The file itself is the one request; nothing else is fetched, nothing logs an error.
    QCOMPARE(load.requests, QStringList{url});
    QVERIFY2(load.consoleErrors.isEmpty(), qPrintable(describe(load)));
    // And it rendered: every section, a chart per family plus the dtype bars, no image or script
    // smuggled in by the metadata, no resource loaded.
    const QJsonObject p = probed(load);
    QCOMPARE(p.value(QLatin1String("sections")).toInt(), 7);
    QCOMPARE(p.value(QLatin1String("svg")).toInt(), static_cast<int>(report->layers.size()) + 1);
    QCOMPARE(p.value(QLatin1String("images")).toInt(), 0);
    QCOMPARE(p.value(QLatin1String("scripts")).toInt(), 0);
    QCOMPARE(p.value(QLatin1String("resources")).toInt(), 0);
    QCOMPARE(p.value(QLatin1String("title")).toString(), QStringLiteral("Audit report: model.safetensors"));
    QCOMPARE(m_hits, 0);
}

QTEST_GUILESS_MAIN(TestReportBrowser)
#include "tst_report_browser.moc"
