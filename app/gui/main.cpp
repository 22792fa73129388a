// tensorscope [FILE|FOLDER|index.json]...: the window.

#include "GuiOptions.h"
#include "compare/CompareAction.h"
#include "compare/CompareView.h"
#include "compare/PairDetailPanel.h"
#include "document/DocumentWidget.h"
#include "scan/ScanView.h"
#include "window/FileOpenFilter.h"
#include "window/LaunchActivation.h"
#include "window/MainWindow.h"
#include "window/SingleInstance.h"
#include "window/Theme.h"
#include "window/Translations.h"

#include <QApplication>
#include <QFile>
#include <QIcon>
#include <QPixmap>
#include <QPushButton>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>

namespace {

QIcon appIcon()
{
    const QString svg = QStringLiteral(":/icons/" TENSORSCOPE_APP_ID ".svg");
    if (!QFile::exists(svg))
        return {}; // built without resources/resources.qrc: no icon rather than a broken one
    QIcon icon(svg);
    for (int size : {16, 22, 24, 32, 48, 64, 128, 256}) { // 22 and 24: KDE panels and title bars
        const QString png = QStringLiteral(":/icons/%1x%1/" TENSORSCOPE_APP_ID ".png").arg(size);
        if (QFile::exists(png))
            icon.addFile(png, QSize(size, size));
    }
    return icon;
}

} // namespace

int main(int argc, char** argv)
{
    // Before QApplication: --help and --version must answer where there is no display.
    ts::app::GuiOptions options;
    if (const std::optional<int> answered = options.parse(argc, argv))
        return *answered;
    // Before QApplication too: Qt's xcb plugin takes DESKTOP_STARTUP_ID out of the environment.
    const ts::ui::LaunchActivation launch = ts::ui::LaunchActivation::fromEnvironment();
    QApplication app(argc, argv);
    ts::ui::Translations::install(app);
    ts::ui::FileOpenFilter fileOpens; // macOS Finder opens: from the start, queued until the window exists
    QApplication::setOrganizationName(QStringLiteral("Tensorscope"));
    QApplication::setOrganizationDomain(QStringLiteral("tensorscope.github.io"));
    QApplication::setApplicationName(QStringLiteral("Tensorscope"));
    QApplication::setApplicationVersion(QStringLiteral(TENSORSCOPE_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral(TENSORSCOPE_APP_ID));
    QApplication::setWindowIcon(appIcon());

    const QCommandLineParser& parser = options.parser();
    const QCommandLineOption &screenshot = options.screenshot(), &page = options.page(),
                             &select = options.select(), &size = options.size(), &dark = options.dark(),
                             &newWindow = options.newWindow(), &delay = options.shotDelay();

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

    // A comparison instead of documents: --page layers / metadata shows that page, --page rank
    // estimates the selected pair's rank; the screenshot waits for the pair's charts.
    if (parser.isSet(options.compare())) {
        if (paths.size() != 1) {
            std::fprintf(stderr, "tensorscope: --compare B takes one FILE, the model A to compare B with\n");
            return 2;
        }
        window.show();
        ts::ui::CompareView* view =
            ts::ui::openComparison(&window, paths.front(), parser.value(options.compare()), {});
        QObject::connect(view, &ts::ui::CompareView::finished, &window, [&, view](bool ok) {
            if (ok && !selected.isEmpty())
                view->selectTensor(selected);
            if (pageName == QLatin1String("layers"))
                view->pages()->setCurrentIndex(1);
            else if (pageName == QLatin1String("metadata"))
                view->pages()->setCurrentIndex(2);
            if (shotPath.isEmpty())
                return;
            auto shoot = [&] {
                QTimer::singleShot(shotDelay, &window, [&] {
                    const bool saved = window.grab().save(shotPath);
                    std::fprintf(stderr, "title: %s\n%s %s\n", qPrintable(window.windowTitle()),
                                 saved ? "saved" : "could not save", qPrintable(shotPath));
                    QApplication::exit(saved ? 0 : 1);
                });
            };
            ts::ui::PairDetailPanel* detail = view->detail();
            auto afterDetail = [&, detail, shoot] {
                if (pageName == QLatin1String("rank") && detail->rankButton()->isEnabled()) {
                    QObject::connect(detail, &ts::ui::PairDetailPanel::rankFinished, &window, shoot);
                    detail->estimateRank();
                } else {
                    shoot();
                }
            };
            if (detail->isComputing())
                QObject::connect(detail, &ts::ui::PairDetailPanel::detailReady, &window, afterDetail,
                                 Qt::SingleShotConnection);
            else
                afterDetail();
        });
        return QApplication::exec();
    }

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
