// Starts the real tensorscope binary on a file (offscreen), lets it save a picture of its window
// and checks the picture shows something: not blank, not a single flat colour.

#include "UiTestUtils.h"

#include <QImage>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace ts::test;

namespace {

const QString kBinary = QStringLiteral(TS_BINARY_DIR "/bin/tensorscope");

// Distinct colours over a grid of samples: a blank or half-drawn window has very few.
int distinctColours(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3) {
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    }
    return static_cast<int>(colours.size());
}

} // namespace

class TestUiApp : public QObject {
    Q_OBJECT
private slots:
    void screenshotOfRealWindow_data();
    void screenshotOfRealWindow();
};

void TestUiApp::screenshotOfRealWindow_data()
{
    QTest::addColumn<QString>("page");
    QTest::newRow("summary") << QStringLiteral("summary");
    QTest::newRow("tensors") << QStringLiteral("tensors");
    QTest::newRow("metadata") << QStringLiteral("metadata");
}

void TestUiApp::screenshotOfRealWindow()
{
    QFETCH(QString, page);
    QVERIFY2(QFileInfo::exists(kBinary), qPrintable(kBinary));
    const QString file = realFixture(QStringLiteral("face_landmark_68_f32.safetensors"));
    TS_REQUIRE_FIXTURE(file);
    QTemporaryDir dir;
    const QString shot = dir.filePath(QStringLiteral("shot.png"));
    ProcessOptions options;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"),
               dir.filePath(QStringLiteral("config"))); // keep recent files out of ~
    options.environment = env;
    options.timeoutMs = 60000;
    const ProcessRun app = runProcess(kBinary,
                                      {QStringLiteral("--screenshot"), shot, QStringLiteral("--page"), page,
                                       QStringLiteral("--select"), QStringLiteral("dense0.conv0.filters"),
                                       QStringLiteral("--size"), QStringLiteral("1200x800"), file},
                                      options);
    const QString output = QString::fromLocal8Bit(app.err);
    // The output holds the sanitizer report when the asan build aborts.
    QVERIFY2(app.exitCode == 0, qPrintable(app.describe()));
    // The window names the file.
    QVERIFY2(output.contains(QStringLiteral("title: face_landmark_68_f32.safetensors")), qPrintable(output));
    QImage image(shot);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() >= 1000 && image.height() >= 700);
    const int colours = distinctColours(image);
    QVERIFY2(colours > 40, qPrintable(QStringLiteral("only %1 distinct colours").arg(colours)));
}

QTEST_MAIN(TestUiApp)
#include "tst_ui_app.moc"
