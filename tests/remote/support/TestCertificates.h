#pragma once

#include <QString>
#include <QTemporaryDir>

namespace ts::test {

// A certificate authority and a server certificate for 127.0.0.1 signed by it, made with the
// openssl command at test time (nothing secret is committed): an https nginx with `server` is
// untrusted by default (the TLS error test), and trusted when the client is given `caFile`
// (SSL_CERT_FILE, as curl and Python read it).
struct TestCertificates {
    QTemporaryDir dir;
    QString caFile;
    QString certFile;
    QString keyFile;
    QString error;

    bool make();
};

} // namespace ts::test
