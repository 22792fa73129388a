#include "NginxServer.h"

#include "ServerUtil.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTextStream>
#include <QThread>

namespace ts::test {

NginxServer::~NginxServer()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.terminate();
        if (!m_process.waitForFinished(5000)) {
            m_process.kill();
            m_process.waitForFinished(2000);
        }
    }
}

bool NginxServer::start(const Options& options)
{
    // The free port is chosen before nginx binds it; a parallel test may take it in between, so
    // a failed bind is tried again on another port.
    for (int attempt = 0; attempt < 5; ++attempt) {
        if (startOnce(options))
            return true;
    }
    return false;
}

bool NginxServer::startOnce(const Options& options)
{
    const QString nginx = QStandardPaths::findExecutable(
        QStringLiteral("nginx"), {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")});
    if (nginx.isEmpty()) {
        m_error = QStringLiteral("nginx is not installed (installer/install-deps.sh installs it)");
        return false;
    }
    m_dir = std::make_unique<QTemporaryDir>();
    m_port = freeLoopbackPort();
    m_tls = options.tls;
    const QString d = m_dir->path();
    QFile conf(d + QStringLiteral("/nginx.conf"));
    if (!conf.open(QIODevice::WriteOnly)) {
        m_error = QStringLiteral("cannot write the nginx configuration");
        return false;
    }
    QTextStream out(&conf);
    // master_process off: one process, as the test's user, which the test stops by its pid.
    out << "daemon off;\nmaster_process off;\nworker_processes 1;\n"
        << "pid " << d << "/nginx.pid;\nerror_log " << d << "/error.log;\n"
        << "events { worker_connections 512; }\n"
        << "http {\n  default_type application/octet-stream;\n"
        << "  log_format ts escape=json '{\"uri\":\"$request_uri\",\"status\":$status,\"bytes\":$bytes_sent,"
           "\"body\":$body_bytes_sent,\"range\":\"$http_range\"}';\n"
        << "  access_log " << d << "/access.log ts;\n"
        << "  sendfile on;\n  keepalive_requests 100000;\n"
        << "  client_body_temp_path " << d << "/tmp; proxy_temp_path " << d << "/tmp;\n"
        << "  fastcgi_temp_path " << d << "/tmp; uwsgi_temp_path " << d << "/tmp; scgi_temp_path " << d
        << "/tmp;\n"
        << "  server {\n    listen 127.0.0.1:" << m_port << (m_tls ? " ssl" : "") << ";\n";
    if (m_tls)
        out << "    ssl_certificate " << options.certFile << ";\n    ssl_certificate_key " << options.keyFile
            << ";\n";
    out << "    root " << options.root << ";\n";
    QString extra = options.extra;
    out << extra.replace(QStringLiteral("PORT"), QString::number(m_port)) << "\n  }\n}\n";
    out.flush();
    conf.close();
    m_process.setProcessChannelMode(QProcess::MergedChannels);
    m_process.start(nginx, {QStringLiteral("-p"), d, QStringLiteral("-c"), d + QStringLiteral("/nginx.conf"),
                            QStringLiteral("-e"), d + QStringLiteral("/error.log")});
    if (!m_process.waitForStarted(5000)) {
        m_error = QStringLiteral("nginx did not start: ") + m_process.errorString();
        return false;
    }
    if (!waitForListening(m_port, m_process, 10000)) {
        QFile log(d + QStringLiteral("/error.log"));
        log.open(QIODevice::ReadOnly);
        m_error = QStringLiteral("nginx did not listen on port %1: %2")
                      .arg(m_port)
                      .arg(QString::fromUtf8(m_process.readAll() + log.readAll()));
        m_process.kill();
        m_process.waitForFinished(2000);
        return false;
    }
    return true;
}

QString NginxServer::url(const QString& path) const
{
    return QStringLiteral("%1://127.0.0.1:%2/%3")
        .arg(m_tls ? QStringLiteral("https") : QStringLiteral("http"))
        .arg(m_port)
        .arg(path);
}

QList<QJsonObject> NginxServer::requests() const
{
    return readJsonLines(m_dir->path() + QStringLiteral("/access.log"));
}

QList<QJsonObject> NginxServer::waitForRequests(int n) const
{
    return waitForJsonLines(m_dir->path() + QStringLiteral("/access.log"), n);
}

void NginxServer::clearLog()
{
    // nginx keeps the log open and appends: truncating it in place keeps that working.
    QFile log(m_dir->path() + QStringLiteral("/access.log"));
    if (log.exists())
        log.resize(0);
}

} // namespace ts::test
