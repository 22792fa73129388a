#pragma once

#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

namespace ts::test {

// scripted_server.py (beside this file) on 127.0.0.1 at a free port: the misbehaving server of
// the remote tests (dropped connections, no Range support, a file that changes, redirects,
// tokens, stalls; the script's docstring lists its paths). Its JSON request log says what the
// client sent: which ranges, whether a token came (never the token itself).
class ScriptedServer {
public:
    ScriptedServer() = default;
    ~ScriptedServer();
    ScriptedServer(const ScriptedServer&) = delete;
    ScriptedServer& operator=(const ScriptedServer&) = delete;

    // Serves the files in `root`; `/auth/` paths accept "Bearer <token>".
    bool start(const QString& root, const QString& token = {});
    const QString& error() const { return m_error; }
    quint16 port() const { return m_port; }
    QString url(const QString& path) const; // "http://127.0.0.1:PORT/" + path

    QList<QJsonObject> requests() const;
    QList<QJsonObject> waitForRequests(int n) const;

private:
    QTemporaryDir m_dir;
    QProcess m_process;
    quint16 m_port = 0;
    QString m_error;
};

} // namespace ts::test
