#pragma once

#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace ts::test {

// nginx from Debian, run as the test's own user with a generated configuration in a temporary
// folder (never the system service), serving `root` on 127.0.0.1 at a free port: Range support,
// ETag and Last-Modified as a real file server sends them. Every request lands in an access log
// as JSON (uri, status, bytes sent, body bytes, range), which tests read to count what moved.
// With `tls`, it serves https with a certificate made for the test (TestCertificates).
class NginxServer {
public:
    struct Options {
        QString root;     // the folder served
        bool tls = false; // https with certFile/keyFile
        QString certFile;
        QString keyFile;
        // Lines added to the server block, with PORT replaced by the port ("location /a/ {...}").
        QString extra;
    };

    NginxServer() = default;
    ~NginxServer(); // stops it
    NginxServer(const NginxServer&) = delete;
    NginxServer& operator=(const NginxServer&) = delete;

    // Starts and waits until it accepts connections. On failure, error() says why.
    bool start(const Options& options);
    const QString& error() const { return m_error; }
    quint16 port() const { return m_port; }
    QString url(const QString& path) const; // "http://127.0.0.1:PORT/" + path

    // The access log so far, one object per request.
    QList<QJsonObject> requests() const;
    // Waits (up to 5 s) until the log has at least `n` lines: nginx writes a line after the
    // response, so a client can see its answer before the line exists.
    QList<QJsonObject> waitForRequests(int n) const;
    void clearLog();

private:
    bool startOnce(const Options& options);

    std::unique_ptr<QTemporaryDir> m_dir;
    QProcess m_process;
    quint16 m_port = 0;
    bool m_tls = false;
    QString m_error;
};

} // namespace ts::test
