// What real servers get wrong, against scripted_server.py and an https nginx on 127.0.0.1: each
// failure is retried where that can help and otherwise ends in one sentence with its own code.
#include "NginxServer.h"
#include "RemoteTestFiles.h"
#include "RemoteTestSession.h"
#include "ScriptedServer.h"
#include "TestCertificates.h"

#include "analysis/ModelScanner.h"
#include "checkpoint/Checkpoint.h"
#include "io/ReadScope.h"
#include "remote/HttpByteSource.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <thread>

using namespace ts;
using namespace ts::test;

namespace {

const QString kFile = QStringLiteral("face_recognition_f16.safetensors");
const QString kAnomalies = QStringLiteral("age_gender_anomalies_f32.safetensors");
const QString kToken = QStringLiteral("tok-5f1e9c-never-print-me");

QList<QJsonObject> withPath(const QList<QJsonObject>& requests, const QString& prefix)
{
    QList<QJsonObject> out;
    for (const QJsonObject& r : requests) {
        if (r.value(QStringLiteral("path")).toString().startsWith(prefix))
            out << r;
    }
    return out;
}

} // namespace

class TestRemoteFailures : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_root;
    QTemporaryDir m_cache;
    ScriptedServer m_server;
    std::unique_ptr<remote::RemoteSession> m_session;
    qsizetype m_mark = 0; // the server's log before this test

    QList<QJsonObject> thisTest(int atLeast) const
    {
        return m_server.waitForRequests(int(m_mark) + atLeast).mid(m_mark);
    }

    // A session of its own per test: settings such as attempts and timeouts differ.
    void session(remote::RemoteSettings settings)
    {
        m_session.reset();
        m_session = std::make_unique<remote::RemoteSession>(settings);
    }
    remote::RemoteSettings quick() const
    {
        remote::RemoteSettings s = testSettings(m_cache.path(), 0);
        s.attempts = 3;
        return s;
    }
    Result<std::shared_ptr<const Checkpoint>> open(const QString& path)
    {
        return Checkpoint::open(m_server.url(path));
    }
    Result<ScanResult> scan(const QString& path)
    {
        auto model = open(path);
        if (!model)
            return model.error();
        return ModelScanner(model.value(), {}).run();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(RemoteTestFiles::copyFixture(kFile, m_root.path()));
        QVERIFY(RemoteTestFiles::copyFixture(kAnomalies, m_root.path()));
        QVERIFY(RemoteTestFiles::writeSingleTensor(
            QDir(m_root.path()).filePath(QStringLiteral("small.safetensors")), 1000, 5));
        QVERIFY2(m_server.start(m_root.path(), kToken), qPrintable(m_server.error()));
    }

    void init() { m_mark = m_server.requests().size(); }
    void cleanup() { m_session.reset(); }

    void aDroppedConnectionIsResumedWhereItStopped()
    {
        session(quick());
        const auto result = scan(QStringLiteral("drop/2/") + kAnomalies);
        QVERIFY2(result, qPrintable(result ? QString() : result.error().toString()));
        QCOMPARE(result->tensors.size(),
                 std::size_t(open(QStringLiteral("files/") + kAnomalies).value()->tensors().size()));
        const QList<QJsonObject> log = withPath(thisTest(4), QStringLiteral("/drop/"));
        // The probe was cut at half and asked again from the first byte it lacked, not from 0.
        QStringList ranges;
        for (const QJsonObject& r : log)
            ranges << r.value(QStringLiteral("range")).toString() +
                          (r.value(QStringLiteral("cut")).toBool() ? QStringLiteral("/cut") : QString());
        QVERIFY2(ranges.contains(QStringLiteral("bytes=0-102399/cut")),
                 qPrintable(ranges.join(QLatin1Char(' '))));
        // Asked again from byte 51200 (cut a second time, or not). On a loaded machine Qt Network
        // may report the closed connection before it hands over the half it read; the client then
        // lacks every byte and asks from 0 again, rightly, and resumes at 51200 after the next cut
        // (seen once: "0/cut 0/cut 51200"). A client that always restarts never asks from 51200.
        QVERIFY2(ranges.contains(QStringLiteral("bytes=51200-102399/cut")) ||
                     ranges.contains(QStringLiteral("bytes=51200-102399")),
                 qPrintable(ranges.join(QLatin1Char(' '))));
    }

    void aConnectionThatKeepsDroppingFailsWithASentence()
    {
        session(quick());
        const auto opened = open(QStringLiteral("drop/1000/") + kFile);
        QVERIFY(!opened);
        QCOMPARE(opened.error().code, ErrorCode::NetworkError);
        QVERIFY2(opened.error().message.contains(QStringLiteral("dropped after")) &&
                     opened.error().message.contains(QStringLiteral("(3 attempts)")),
                 qPrintable(opened.error().message));
        QCOMPARE(opened.error().file, m_server.url(QStringLiteral("drop/1000/") + kFile));
    }

    void aBusyServerIsAskedAgain()
    {
        session(quick());
        const auto opened = open(QStringLiteral("flaky/2/") + kFile);
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().toString()));
        const QList<QJsonObject> log = withPath(thisTest(3), QStringLiteral("/flaky/"));
        QCOMPARE(log[0].value(QStringLiteral("status")).toInt(), 503);
        QCOMPARE(log[1].value(QStringLiteral("status")).toInt(), 503);
        QCOMPARE(log[2].value(QStringLiteral("status")).toInt(), 206);
    }

    void aServerWithoutRangesIsExplained()
    {
        session(quick());
        const auto opened = open(QStringLiteral("norange/") + kFile);
        QVERIFY(!opened);
        QCOMPARE(opened.error().code, ErrorCode::RangeNotSupported);
        QVERIFY2(opened.error().message.contains(QStringLiteral("does not support byte ranges")) &&
                     opened.error().message.contains(QStringLiteral("HTTP 200, not 206")),
                 qPrintable(opened.error().message));
        // A file smaller than the probe, sent whole, is all there is: it opens.
        const auto small = open(QStringLiteral("norange/small.safetensors"));
        QVERIFY2(small, qPrintable(small ? QString() : small.error().toString()));
        QCOMPARE((*small)->tensors().size(), std::size_t(1));
    }

    void aFileReplacedWhileItIsReadIsAnErrorNotABlend()
    {
        session(quick());
        // The probe sees one file, every later request another one.
        auto model = open(QStringLiteral("changing/1/") + kAnomalies);
        QVERIFY(model);
        const auto result = ModelScanner(model.value(), {}).run();
        QVERIFY(!result);
        QCOMPARE(result.error().code, ErrorCode::FileChanged);
        QVERIFY2(result.error().message.contains(QStringLiteral("changed on the server")) &&
                     result.error().message.contains(QStringLiteral("ETag went from")),
                 qPrintable(result.error().message));
        const ByteSource& source = *(*model)->parts().front().source;
        QVERIFY(source.changedOnDisk());
        QVERIFY((*model)->changedOnDisk());
        // From then on every read says so, whether the bytes are held or not.
        std::vector<std::byte> bytes(16);
        const Result<void> again = source.read(0, bytes);
        QVERIFY(!again);
        QCOMPARE(again.error().code, ErrorCode::FileChanged);
    }

    void withoutValidatorsTheSizeIsStillChecked()
    {
        session(quick());
        auto model = open(QStringLiteral("noetag/") + kFile);
        QVERIFY(model);
        QVERIFY(ModelScanner(model.value(), {}).run());
    }

    void redirectsAreFollowedOnceAndRemembered()
    {
        session(quick());
        auto model = open(QStringLiteral("redirect/3/files/") + kFile);
        QVERIFY2(model, qPrintable(model ? QString() : model.error().toString()));
        QCOMPARE((*model)->path(), m_server.url(QStringLiteral("redirect/3/files/") + kFile));
        QVERIFY(ModelScanner(model.value(), {}).run());
        const QList<QJsonObject> log = thisTest(5);
        QCOMPARE(withPath(log, QStringLiteral("/redirect/")).size(), 3);
        // Every read after the open went straight to where the redirects ended.
        QVERIFY(withPath(log, QStringLiteral("/files/")).size() >= 2);
    }

    void endlessRedirectsAreRefused()
    {
        session(quick());
        const auto opened = open(QStringLiteral("redirect/30/files/") + kFile);
        QVERIFY(!opened);
        QCOMPARE(opened.error().code, ErrorCode::NetworkError);
        QVERIFY2(opened.error().message.contains(QStringLiteral("redirected more than 10 times")),
                 qPrintable(opened.error().message));
    }

    void theTokenOpensWhatNeedsIt()
    {
        remote::RemoteSettings s = quick();
        s.token = kToken;
        s.tokenHosts = {QStringLiteral("127.0.0.1:%1").arg(m_server.port())};
        session(s);
        auto model = open(QStringLiteral("auth/") + kFile);
        QVERIFY2(model, qPrintable(model ? QString() : model.error().toString()));
        QVERIFY(ModelScanner(model.value(), {}).run());
        for (const QJsonObject& r : withPath(thisTest(2), QStringLiteral("/auth/")))
            QVERIFY(r.value(QStringLiteral("auth_ok")).toBool());
    }

    void accessProblemsSaySomethingUseful()
    {
        remote::RemoteSettings s = quick();
        session(s);
        auto opened = open(QStringLiteral("auth/") + kFile);
        QVERIFY(!opened);
        QCOMPARE(opened.error().code, ErrorCode::AccessDenied);
        QVERIFY2(opened.error().message.contains(QStringLiteral("HTTP 401")) &&
                     opened.error().message.contains(QStringLiteral("HF_TOKEN")),
                 qPrintable(opened.error().message));
        // A token that is not meant for this host is not sent, and the sentence says so.
        s.token = kToken;
        session(s);
        opened = open(QStringLiteral("auth/") + kFile);
        QVERIFY(!opened);
        QVERIFY2(opened.error().message.contains(QStringLiteral("only sent to the hosts")),
                 qPrintable(opened.error().message));
        QVERIFY(!opened.error().toString().contains(kToken));
        QVERIFY(!thisTest(2).back().value(QStringLiteral("auth")).toBool());
        // A wrong token is refused by the server.
        s.token = QStringLiteral("wrong-token");
        s.tokenHosts = {QStringLiteral("127.0.0.1")};
        session(s);
        opened = open(QStringLiteral("auth/") + kFile);
        QVERIFY(!opened);
        QCOMPARE(opened.error().code, ErrorCode::AccessDenied);
        QVERIFY2(opened.error().message.contains(QStringLiteral("HTTP 403")),
                 qPrintable(opened.error().message));
        QVERIFY(!opened.error().toString().contains(QStringLiteral("wrong-token")));
    }

    void statusCodesHaveTheirSentences_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("says");
        QTest::newRow("401") << 401 << int(ErrorCode::AccessDenied)
                             << QStringLiteral("asks for an access token");
        QTest::newRow("403") << 403 << int(ErrorCode::AccessDenied) << QStringLiteral("refuses access");
        QTest::newRow("404") << 404 << int(ErrorCode::NotFound)
                             << QStringLiteral("no file at this URL (HTTP 404)");
        QTest::newRow("410") << 410 << int(ErrorCode::NotFound) << QStringLiteral("HTTP 410");
        QTest::newRow("500") << 500 << int(ErrorCode::NetworkError)
                             << QStringLiteral("HTTP 500 (2 attempts)");
    }

    void statusCodesHaveTheirSentences()
    {
        QFETCH(int, status);
        QFETCH(int, code);
        QFETCH(QString, says);
        remote::RemoteSettings s = quick();
        s.attempts = 2;
        session(s);
        const auto opened = open(QStringLiteral("status/%1/model.safetensors").arg(status));
        QVERIFY(!opened);
        QCOMPARE(int(opened.error().code), code);
        QVERIFY2(opened.error().message.contains(says), qPrintable(opened.error().message));
    }

    void theTokenStaysWithItsHostAcrossARedirect()
    {
        remote::RemoteSettings s = quick();
        s.token = kToken;
        s.tokenHosts = {QStringLiteral("*")};
        session(s);
        // 127.0.0.1 redirects to the same server named "localhost": another host, so no token.
        auto model = open(QStringLiteral("otherhost/files/") + kFile);
        QVERIFY2(model, qPrintable(model ? QString() : model.error().toString()));
        const QList<QJsonObject> log = thisTest(2);
        const QList<QJsonObject> first = withPath(log, QStringLiteral("/otherhost/"));
        const QList<QJsonObject> then = withPath(log, QStringLiteral("/files/"));
        QVERIFY(first.front().value(QStringLiteral("auth")).toBool());
        QVERIFY(
            then.front().value(QStringLiteral("host")).toString().startsWith(QStringLiteral("localhost:")));
        QVERIFY(!then.front().value(QStringLiteral("auth")).toBool());
    }

    void aStalledServerTimesOut_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("in the body") << QStringLiteral("stall/") + kFile;
        QTest::newRow("before the headers") << QStringLiteral("stallhead/") + kFile;
    }

    void aStalledServerTimesOut()
    {
        QFETCH(QString, path);
        remote::RemoteSettings s = quick();
        s.stallTimeoutMs = 300;
        s.attempts = 2;
        session(s);
        const auto opened = open(path);
        QVERIFY(!opened);
        QCOMPARE(opened.error().code, ErrorCode::TimedOut);
        QVERIFY2(opened.error().message.contains(QStringLiteral("sent nothing for 0.3 s (2 attempts)")),
                 qPrintable(opened.error().message));
    }

    void aCancelStopsTheWaitAtOnce()
    {
        remote::RemoteSettings s = quick();
        s.stallTimeoutMs = 60000; // the server never answers: only the cancel can end the open
        session(s);
        const CancelToken cancel;
        std::optional<Error> error;
        QElapsedTimer sinceCancel;
        std::thread opener([&] {
            const ReadScope scope(cancel);
            auto opened = open(QStringLiteral("stallhead/") + kFile);
            if (!opened)
                error = opened.error();
        });
        // The request reached the server: the open now waits for an answer that never comes.
        QCOMPARE(withPath(thisTest(1), QStringLiteral("/stallhead/")).size(), 1);
        sinceCancel.start();
        cancel.cancel();
        opener.join();
        QVERIFY(error);
        QCOMPARE(error->code, ErrorCode::Cancelled);
        // Far below the 60 s the stall timer would have taken.
        QVERIFY2(sinceCancel.elapsed() < 5000, qPrintable(QString::number(sinceCancel.elapsed())));
    }

    void aProxyFromTheEnvironmentIsUsed()
    {
        // The scripted server answers absolute-form requests as a proxy would; the host in the
        // URL does not exist, so only the proxy can have answered.
        qputenv("http_proxy", m_server.url(QString()).toUtf8());
        session(quick());
        qunsetenv("http_proxy");
        auto model = Checkpoint::open(QStringLiteral("http://models.invalid/files/") + kFile);
        QVERIFY2(model, qPrintable(model ? QString() : model.error().toString()));
        QVERIFY(thisTest(1).back().value(QStringLiteral("proxied")).toBool());
    }

    void untrustedTlsIsRefusedAndAnAuthorityFileTrustsIt()
    {
        TestCertificates certs;
        QVERIFY2(certs.make(), qPrintable(certs.error));
        NginxServer https;
        NginxServer::Options options;
        options.root = m_root.path();
        options.tls = true;
        options.certFile = certs.certFile;
        options.keyFile = certs.keyFile;
        options.extra = QStringLiteral("location /tohttp/ { return 302 http://127.0.0.1:%1/files/$1; }")
                            .arg(m_server.port());
        QFile::setPermissions(m_root.path(), QFile::permissions(m_root.path()) | QFileDevice::ReadOther |
                                                 QFileDevice::ExeOther);
        QVERIFY2(https.start(options), qPrintable(https.error()));
        session(quick());
        auto opened = Checkpoint::open(https.url(kFile));
        QVERIFY(!opened);
        QCOMPARE(opened.error().code, ErrorCode::TlsError);
        QVERIFY2(opened.error().message.contains(QStringLiteral("not trusted")) &&
                     opened.error().message.contains(QStringLiteral("SSL_CERT_FILE")),
                 qPrintable(opened.error().message));
        remote::RemoteSettings trusting = quick();
        trusting.caFile = certs.caFile;
        session(trusting);
        opened = Checkpoint::open(https.url(kFile));
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().toString()));
        QVERIFY(ModelScanner(opened.value(), {}).run());
        // The authorities apply after a redirect from plain http too: they are made when a request
        // first goes to https, not when the transfer starts (an http URL never reads the file).
        NginxServer plain;
        NginxServer::Options redirecting;
        redirecting.root = m_root.path();
        redirecting.extra =
            QStringLiteral("location ~ ^/tohttps/(.*)$ { return 302 %1$1; }").arg(https.url(QString()));
        QVERIFY2(plain.start(redirecting), qPrintable(plain.error()));
        opened = Checkpoint::open(plain.url(QStringLiteral("tohttps/") + kFile));
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().toString()));
        QVERIFY(ModelScanner(opened.value(), {}).run());
        session(quick());
        opened = Checkpoint::open(plain.url(QStringLiteral("tohttps/") + kFile));
        QVERIFY(!opened);
        QCOMPARE(opened.error().code, ErrorCode::TlsError);
        session(trusting);
        // Trusted or not, https never turns into plain http along a redirect.
        opened = Checkpoint::open(https.url(QStringLiteral("tohttp/") + kFile));
        QVERIFY(!opened);
        QCOMPARE(opened.error().code, ErrorCode::TlsError);
        QVERIFY2(opened.error().message.contains(QStringLiteral("from https to plain http")),
                 qPrintable(opened.error().message));
    }
};

QTEST_GUILESS_MAIN(TestRemoteFailures)
#include "tst_remote_failures.moc"
