// The window as a desktop citizen: what it remembers between runs (one MainWindow
// saves, a new one restores), the theme, Ctrl+5 and the shortcuts list, and macOS's QFileOpenEvent.
// Settings live in a temporary folder of this run, never the user's.

#include "UiTestUtils.h"
#include "document/DocumentWidget.h"
#include "window/FileOpenFilter.h"
#include "window/MainWindow.h"
#include "window/ShortcutsDialog.h"
#include "window/Theme.h"
#include "window/WindowMemory.h"

#include <QAction>
#include <QApplication>
#include <QFileOpenEvent>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace ts::ui;
using namespace ts::test;

namespace {

const QString kLandmark = QStringLiteral("face_landmark_68_f32.safetensors");
const QString kTiny = QStringLiteral("tiny_face_detector_u8.safetensors");

bool waitLoaded(MainWindow& window)
{
    return QTest::qWaitFor(
        [&] {
            for (int i = 0; i < window.documentCount(); ++i) {
                if (window.document(i)->state() == DocumentWidget::State::Loading)
                    return false;
            }
            return true;
        },
        10000);
}

// A menu action by its text without the mnemonic, anywhere in the menu bar.
QAction* menuAction(const MainWindow& window, const QString& text)
{
    const auto actions = window.menuBar()->findChildren<QAction*>();
    for (QAction* a : actions) {
        if (QString(a->text()).remove(QLatin1Char('&')) == text)
            return a;
    }
    return nullptr;
}

QString canonical(const QString& path)
{
    return QFileInfo(path).canonicalFilePath();
}

} // namespace

