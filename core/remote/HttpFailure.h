#pragma once

#include "base/Error.h"

#include <QList>
#include <QNetworkReply>
#include <QSslError>
#include <QString>

namespace ts::remote {

// The sentences a user reads when a server does not give the bytes. Each names the URL the user
// opened (never a redirect target: a CDN's signed URL is a credential) and never a token, and
// says what to do where there is something to do. Qt's own error strings embed the URL they
// failed on, so they are used only where they say something ours cannot.
namespace HttpFailure {

struct Context {
    QString shown;              // the URL as opened, without credentials
    QString host;               // "host:port" as the user would recognise it
    bool tokenSent = false;     // the request carried the access token
    bool tokenWithheld = false; // a token exists but is not sent to this host (RemoteSettings)
    int attempts = 1;
};

Error fromStatus(int status, const Context& context);
Error fromNetwork(QNetworkReply::NetworkError error, const QString& qtText, const Context& context);
Error tls(const QList<QSslError>& errors, const Context& context);
Error timedOut(int stallMs, const Context& context);
// A 200 with the whole file where a 206 with a range was asked for.
Error rangeIgnored(qint64 contentLength, const Context& context);
Error changed(const QByteArray& what, const Context& context);
Error malformed(const QString& what, const Context& context);

// 5xx, 408 and 429 go again after a pause; every other status is the answer.
bool retryableStatus(int status);
// A dropped, refused or reset connection goes again; a TLS failure or an unknown host does not.
bool retryableNetwork(QNetworkReply::NetworkError error);

} // namespace HttpFailure

} // namespace ts::remote
