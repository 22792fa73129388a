#pragma once

#include "remote/HttpFailure.h"
#include "remote/RemoteIdentity.h"
#include "remote/RemoteSettings.h"
#include "remote/Transfer.h"

#include <QList>
#include <QObject>
#include <QSslConfiguration>
#include <QSslError>
#include <QTimer>
#include <QUrl>

#include <functional>
#include <memory>

class QNetworkAccessManager;
class QNetworkReply;

namespace ts::remote {

// Carries one Transfer through HTTP on the network thread: the GET with its Range, redirects
// followed by hand (the token stays with the host it is meant for, https never turns into http),
// the status and the file's identity checked on every response, the body written straight into
// the transfer's buffer, a stall timer, and retries with backoff that resume where a dropped
// connection stopped. Lives and dies on the network thread.
class TransferRunner final : public QObject {
    Q_OBJECT
public:
    // `tls`: the configuration with the extra authorities of RemoteSettings::caFile, or a null one;
    // asked for only when a request goes to an https URL (reading a CA file of 140 authorities took
    // 50-70 ms of every command on a plain http URL).
    using TlsProvider = std::function<QSslConfiguration()>;
    TransferRunner(std::shared_ptr<Transfer> transfer, QNetworkAccessManager* manager,
                   RemoteSettings settings, TlsProvider tls,
                   std::function<void(const std::shared_ptr<Transfer>&)> onSuccess,
                   QObject* parent = nullptr);
    ~TransferRunner() override;

    const std::shared_ptr<Transfer>& transfer() const { return m_transfer; }
    void start();
    void cancel();

signals:
    void ended(ts::remote::TransferRunner* runner);

private:
    enum class Phase { Idle, Waiting, Redirect, Body, Rejected, Ended };

    void send();
    void onMetaData();
    void onReadyRead();
    void onFinished();
    void onStalled();
    bool acceptStatus(int status);
    void retryOrFail(const Error& error, int retryAfterMs = 0);
    void succeed();
    void fail(const Error& error);
    void dropReply();
    HttpFailure::Context context() const;
    std::uint64_t wanted() const; // body bytes this transfer needs in all

    std::shared_ptr<Transfer> m_transfer;
    QNetworkAccessManager* m_manager;
    RemoteSettings m_settings;
    TlsProvider m_tls;
    std::function<void(const std::shared_ptr<Transfer>&)> m_onSuccess;
    QNetworkReply* m_reply = nullptr;
    QTimer m_stall;
    QUrl m_url;               // where the current request goes
    bool m_fromOrigin = true; // the chain started at the origin (not a remembered target)
    int m_redirects = 0;
    int m_attempt = 1;
    Phase m_phase = Phase::Idle;
    bool m_stalled = false;
    bool m_tokenSent = false;
    std::uint64_t m_received = 0;     // body bytes in the buffer
    std::uint64_t m_requestFirst = 0; // the byte the current response starts at
    std::uint64_t m_discarded = 0;    // body bytes of a redirect or an error thrown away
    bool m_haveIdentity = false;
    RemoteIdentity m_identity;
    std::uint64_t m_probeLength = 0; // Probe: the bytes there are to read, once known
    QList<QSslError> m_sslErrors;
};

} // namespace ts::remote
