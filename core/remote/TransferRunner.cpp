#include "remote/TransferRunner.h"

#include <QDateTime>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

#include <algorithm>

namespace ts::remote {
namespace {

// A redirect's or an error's body is read and thrown away so the connection can be reused; one
// that goes on past this is not worth a connection.
constexpr std::uint64_t kMaxDiscard = 1u << 20;
constexpr int kMaxRetryAfterMs = 10000;
constexpr int kMaxBackoffMs = 4000;
constexpr int kFirstBackoffMs = 250;

bool sameHost(const QUrl& a, const QUrl& b)
{
    return a.scheme().compare(b.scheme(), Qt::CaseInsensitive) == 0 &&
           a.host().compare(b.host(), Qt::CaseInsensitive) == 0 && a.port(-1) == b.port(-1);
}

int retryAfterMs(const QByteArray& header)
{
    bool ok = false;
    const int seconds = header.trimmed().toInt(&ok);
    if (ok && seconds >= 0)
        return std::min(seconds * 1000, kMaxRetryAfterMs);
    const QDateTime when = QDateTime::fromString(QString::fromLatin1(header.trimmed()), Qt::RFC2822Date);
    if (!when.isValid())
        return 0;
    return static_cast<int>(
        std::clamp<qint64>(QDateTime::currentDateTimeUtc().msecsTo(when), 0, kMaxRetryAfterMs));
}

} // namespace

TransferRunner::TransferRunner(std::shared_ptr<Transfer> transfer, QNetworkAccessManager* manager,
                               RemoteSettings settings, TlsProvider tls,
                               std::function<void(const std::shared_ptr<Transfer>&)> onSuccess,
                               QObject* parent)
    : QObject(parent), m_transfer(std::move(transfer)), m_manager(manager), m_settings(std::move(settings)),
      m_tls(std::move(tls)), m_onSuccess(std::move(onSuccess))
{
    m_stall.setSingleShot(true);
    connect(&m_stall, &QTimer::timeout, this, &TransferRunner::onStalled);
    const Transfer::Request& r = m_transfer->request();
    m_url = r.target.isEmpty() ? r.origin : r.target;
    m_fromOrigin = m_url == r.origin;
    if (r.expected) {
        m_identity = *r.expected;
        m_haveIdentity = true;
    }
}

TransferRunner::~TransferRunner()
{
    dropReply();
    if (m_phase != Phase::Ended)
        m_transfer->finish(makeError(ErrorCode::Cancelled, m_transfer->request().shown,
                                     QStringLiteral("the network was shut down")));
}

std::uint64_t TransferRunner::wanted() const
{
    const Transfer::Request& r = m_transfer->request();
    if (r.mode == Transfer::Mode::Probe && m_haveIdentity)
        return m_probeLength;
    return r.length;
}

HttpFailure::Context TransferRunner::context() const
{
    HttpFailure::Context c;
    c.shown = m_transfer->request().shown;
    c.host = m_url.port() > 0 ? QStringLiteral("%1:%2").arg(m_url.host()).arg(m_url.port()) : m_url.host();
    c.tokenSent = m_tokenSent;
    c.tokenWithheld = !m_settings.token.isEmpty() && !m_tokenSent;
    c.attempts = m_attempt;
    return c;
}

void TransferRunner::start()
{
    send();
}

void TransferRunner::cancel()
{
    // Every byte already here: keep them (the cache wants them), it was only the end not yet seen.
    if (m_phase == Phase::Body && m_transfer->request().mode != Transfer::Mode::Whole &&
        m_received == wanted()) {
        succeed();
        return;
    }
    m_transfer->abandoned.cancel();
    if (m_phase != Phase::Ended)
        fail(makeError(ErrorCode::Cancelled, m_transfer->request().shown,
                       QStringLiteral("the read was cancelled")));
}

void TransferRunner::send()
{
    if (m_transfer->abandoned.isCancelled()) {
        fail(makeError(ErrorCode::Cancelled, m_transfer->request().shown,
                       QStringLiteral("the read was cancelled")));
        return;
    }
    const Transfer::Request& r = m_transfer->request();
    QNetworkRequest q(m_url);
    q.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    q.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    q.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
    if (m_url.scheme() == QLatin1String("https") && m_tls) {
        if (const QSslConfiguration tls = m_tls(); !tls.isNull())
            q.setSslConfiguration(tls);
    }
    q.setHeader(QNetworkRequest::UserAgentHeader, QByteArrayLiteral("Tensorscope/" TENSORSCOPE_VERSION));
    if (r.mode == Transfer::Mode::Whole) {
        m_received = 0; // a document is read again from its start
        m_requestFirst = 0;
    } else {
        // Byte offsets must be the file's: no content coding, whatever a CDN would like to do.
        q.setRawHeader("Accept-Encoding", "identity");
        m_requestFirst = r.begin + m_received;
        const std::uint64_t last = r.begin + wanted() - 1;
        q.setRawHeader("Range",
                       "bytes=" + QByteArray::number(m_requestFirst) + '-' + QByteArray::number(last));
    }
    // The token goes to the host the user opened, when it is one the token is meant for; never
    // along a redirect to another host (a CDN's signed URL needs none).
    m_tokenSent = m_settings.sendsTokenTo(m_url) && sameHost(m_url, r.origin);
    if (m_tokenSent)
        q.setRawHeader("Authorization", "Bearer " + m_settings.token.toUtf8());
    m_phase = Phase::Waiting;
    m_stalled = false;
    m_discarded = 0;
    m_sslErrors.clear();
    m_reply = m_manager->get(q);
    connect(m_reply, &QNetworkReply::metaDataChanged, this, &TransferRunner::onMetaData);
    connect(m_reply, &QNetworkReply::readyRead, this, &TransferRunner::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &TransferRunner::onFinished);
    connect(m_reply, &QNetworkReply::sslErrors, this,
            [this](const QList<QSslError>& errors) { m_sslErrors = errors; });
    m_stall.start(m_settings.stallTimeoutMs);
}

void TransferRunner::onMetaData()
{
    if (!m_reply || m_phase != Phase::Waiting)
        return;
    m_stall.start(m_settings.stallTimeoutMs);
    if (const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(); status > 0)
        acceptStatus(status);
}

bool TransferRunner::acceptStatus(int status)
{
    const Transfer::Request& r = m_transfer->request();
    QNetworkReply* reply = m_reply;
    if (status >= 300 && status < 400 && status != 304 &&
        reply->attribute(QNetworkRequest::RedirectionTargetAttribute).isValid()) {
        m_phase = Phase::Redirect;
        return true;
    }
    const RemoteIdentity seen{0, reply->rawHeader("ETag"), reply->rawHeader("Last-Modified")};
    if (r.mode == Transfer::Mode::Whole && status == 200) {
        const QVariant length = reply->header(QNetworkRequest::ContentLengthHeader);
        if (length.isValid() && length.toULongLong() > r.length) {
            fail(makeError(ErrorCode::LimitExceeded, r.shown,
                           QStringLiteral("the document is %1 bytes, more than the %2 read at most")
                               .arg(length.toULongLong())
                               .arg(r.length)));
            return false;
        }
        m_transfer->respond(seen, reply->url());
        m_phase = Phase::Body;
        return true;
    }
    if (r.mode != Transfer::Mode::Whole && status == 206) {
        const auto range = ContentRange::parse(reply->rawHeader("Content-Range"));
        if (!range || range->first != m_requestFirst) {
            fail(HttpFailure::malformed(
                QStringLiteral("it sent a different byte range than the one asked for"), context()));
            return false;
        }
        RemoteIdentity identity = seen;
        identity.size = range->total;
        if (!m_haveIdentity) {
            m_identity = identity;
            m_haveIdentity = true;
            m_probeLength = std::min(r.length, identity.size);
        } else if (const QByteArray what = m_identity.mismatch(identity); !what.isEmpty()) {
            fail(HttpFailure::changed(what, context()));
            return false;
        }
        if (range->last + 1 > r.begin + wanted()) {
            fail(HttpFailure::malformed(QStringLiteral("it sent more than the byte range asked for"),
                                        context()));
            return false;
        }
        m_transfer->respond(m_identity, reply->url());
        m_phase = Phase::Body;
        return true;
    }
    if (status == 200 && r.mode != Transfer::Mode::Whole) {
        const QVariant length = reply->header(QNetworkRequest::ContentLengthHeader);
        // A file smaller than the probe, sent whole by a server without ranges, is all there is.
        if (r.mode == Transfer::Mode::Probe && !m_haveIdentity && m_received == 0 && length.isValid() &&
            length.toULongLong() <= r.length) {
            m_identity = seen;
            m_identity.size = length.toULongLong();
            m_haveIdentity = true;
            m_probeLength = m_identity.size;
            m_transfer->respond(m_identity, reply->url());
            m_phase = Phase::Body;
            return true;
        }
        fail(HttpFailure::rangeIgnored(length.isValid() ? length.toLongLong() : -1, context()));
        return false;
    }
    if (status == 416 && r.mode == Transfer::Mode::Probe && !m_haveIdentity) {
        // "bytes */0": an empty file has no first byte to range over.
        if (const auto total = ContentRange::unsatisfiedTotal(reply->rawHeader("Content-Range"));
            total == 0u) {
            m_identity = seen;
            m_haveIdentity = true;
            m_probeLength = 0;
            m_transfer->respond(m_identity, reply->url());
            succeed();
            return false;
        }
    }
    if (!m_fromOrigin && (status == 401 || status == 403 || status == 404 || status == 410)) {
        // A remembered redirect target expired (signed CDN URLs do): ask the origin again.
        dropReply();
        m_url = r.origin;
        m_fromOrigin = true;
        m_redirects = 0;
        send();
        return false;
    }
    m_phase = Phase::Rejected;
    return true;
}

void TransferRunner::onReadyRead()
{
    if (!m_reply)
        return;
    m_stall.start(m_settings.stallTimeoutMs);
    if (m_phase == Phase::Waiting) {
        const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status > 0 && !acceptStatus(status))
            return;
    }
    const Transfer::Request& r = m_transfer->request();
    const qint64 available = m_reply->bytesAvailable();
    if (available <= 0)
        return;
    if (m_phase != Phase::Body) {
        m_discarded += static_cast<std::uint64_t>(m_reply->skip(available));
        if (m_discarded > kMaxDiscard)
            fail(HttpFailure::malformed(QStringLiteral("an error or redirect page that does not end"),
                                        context()));
        return;
    }
    if (r.mode == Transfer::Mode::Whole) {
        if (m_received + static_cast<std::uint64_t>(available) > r.length) {
            fail(makeError(
                ErrorCode::LimitExceeded, r.shown,
                QStringLiteral("the document is longer than the %1 bytes read at most").arg(r.length)));
            return;
        }
        m_transfer->resizeForDocument(m_received + static_cast<std::uint64_t>(available));
    } else if (static_cast<std::uint64_t>(available) > wanted() - m_received) {
        if (m_identity.size > r.length && r.mode == Transfer::Mode::Probe)
            fail(HttpFailure::rangeIgnored(-1, context()));
        else
            fail(HttpFailure::malformed(QStringLiteral("it sent more than the byte range asked for"),
                                        context()));
        return;
    }
    const qint64 n = m_reply->read(reinterpret_cast<char*>(m_transfer->writePointer(m_received)), available);
    if (n > 0) {
        m_received += static_cast<std::uint64_t>(n);
        m_transfer->arrived(m_received);
    }
}