class TestUiDesktop : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QApplication::setOrganizationName(QStringLiteral("TensorscopeTest"));
        QApplication::setApplicationName(QStringLiteral("tst_ui_desktop"));
        TS_REQUIRE_FIXTURE(realFixture(kLandmark));
        TS_REQUIRE_FIXTURE(realFixture(kTiny));
        m_platformStyle = QApplication::style()->name();
        m_platformWindow = QApplication::palette().color(QPalette::Window);
    }

    void init()
    {
        // A fresh settings folder for every test: nothing leaks between them or from earlier runs.
        m_settings = std::make_unique<QTemporaryDir>();
        QVERIFY(m_settings->isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings->path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings->path());
        QVERIFY(QSettings().allKeys().isEmpty());
    }

    void cleanup() { Theme::apply(Theme::System); }

    void aNewWindowRestoresWhatTheLastOneLeft()
    {
        QList<int> splitSizes;
        {
            MainWindow first;
            first.restoreFromLastRun(true); // nothing stored yet: a fresh window
            QCOMPARE(first.documentCount(), 0);
            first.show();
            QVERIFY(QTest::qWaitForWindowExposed(&first));
            first.resize(900, 600);
            QAction* reopen = menuAction(first, QStringLiteral("Reopen Tabs at Start"));
            QVERIFY(reopen);
            QVERIFY(!reopen->isChecked()); // off by default
            reopen->trigger();
            QAction* dark = menuAction(first, QStringLiteral("Dark"));
            QVERIFY(dark);
            dark->trigger();
            first.openPath(realFixture(kLandmark));
            first.openPath(realFixture(kTiny));
            QVERIFY(waitLoaded(first));
            first.tabs()->setCurrentIndex(0);
            DocumentWidget* doc = first.document(0);
            doc->showPage(DocumentWidget::MetadataPage);
            first.document(1)->showPage(DocumentWidget::HeaderPage);
            auto* split = doc->findChild<QSplitter*>(QStringLiteral("tensorSplitter"));
            QVERIFY(split);
            doc->showPage(DocumentWidget::TensorsPage);
            const QList<int> before = split->sizes();
            split->setSizes({200, 650});
            QTRY_VERIFY(split->sizes() != before);
            splitSizes = split->sizes();
            QVERIFY(first.close());
        }
        QCOMPARE(QApplication::palette().color(QPalette::Window).lightness() < 80, true); // still dark

        Theme::apply(Theme::System); // as a new process would start
        MainWindow second;
        second.restoreFromLastRun(true);
        QCOMPARE(Theme::current(), Theme::Dark);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 80);
        QCOMPARE(second.size(), QSize(900, 600));
        // The session's tabs, in order, with the same one current.
        QCOMPARE(second.documentCount(), 2);
        QVERIFY(waitLoaded(second));
        QCOMPARE(second.document(0)->path(), canonical(realFixture(kLandmark)));
        QCOMPARE(second.document(1)->path(), canonical(realFixture(kTiny)));
        QCOMPARE(second.tabs()->currentIndex(), 0);
        // Each document on the page it was left on.
        QCOMPARE(second.document(0)->currentPage(), DocumentWidget::TensorsPage);
        QCOMPARE(second.document(1)->currentPage(), DocumentWidget::HeaderPage);
        second.show();
        QVERIFY(QTest::qWaitForWindowExposed(&second));
        auto* split = second.document(0)->findChild<QSplitter*>(QStringLiteral("tensorSplitter"));
        QTRY_COMPARE(split->sizes(), splitSizes);
    }

    void tabsReopenOnlyWhenAskedAndWithoutPaths()
    {
        WindowMemory::saveSession({canonical(realFixture(kLandmark))}, 0);
        {
            MainWindow off; // the preference is off by default
            off.restoreFromLastRun(true);
            QCOMPARE(off.documentCount(), 0);
        }
        WindowMemory::setReopensTabs(true);
        {
            MainWindow withPaths; // paths on the command line win over the session
            withPaths.restoreFromLastRun(false);
            QCOMPARE(withPaths.documentCount(), 0);
        }
        MainWindow on;
        on.restoreFromLastRun(true);
        QCOMPARE(on.documentCount(), 1);
    }

    void aWindowThatWasNotAskedRemembersNothing()
    {
        WindowMemory::setLastPage(canonical(realFixture(kLandmark)), DocumentWidget::MetadataPage);
        MainWindow window; // as --screenshot and the other tests use it
        window.openPath(realFixture(kLandmark));
        QVERIFY(waitLoaded(window));
        QCOMPARE(window.document(0)->currentPage(), DocumentWidget::SummaryPage);
        window.document(0)->showPage(DocumentWidget::HeaderPage);
        QCOMPARE(WindowMemory::lastPage(canonical(realFixture(kLandmark))),
                 int(DocumentWidget::MetadataPage));
    }

    void lastPagesAreBounded()
    {
        for (int i = 0; i < WindowMemory::kMaxPages + 10; ++i)
            WindowMemory::setLastPage(QStringLiteral("/models/%1.safetensors").arg(i), i % 5);
        QCOMPARE(WindowMemory::lastPage(QStringLiteral("/models/0.safetensors")), -1); // the oldest went
        QCOMPARE(WindowMemory::lastPage(QStringLiteral("/models/59.safetensors")), 59 % 5);
        QCOMPARE(QSettings().value(QStringLiteral("documents/lastPages")).toList().size(),
                 WindowMemory::kMaxPages);
    }

    void themeAppliesLiveAndSystemGoesBack()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        menuAction(window, QStringLiteral("Dark"))->trigger();
        QTRY_VERIFY(window.palette().color(QPalette::Window).lightness() < 80);
        QCOMPARE(QApplication::style()->name(), QStringLiteral("fusion"));
        menuAction(window, QStringLiteral("Light"))->trigger();
        QTRY_VERIFY(window.palette().color(QPalette::Window).lightness() > 180);
        menuAction(window, QStringLiteral("System"))->trigger();
        QCOMPARE(QApplication::style()->name(), m_platformStyle);
        QTRY_COMPARE(window.palette().color(QPalette::Window), m_platformWindow);
        QCOMPARE(Theme::stored(), Theme::System);
        // --dark: this run only, the stored choice stays.
        Theme::overrideForThisRun(Theme::Dark);
        Theme::applyStored();
        QCOMPARE(Theme::current(), Theme::Dark);
        QCOMPARE(Theme::stored(), Theme::System);
    }

    void ctrl5ShowsTheScanPage()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.openPath(realFixture(kLandmark));
        QVERIFY(waitLoaded(window));
        DocumentWidget* doc = window.currentDocument();
        QCOMPARE(doc->currentPage(), DocumentWidget::SummaryPage);
        QTest::keyClick(&window, Qt::Key_5, Qt::ControlModifier);
        QCOMPARE(doc->currentPage(), DocumentWidget::ScanPage);
        QTest::keyClick(&window, Qt::Key_2, Qt::ControlModifier);
        QCOMPARE(doc->currentPage(), DocumentWidget::TensorsPage);
    }

    void theShortcutsDialogListsTheActions()
    {
        MainWindow window;
        window.showShortcuts();
        auto* dialog = window.findChild<ShortcutsDialog*>();
        QVERIFY(dialog);
        QStringList rows;
        for (int i = 0; i < dialog->list()->topLevelItemCount(); ++i) {
            const QTreeWidgetItem* item = dialog->list()->topLevelItem(i);
            rows << item->text(0) + QStringLiteral(" = ") + item->text(1);
        }
        const QString ctrl5 = QKeySequence(Qt::CTRL | Qt::Key_5).toString(QKeySequence::NativeText);
        QVERIFY2(rows.contains(QStringLiteral("Scan = ") + ctrl5), qPrintable(rows.join(QLatin1Char('\n'))));
        // Every menu action with a shortcut has its row: the list is read from them.
        const auto actions = window.menuBar()->findChildren<QAction*>();
        for (const QAction* a : actions) {
            if (a->shortcut().isEmpty())
                continue;
            const QString keys = a->shortcut().toString(QKeySequence::NativeText);
            QVERIFY2(
                std::any_of(rows.begin(), rows.end(), [&](const QString& r) { return r.contains(keys); }),
                qPrintable(a->text()));
        }
    }

    void aFileOpenEventOpensATabEvenBeforeTheWindow()
    {
        FileOpenFilter filter;
        // macOS sends the first one while the application starts: no window yet.
        QFileOpenEvent early(realFixture(kLandmark));
        QVERIFY(QCoreApplication::sendEvent(QCoreApplication::instance(), &early));
        QCOMPARE(filter.pending(), QStringList{realFixture(kLandmark)});
        MainWindow window;
        filter.setWindow(&window);
        QCOMPARE(window.documentCount(), 1);
        QVERIFY(filter.pending().isEmpty());
        // Later ones (a double-click in Finder while it runs) go straight to a new tab.
        QFileOpenEvent later(realFixture(kTiny));
        QVERIFY(QCoreApplication::sendEvent(QCoreApplication::instance(), &later));
        QCOMPARE(window.documentCount(), 2);
        QVERIFY(waitLoaded(window));
        QCOMPARE(window.currentDocument()->path(), canonical(realFixture(kTiny)));
    }

private:
    std::unique_ptr<QTemporaryDir> m_settings;
    QString m_platformStyle;
    QColor m_platformWindow;
};

QTEST_MAIN(TestUiDesktop)
#include "tst_ui_desktop.moc"
