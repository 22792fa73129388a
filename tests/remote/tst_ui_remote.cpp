// The window on models read from servers (nginx and the scripted server on 127.0.0.1): opened
// by URL like files, remembered without credentials, no NaN/Inf check that would download the
// data, a loading page that shows what arrived and cancels, the error page's Access Token way
// out, a value grid that never waits for the network on the UI thread, and Preferences that keep
// the token out of the settings file.
#include "NginxServer.h"
#include "RemoteTestFiles.h"
#include "RemoteTestSession.h"
#include "ScriptedServer.h"

#include "checkpoint/Checkpoint.h"
#include "document/DocumentWidget.h"
#include "document/ErrorView.h"
#include "document/ReloadBanner.h"
#include "network/OpenUrlDialog.h"
#include "network/RemotePreferences.h"
#include "network/RemotePreferencesBox.h"
#include "network/TransferStatus.h"
#include "remote/NetworkClient.h"
#include "scan/ScanView.h"
#include "summary/SummaryView.h"
#include "summary/ValuesVerdict.h"
#include "tensor/ValueGridModel.h"
#include "view/ElementReader.h"
#include "window/MainWindow.h"
#include "window/Preferences.h"
#include "window/RecentFiles.h"
#include "window/StartPage.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace ts;
using namespace ts::ui;
using namespace ts::test;

namespace {

const QString kFile = QStringLiteral("face_recognition_f16.safetensors");
const QString kToken = QStringLiteral("hf_window-token-not-for-the-settings-file");

DocumentWidget* openAndWait(MainWindow& window, const QString& path)
{
    DocumentWidget* doc = window.openPath(path);
    if (!QTest::qWaitFor([doc] { return doc->state() != DocumentWidget::State::Loading; }, 20000))
        return nullptr;
    return doc;
}

QByteArray settingsFileText()
{
    QSettings settings;
    settings.sync();
    QFile f(settings.fileName());
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestUiRemote : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_root;
    QTemporaryDir m_home;
    NginxServer m_nginx;
    ScriptedServer m_scripted;
    std::unique_ptr<remote::RemoteSession> m_session;

private slots:
    void initTestCase()
    {
        // Settings, the token file and the cache in this test's own folders.
        qputenv("XDG_CONFIG_HOME", m_home.filePath(QStringLiteral("config")).toUtf8());
        qputenv("XDG_CACHE_HOME", m_home.filePath(QStringLiteral("cache")).toUtf8());
        qputenv("HF_HOME", m_home.filePath(QStringLiteral("hf")).toUtf8());
        qunsetenv("HF_TOKEN");
        qunsetenv("TENSORSCOPE_TOKEN_HOSTS");
        QCoreApplication::setOrganizationName(QStringLiteral("TensorscopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_ui_remote"));
        QVERIFY(RemoteTestFiles::copyFixture(kFile, m_root.path()));
        QVERIFY(RemoteTestFiles::copyFixture(QStringLiteral("age_gender_anomalies_f32.safetensors"),
                                             m_root.path()));
        QFile::setPermissions(m_root.path(), QFile::permissions(m_root.path()) | QFileDevice::ReadOther |
                                                 QFileDevice::ExeOther);
        NginxServer::Options options;
        options.root = m_root.path();
        QVERIFY2(m_nginx.start(options), qPrintable(m_nginx.error()));
        QVERIFY2(m_scripted.start(m_root.path(), kToken), qPrintable(m_scripted.error()));
        m_session = std::make_unique<remote::RemoteSession>(RemotePreferences::settings());
    }

    void cleanupTestCase() { m_session.reset(); }

    void aUrlOpensInATabAndIsRemembered()
    {
        RecentFiles::clear();
        MainWindow window;
        DocumentWidget* doc = openAndWait(window, m_nginx.url(kFile));
        QVERIFY(doc);
        QCOMPARE(doc->state(), DocumentWidget::State::Loaded);
        QVERIFY(doc->isRemote());
        QCOMPARE(window.tabs()->tabText(0), kFile);
        QCOMPARE(doc->result().model->tensors().size(), std::size_t(117));
        QCOMPARE(RecentFiles::paths().front(), m_nginx.url(kFile));
        // A second open of the same URL shows its tab.
        QCOMPARE(window.openPath(m_nginx.url(kFile)), doc);
        QCOMPARE(window.documentCount(), 1);
        // Reading values downloads the data: not on open. The verdict offers the check.
        QVERIFY(Preferences::checkNanInfOnOpen());
        QVERIFY(!doc->scanView()->isRunning());
        QCOMPARE(doc->summaryView()->valuesVerdict()->state(), ValuesVerdict::State::NotChecked);
        // The status bar says what came over the network.
        auto* status = window.findChild<TransferStatus*>();
        QVERIFY(status);
        QVERIFY(status->isVisibleTo(&window));
        QVERIFY2(status->text().contains(QStringLiteral("from 127.0.0.1")), qPrintable(status->text()));
        // The start page lists it by name and URL.
        window.startPage()->refresh();
        QVERIFY(window.startPage()->recentList()->item(0)->text().contains(m_nginx.url(kFile)));
    }

    void aPasswordInTheUrlIsNotRemembered()
    {
        RecentFiles::clear();
        MainWindow window;
        const QString withPassword =
            QStringLiteral("http://reader:s3cr3t@127.0.0.1:%1/%2").arg(m_nginx.port()).arg(kFile);
        DocumentWidget* doc = openAndWait(window, withPassword);
        QVERIFY(doc);
        QCOMPARE(doc->state(), DocumentWidget::State::Loaded);
        QCOMPARE(RecentFiles::paths().front(), m_nginx.url(kFile));
        QVERIFY(!settingsFileText().contains("s3cr3t"));
        QVERIFY(!window.tabs()->tabToolTip(0).contains(QStringLiteral("s3cr3t")));
        QVERIFY(!doc->result().model->path().contains(QStringLiteral("s3cr3t")));
    }

    void aScanReadsTheValuesAndFindsTheNaN()
    {
        MainWindow window;
        DocumentWidget* doc =
            openAndWait(window, m_nginx.url(QStringLiteral("age_gender_anomalies_f32.safetensors")));
        QVERIFY(doc);
        QSignalSpy finished(doc->scanView(), &ScanView::scanFinished);
        doc->startScan();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.front().front().toBool(), true);
        QCOMPARE(doc->summaryView()->valuesVerdict()->state(), ValuesVerdict::State::Checked);
        QVERIFY2(doc->summaryView()->valuesVerdict()->text().contains(QStringLiteral("NaN")),
                 qPrintable(doc->summaryView()->valuesVerdict()->text()));
    }

