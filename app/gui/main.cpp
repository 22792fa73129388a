// tensorscope [FILE|FOLDER|index.json]...: the window.

#include "DocumentWidget.h"
#include "FileOpenFilter.h"
#include "LaunchActivation.h"
#include "MainWindow.h"
#include "ScanView.h"
#include "SingleInstance.h"
#include "Theme.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QIcon>
#include <QPixmap>
#include <QTimer>

#include <cstdio>

namespace {

QIcon appIcon()
{
    const QString svg = QStringLiteral(":/icons/" TENSORSCOPE_APP_ID ".svg");
    if (!QFile::exists(svg))
        return {}; // built without resources/resources.qrc: no icon rather than a broken one
    QIcon icon(svg);
    for (int size : {16, 32, 48, 64, 128, 256}) {
        const QString png = QStringLiteral(":/icons/%1x%1/" TENSORSCOPE_APP_ID ".png").arg(size);
        if (QFile::exists(png))
            icon.addFile(png, QSize(size, size));
    }
    return icon;
}

} // namespace

int main(int argc, char** argv)
{
    // Before QApplication: Qt's xcb plugin takes DESKTOP_STARTUP_ID out of the environment.
    const ts::ui::LaunchActivation launch = ts::ui::LaunchActivation::fromEnvironment();
    QApplication app(argc, argv);
    ts::ui::FileOpenFilter fileOpens; // macOS Finder opens: from the start, queued until the window exists
    QApplication::setOrganizationName(QStringLiteral("Tensorscope"));
    QApplication::setOrganizationDomain(QStringLiteral("tensorscope.github.io"));
    QApplication::setApplicationName(QStringLiteral("Tensorscope"));
    QApplication::setApplicationVersion(QStringLiteral(TENSORSCOPE_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral(TENSORSCOPE_APP_ID));
    QApplication::setWindowIcon(appIcon());

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Inspector for .safetensors model files."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("paths"),
        QStringLiteral("A .safetensors file, a sharded model's folder or its index.json."),
        QStringLiteral("[FILE|FOLDER|index.json...]"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Save an image of the window once the files are open, then quit."),
        QStringLiteral("png"));
    const QCommandLineOption page(QStringLiteral("page"),
                                  QStringLiteral("Page to show: summary, tensors, metadata, header, scan (starts a scan) or "
                                                 "nan-inf (starts the NaN/Inf check)."),
                                  QStringLiteral("page"), QStringLiteral("summary"));
    const QCommandLineOption select(QStringLiteral("select"), QStringLiteral("Select a tensor by name."),
                                    QStringLiteral("name"));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Window size, e.g. 1280x820."),
                                  QStringLiteral("WxH"));
    const QCommandLineOption dark(QStringLiteral("dark"), QStringLiteral("Use a dark palette."));
    const QCommandLineOption delay(QStringLiteral("shot-delay"),
                                   QStringLiteral("Milliseconds between loading and the screenshot (plots compute off the UI thread)."),
                                   QStringLiteral("ms"), QStringLiteral("400"));
    const QCommandLineOption newWindow(QStringLiteral("new-window"),
                                       QStringLiteral("Open a separate window instead of a tab in the running one."));
    parser.addOptions({screenshot, page, select, size, dark, newWindow, delay});
    parser.process(app);

    if (parser.isSet(dark))
        ts::ui::Theme::overrideForThisRun(ts::ui::Theme::Dark);

    // A second launch (double-clicking another file) hands its files to the running window.
    // Screenshots and --new-window stay separate; TENSORSCOPE_INSTANCE_KEY isolates tests.
    const QString instanceKey = qEnvironmentVariableIsSet("TENSORSCOPE_INSTANCE_KEY")
                                    ? qEnvironmentVariable("TENSORSCOPE_INSTANCE_KEY")
                                    : QStringLiteral(TENSORSCOPE_APP_ID);
    ts::ui::SingleInstance instance(instanceKey);
    const bool standalone = parser.isSet(newWindow) || parser.isSet(screenshot);
    if (!standalone && instance.forwardToRunningInstance(parser.positionalArguments(), launch))
        return 0;

    ts::ui::MainWindow window;
    if (!standalone && instance.listen()) {
        QObject::connect(&instance, &ts::ui::SingleInstance::openRequested, &window,
                         [&window](const QStringList& paths, const ts::ui::LaunchActivation& from) {
                             window.openPaths(paths);
                             from.raise(&window);
                         });
    }
    fileOpens.setWindow(&window);
    if (!parser.isSet(screenshot)) // screenshots show a fresh window, whatever the last run left
        window.restoreFromLastRun(parser.positionalArguments().isEmpty());
    const bool trace = qEnvironmentVariableIsSet("TENSORSCOPE_TRACE_OPENS");
    if (parser.isSet(size)) {
        const QStringList wh = parser.value(size).split(QLatin1Char('x'));
        if (wh.size() == 2)
            window.resize(wh[0].toInt(), wh[1].toInt());
    }
    const QStringList paths = parser.positionalArguments();
    const QString pageName = parser.value(page);
    const QString selected = parser.value(select);
    const QString shotPath = parser.value(screenshot);
    const int shotDelay = parser.value(delay).toInt();

    // Page and selection apply once the first document is loaded; the screenshot once all are.
    int pending = 0;
    QObject::connect(&window, &ts::ui::MainWindow::documentLoaded, &window, [&](ts::ui::DocumentWidget* doc) {
        if (trace)
            std::fprintf(stderr, "loaded: %s\n", qPrintable(window.windowTitle()));
        using Page = ts::ui::DocumentWidget::Page;
        if (pageName == QLatin1String("tensors"))
            doc->showPage(Page::TensorsPage);
        else if (pageName == QLatin1String("metadata"))
            doc->showPage(Page::MetadataPage);
        else if (pageName == QLatin1String("header"))
            doc->showPage(Page::HeaderPage);
        if (!selected.isEmpty())
            doc->selectTensor(selected);
        // --page scan starts a scan (nan-inf: the NaN/Inf check); the screenshot waits for it.
        const bool scanning = pageName == QLatin1String("scan") || pageName == QLatin1String("nan-inf");
        if (scanning)
            doc->startScan(pageName == QLatin1String("scan") ? ts::ui::ScanView::Check::Full
                                                              : ts::ui::ScanView::Check::NanInfOnly);
        if (--pending == 0 && !shotPath.isEmpty()) {
            auto shoot = [&] {
                QTimer::singleShot(shotDelay, &window, [&] {
                    const bool saved = window.grab().save(shotPath);
                    std::fprintf(stderr, "title: %s\n%s %s\n", qPrintable(window.windowTitle()),
                                 saved ? "saved" : "could not save", qPrintable(shotPath));
                    QApplication::exit(saved ? 0 : 1);
                });
            };
            if (scanning && doc->scanView()->isRunning())
                QObject::connect(doc->scanView(), &ts::ui::ScanView::scanFinished, &window, shoot);
            else
                shoot();
        }
    });
    window.show();
    window.openPaths(paths);
    pending = window.documentCount(); // duplicates share a tab
    if (paths.isEmpty() && !shotPath.isEmpty()) {
        QTimer::singleShot(400, &window, [&] { QApplication::exit(window.grab().save(shotPath) ? 0 : 1); });
    }
    return QApplication::exec();
}
