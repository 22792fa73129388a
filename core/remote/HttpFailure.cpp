#include "remote/HttpFailure.h"

#include <QStringList>

namespace ts::remote {
namespace {

QString attemptsNote(const HttpFailure::Context& c)
{
    return c.attempts > 1 ? QStringLiteral(" (%1 attempts)").arg(c.attempts) : QString();
}

} // namespace

bool HttpFailure::retryableStatus(int status)
{
    return status == 408 || status == 429 ||
           (status >= 500 && status <= 599 && status != 501 && status != 505);
}

bool HttpFailure::retryableNetwork(QNetworkReply::NetworkError error)
{
    switch (error) {
    case QNetworkReply::ConnectionRefusedError:
    case QNetworkReply::RemoteHostClosedError:
    case QNetworkReply::TimeoutError:
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::NetworkSessionFailedError:
    case QNetworkReply::ProxyConnectionClosedError:
    case QNetworkReply::ProxyTimeoutError:
    case QNetworkReply::UnknownNetworkError:
    case QNetworkReply::UnknownServerError:
    case QNetworkReply::InternalServerError:
    case QNetworkReply::ServiceUnavailableError:
        return true;
    default:
        return false;
    }
}

Error HttpFailure::fromStatus(int status, const Context& c)
{
    switch (status) {
    case 401: {
        QString why;
        if (c.tokenSent)
            why = QStringLiteral("the server did not accept the access token (HTTP 401): check that it is "
                                 "valid and not expired");
        else if (c.tokenWithheld)
            why =
                QStringLiteral("the server asks for an access token (HTTP 401), and the one set up is only "
                               "sent to the hosts listed in Preferences (or TENSORSCOPE_TOKEN_HOSTS); add %1 "
                               "there if the token is meant for it")
                    .arg(c.host);
        else
            why = QStringLiteral("the server asks for an access token (HTTP 401): set HF_TOKEN or enter a "
                                 "token in Preferences");
        return makeError(ErrorCode::AccessDenied, c.shown, why);
    }
    case 403:
        return makeError(ErrorCode::AccessDenied, c.shown,
                         c.tokenSent
                             ? QStringLiteral("the server refuses access with this token (HTTP 403): "
                                              "it may lack the rights to this repository, or a gated "
                                              "model's terms were not accepted")
                             : QStringLiteral("the server refuses access (HTTP 403); a private or gated "
                                              "model needs an access token (HF_TOKEN or Preferences)"));
    case 404:
    case 410:
        return makeError(ErrorCode::NotFound, c.shown,
                         QStringLiteral("the server has no file at this URL (HTTP %1)").arg(status));
    case 416:
        return makeError(ErrorCode::FileChanged, c.shown,
                         QStringLiteral("the server refused the byte range (HTTP 416): the file is shorter "
                                        "than when it was opened"));
    default:
        break;
    }
    if (status >= 500)
        return makeError(ErrorCode::NetworkError, c.shown,
                         QStringLiteral("the server failed with HTTP %1%2").arg(status).arg(attemptsNote(c)));
    return makeError(ErrorCode::NetworkError, c.shown,
                     QStringLiteral("the server answered HTTP %1 instead of the file").arg(status));
}

Error HttpFailure::fromNetwork(QNetworkReply::NetworkError error, const QString& qtText, const Context& c)
{
    switch (error) {
    case QNetworkReply::ConnectionRefusedError:
        return makeError(ErrorCode::NetworkError, c.shown,
                         QStringLiteral("cannot connect to %1: the connection was refused%2")
                             .arg(c.host, attemptsNote(c)));
    case QNetworkReply::HostNotFoundError:
        return makeError(
            ErrorCode::NetworkError, c.shown,
            QStringLiteral("the host %1 was not found (check the URL and the network)").arg(c.host));
    case QNetworkReply::RemoteHostClosedError:
        return makeError(ErrorCode::NetworkError, c.shown,
                         QStringLiteral("%1 closed the connection before the bytes arrived%2")
                             .arg(c.host, attemptsNote(c)));
    case QNetworkReply::SslHandshakeFailedError:
        return makeError(ErrorCode::TlsError, c.shown,
                         QStringLiteral("the TLS handshake with %1 failed").arg(c.host));
    case QNetworkReply::ProxyConnectionRefusedError:
    case QNetworkReply::ProxyNotFoundError:
    case QNetworkReply::ProxyConnectionClosedError:
    case QNetworkReply::ProxyTimeoutError:
    case QNetworkReply::ProxyAuthenticationRequiredError:
        return makeError(ErrorCode::NetworkError, c.shown,
                         QStringLiteral("the proxy (from https_proxy, http_proxy or all_proxy) failed: %1%2")
                             .arg(qtText, attemptsNote(c)));
    default:
        break;
    }
    // Qt's text for the rest ("Network access is disabled", "Temporary network failure") names no URL.
    return makeError(
        ErrorCode::NetworkError, c.shown,
        QStringLiteral("the transfer from %1 failed: %2%3").arg(c.host, qtText, attemptsNote(c)));
}

Error HttpFailure::tls(const QList<QSslError>& errors, const Context& c)
{
    QStringList reasons;
    for (const QSslError& e : errors) {
        if (!reasons.contains(e.errorString()))
            reasons << e.errorString();
    }
    return makeError(
        ErrorCode::TlsError, c.shown,
        QStringLiteral("the TLS connection to %1 is not trusted (%2); nothing was read. A server "
                       "certified by an organisation's own authority is trusted when SSL_CERT_FILE "
                       "names that authority's certificate")
            .arg(c.host, reasons.join(QStringLiteral("; "))));
}

Error HttpFailure::timedOut(int stallMs, const Context& c)
{
    return makeError(ErrorCode::TimedOut, c.shown,
                     QStringLiteral("%1 sent nothing for %2 s%3; the server or the network is stalled")
                         .arg(c.host)
                         .arg(stallMs / 1000.0, 0, 'g', 3)
                         .arg(attemptsNote(c)));
}

Error HttpFailure::rangeIgnored(qint64 contentLength, const Context& c)
{
    const QString size = contentLength >= 0 ? QStringLiteral(" of %1 bytes").arg(contentLength) : QString();
    return makeError(ErrorCode::RangeNotSupported, c.shown,
                     QStringLiteral("the server does not support byte ranges: asked for part of the file, it "
                                    "sent the whole file%1 (HTTP 200, not 206); download the file and open "
                                    "it locally")
                         .arg(size));
}

Error HttpFailure::changed(const QByteArray& what, const Context& c)
{
    return makeError(ErrorCode::FileChanged, c.shown,
                     QStringLiteral("the file changed on the server while it was being read (%1); reopen it "
                                    "to read the new file")
                         .arg(QString::fromLatin1(what)));
}

Error HttpFailure::malformed(const QString& what, const Context& c)
{
    return makeError(ErrorCode::NetworkError, c.shown,
                     QStringLiteral("the server's answer is unusable: ") + what);
}

} // namespace ts::remote