void TransferRunner::onStalled()
{
    m_stalled = true;
    if (m_reply)
        m_reply->abort(); // finished follows, and retries
}

void TransferRunner::onFinished()
{
    QNetworkReply* reply = m_reply;
    if (!reply)
        return;
    if (m_phase == Phase::Waiting && !m_stalled) {
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status > 0 && !acceptStatus(status))
            return;
    }
    if (m_phase == Phase::Body && reply->bytesAvailable() > 0 && !m_stalled) {
        onReadyRead();
        if (m_phase == Phase::Ended)
            return;
    }
    m_stall.stop();
    const QNetworkReply::NetworkError error = reply->error();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QUrl redirect =
        reply->url().resolved(reply->attribute(QNetworkRequest::RedirectionTargetAttribute).toUrl());
    const QByteArray retryAfter = reply->rawHeader("Retry-After");
    const QString qtText = reply->errorString();
    disconnect(reply, nullptr, this, nullptr);
    reply->deleteLater();
    m_reply = nullptr;
    if (m_phase == Phase::Ended)
        return;
    const Transfer::Request& r = m_transfer->request();
    const bool complete = m_phase == Phase::Body && error == QNetworkReply::NoError &&
                          (r.mode == Transfer::Mode::Whole || m_received == wanted());
    if (m_transfer->abandoned.isCancelled() && !complete) {
        fail(makeError(ErrorCode::Cancelled, r.shown, QStringLiteral("the read was cancelled")));
        return;
    }
    if (m_stalled) {
        retryOrFail(HttpFailure::timedOut(m_settings.stallTimeoutMs, context()));
        return;
    }
    switch (m_phase) {
    case Phase::Redirect:
        if (++m_redirects > m_settings.maxRedirects) {
            fail(makeError(
                ErrorCode::NetworkError, r.shown,
                QStringLiteral("the server redirected more than %1 times").arg(m_settings.maxRedirects)));
            return;
        }
        if (redirect.scheme() != QLatin1String("https") && redirect.scheme() != QLatin1String("http")) {
            fail(HttpFailure::malformed(QStringLiteral("it redirects to a URL that is not http or https"),
                                        context()));
            return;
        }
        if (m_url.scheme() == QLatin1String("https") && redirect.scheme() == QLatin1String("http")) {
            fail(makeError(
                ErrorCode::TlsError, r.shown,
                QStringLiteral("the server redirects from https to plain http, which would send the "
                               "rest unencrypted; refused")));
            return;
        }
        m_url = redirect;
        send();
        return;
    case Phase::Rejected:
        if (HttpFailure::retryableStatus(status))
            retryOrFail(HttpFailure::fromStatus(status, context()), retryAfterMs(retryAfter));
        else
            fail(HttpFailure::fromStatus(status, context()));
        return;
    case Phase::Body:
        if (complete) {
            succeed();
            return;
        }
        if (error == QNetworkReply::NoError || HttpFailure::retryableNetwork(error)) {
            retryOrFail(makeError(
                ErrorCode::NetworkError, r.shown,
                QStringLiteral("the connection to %1 dropped after %2 of %3 bytes%4")
                    .arg(context().host)
                    .arg(m_received)
                    .arg(wanted())
                    .arg(m_attempt > 1 ? QStringLiteral(" (%1 attempts)").arg(m_attempt) : QString()),
                {}, r.begin + m_received));
            return;
        }
        fail(HttpFailure::fromNetwork(error, qtText, context()));
        return;
    default:
        break;
    }
    if (!m_sslErrors.isEmpty()) {
        fail(HttpFailure::tls(m_sslErrors, context()));
        return;
    }
    if (HttpFailure::retryableNetwork(error))
        retryOrFail(HttpFailure::fromNetwork(error, qtText, context()));
    else
        fail(HttpFailure::fromNetwork(error, qtText, context()));
}