    void theLoadingPageShowsProgressAndCancels()
    {
        remote::RemoteSettings patient = RemotePreferences::settings();
        patient.stallTimeoutMs = 60000; // only the Cancel button ends this open
        m_session->setSettings(patient);
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        DocumentWidget* doc = window.openPath(m_scripted.url(QStringLiteral("stallhead/") + kFile));
        QCOMPARE(doc->state(), DocumentWidget::State::Loading);
        QVERIFY(doc->cancelLoadingButton()->isVisibleTo(doc));
        QVERIFY(doc->cancelLoadingButton()->isEnabled());
        m_scripted.waitForRequests(1);
        QTest::mouseClick(doc->cancelLoadingButton(), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([doc] { return doc->state() != DocumentWidget::State::Loading; }, 5000));
        QCOMPARE(doc->state(), DocumentWidget::State::Failed);
        QCOMPARE(doc->result().error->code, ErrorCode::Cancelled);
        m_session->setSettings(RemotePreferences::settings());
    }

    void aRefusedTokenOffersTheTokenSettings()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        DocumentWidget* doc = openAndWait(window, m_scripted.url(QStringLiteral("auth/") + kFile));
        QVERIFY(doc);
        QCOMPARE(doc->state(), DocumentWidget::State::Failed);
        QCOMPARE(doc->result().error->code, ErrorCode::AccessDenied);
        QVERIFY(doc->errorView()->accessTokenButton()->isVisibleTo(doc));
        QVERIFY(doc->errorView()->message().contains(QStringLiteral("HF_TOKEN")));
        QSignalSpy asked(doc, &DocumentWidget::accessTokenRequested);
        // The window opens Preferences on it; here the signal is what is checked.
        disconnect(doc, &DocumentWidget::accessTokenRequested, &window, nullptr);
        QTest::mouseClick(doc->errorView()->accessTokenButton(), Qt::LeftButton);
        QCOMPARE(asked.size(), 1);
        // A 404 has nothing to do with tokens.
        DocumentWidget* missing =
            openAndWait(window, m_scripted.url(QStringLiteral("status/404/x.safetensors")));
        QVERIFY(!missing->errorView()->accessTokenButton()->isVisibleTo(missing));
    }

    void aTokenSetInPreferencesOpensTheModelAndStaysOutOfTheSettingsFile()
    {
        {
            PreferencesDialog dialog;
            RemotePreferencesBox* box = dialog.remoteBox();
            QCOMPARE(box->tokenEdit()->echoMode(), QLineEdit::Password);
            box->tokenEdit()->setText(kToken);
            box->hostsEdit()->setText(QStringLiteral("huggingface.co, 127.0.0.1:%1").arg(m_scripted.port()));
            dialog.accept();
        }
        const QFileInfo tokenFile(remote::RemoteSettings::storedTokenPath());
        QVERIFY(tokenFile.exists());
        QCOMPARE(tokenFile.permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
                 QFileDevice::Permissions());
        QVERIFY(!settingsFileText().contains(kToken.toUtf8()));
        QCOMPARE(m_session->settings().token, kToken);
        MainWindow window;
        DocumentWidget* doc = openAndWait(window, m_scripted.url(QStringLiteral("auth/") + kFile));
        QVERIFY(doc);
        QCOMPARE(doc->state(), DocumentWidget::State::Loaded);
        QVERIFY(!settingsFileText().contains(kToken.toUtf8())); // recent files included
        // Removing it removes the file.
        {
            PreferencesDialog dialog;
            dialog.remoteBox()->tokenEdit()->clear();
            dialog.accept();
        }
        QVERIFY(!QFileInfo::exists(remote::RemoteSettings::storedTokenPath()));
        QVERIFY(m_session->settings().token.isEmpty());
    }

    void theCacheBoundIsAPreference()
    {
        PreferencesDialog dialog;
        dialog.remoteBox()->cacheBox()->setValue(512);
        dialog.accept();
        QCOMPARE(RemotePreferences::cacheBytes(), 512ull << 20);
        QCOMPARE(m_session->client().cache().limit(), 512ull << 20);
    }

    void aFileChangedOnTheServerShowsTheBanner()
    {
        MainWindow window;
        DocumentWidget* doc = openAndWait(
            window, m_scripted.url(QStringLiteral("changing/1/age_gender_anomalies_f32.safetensors")));
        QVERIFY(doc);
        QCOMPARE(doc->state(), DocumentWidget::State::Loaded);
        QSignalSpy finished(doc->scanView(), &ScanView::scanFinished);
        doc->startScan();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.front().front().toBool(), false);
        doc->checkForChanges();
        QVERIFY(doc->isReloadPromptVisible());
        QVERIFY2(doc->reloadBanner()->message().contains(QStringLiteral("changed on the server")),
                 qPrintable(doc->reloadBanner()->message()));
    }

    void theValueGridNeverWaitsForTheNetworkOnTheUiThread()
    {
        // 64 MiB of [64, 256, 1024]: the plane at index 60 of the first axis starts 60 MiB in.
        QVERIFY(RemoteTestFiles::writeShapedTensor(
            QDir(m_root.path()).filePath(QStringLiteral("cube.safetensors")), {64, 256, 1024},
            60 * 256 * 1024 + 1));
        // Through the gate: the header comes at once, the plane only once the test opens the gate
        // (on nginx, a read-ahead under load could bring it before the first look at the cell).
        auto model = Checkpoint::open(m_scripted.url(QStringLiteral("gated/cube.safetensors")));
        QVERIFY(model);
        ValueGridModel grid;
        QAbstractItemModelTester tester(&grid);
        PlaneSpec spec;
        spec.rowAxis = 1;
        spec.colAxis = 2;
        spec.fixed = {60, 0, 0};
        grid.setTensor((*model)->location(0), (*model)->tensors()[0].info, spec);
        // The bytes are on the server: the cell says so, the fetch runs on a worker, and the
        // UI thread goes on.
        const QModelIndex cell = grid.index(3, 5);
        QCOMPARE(grid.data(cell).toString(), QStringLiteral("\u2026"));
        QVERIFY(grid.isFetching());
        QSignalSpy changed(&grid, &QAbstractItemModel::dataChanged);
        QFile gate(QDir(m_root.path()).filePath(QStringLiteral("cube.safetensors.open")));
        QVERIFY(gate.open(QIODevice::WriteOnly));
        gate.close();
        QVERIFY(changed.wait(10000));
        const std::uint64_t flat = 60 * 256 * 1024 + 3 * 1024 + 5;
        const ElementReader reader((*model)->location(0), (*model)->tensors()[0].info.flattened());
        QCOMPARE(grid.data(cell, ValueGridModel::ValueRole).toDouble(), reader.at(flat).value());
        QCOMPARE(grid.data(cell).toString(), ValueGridModel::format(reader.at(flat).value()));
        QCOMPARE(grid.data(grid.index(0, 1)).toString(), QStringLiteral("NaN")); // the planted one
    }

    void aFetchThatFailsShowsUnreadableAndIsNotRepeated()
    {
        // The file changes on the server after the header: the grid's fetch fails, and the cells
        // say so instead of asking the server again on every paint.
        QVERIFY(RemoteTestFiles::writeShapedTensor(
            QDir(m_root.path()).filePath(QStringLiteral("cube2.safetensors")), {4, 256, 1024}, 0));
        auto model = Checkpoint::open(m_scripted.url(QStringLiteral("changing/1/cube2.safetensors")));
        QVERIFY(model);
        ValueGridModel grid;
        PlaneSpec spec;
        spec.rowAxis = 1;
        spec.colAxis = 2;
        spec.fixed = {3, 0, 0}; // 3 MiB in: past what the open brought
        grid.setTensor((*model)->location(0), (*model)->tensors()[0].info, spec);
        const QModelIndex cell = grid.index(3, 5);
        QCOMPARE(grid.data(cell).toString(), QStringLiteral("\u2026"));
        QSignalSpy changed(&grid, &QAbstractItemModel::dataChanged);
        QVERIFY(changed.wait(10000));
        QCOMPARE(grid.data(cell).toString(), QStringLiteral("unreadable"));
        QCOMPARE(grid.data(grid.index(100, 900)).toString(), QStringLiteral("unreadable"));
        QVERIFY(!grid.isFetching());
    }

    void openUrlChecksWhatIsTyped()
    {
        QVERIFY(OpenUrlDialog::problemWith(QStringLiteral("/tmp/model.safetensors"))
                    .contains(QStringLiteral("https://")));
        QVERIFY(OpenUrlDialog::problemWith(QStringLiteral("https://host/models/"))
                    .contains(QStringLiteral("folder")));
        QVERIFY(OpenUrlDialog::problemWith(m_nginx.url(kFile)).isEmpty());
        RecentFiles::clear();
        RecentFiles::add(QStringLiteral("/local/file.safetensors"));
        RecentFiles::add(m_nginx.url(kFile));
        OpenUrlDialog dialog;
        // The URLs opened before are offered, files are not.
        QCOMPARE(dialog.urlBox()->count(), 1);
        QCOMPARE(dialog.urlBox()->itemText(0), m_nginx.url(kFile));
        auto* open = dialog.findChild<QPushButton*>();
        dialog.urlBox()->setCurrentText(QStringLiteral("ftp://x/y"));
        QVERIFY(dialog.findChildren<QLabel*>().back()->isVisibleTo(&dialog));
        Q_UNUSED(open);
    }
};

QTEST_MAIN(TestUiRemote)
#include "tst_ui_remote.moc"