void TransferRunner::retryOrFail(const Error& error, int retryAfter)
{
    if (m_attempt >= m_settings.attempts || m_transfer->abandoned.isCancelled()) {
        fail(error);
        return;
    }
    const int delay =
        retryAfter > 0 ? retryAfter : std::min(kMaxBackoffMs, kFirstBackoffMs << (m_attempt - 1));
    ++m_attempt;
    m_phase = Phase::Idle;
    QTimer::singleShot(delay, this, [this] {
        if (m_phase == Phase::Idle)
            send();
    });
}

void TransferRunner::succeed()
{
    m_phase = Phase::Ended;
    dropReply();
    if (m_onSuccess) // before finish(): a transfer seen done is already queued for the disk cache
        m_onSuccess(m_transfer);
    m_transfer->finish(std::nullopt);
    emit ended(this);
}

void TransferRunner::fail(const Error& error)
{
    m_phase = Phase::Ended;
    dropReply();
    m_transfer->finish(error);
    emit ended(this);
}

void TransferRunner::dropReply()
{
    m_stall.stop();
    if (!m_reply)
        return;
    QNetworkReply* reply = m_reply;
    m_reply = nullptr;
    disconnect(reply, nullptr, this, nullptr);
    reply->abort();
    reply->deleteLater();
}

} // namespace ts::remote
