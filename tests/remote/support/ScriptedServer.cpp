#include "ScriptedServer.h"

#include "ServerUtil.h"

#include <QStandardPaths>

namespace ts::test {

ScriptedServer::~ScriptedServer()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.closeWriteChannel(); // the script ends when its stdin closes
        if (!m_process.waitForFinished(3000)) {
            m_process.kill();
            m_process.waitForFinished(2000);
        }
    }
}

bool ScriptedServer::start(const QString& root, const QString& token)
{
    const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    if (python.isEmpty()) {
        m_error = QStringLiteral("python3 is not installed");
        return false;
    }
    QStringList args{QStringLiteral(TS_SCRIPTED_SERVER), root, QStringLiteral("--log"),
                     m_dir.filePath(QStringLiteral("requests.jsonl"))};
    if (!token.isEmpty())
        args << QStringLiteral("--token") << token;
    m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_process.start(python, args);
    if (!m_process.waitForStarted(5000)) {
        m_error = QStringLiteral("python3 did not start: ") + m_process.errorString();
        return false;
    }
    // The script binds port 0 and says which port it got: no race with parallel tests.
    while (!m_process.canReadLine()) {
        if (!m_process.waitForReadyRead(10000)) {
            m_error = QStringLiteral("the scripted server did not report its port");
            return false;
        }
    }
    const QByteArray line = m_process.readLine().trimmed();
    if (!line.startsWith("PORT ")) {
        m_error = QStringLiteral("the scripted server said: ") + QString::fromUtf8(line);
        return false;
    }
    m_port = static_cast<quint16>(line.mid(5).toUInt());
    return m_port != 0;
}

QString ScriptedServer::url(const QString& path) const
{
    return QStringLiteral("http://127.0.0.1:%1/%2").arg(m_port).arg(path);
}

QList<QJsonObject> ScriptedServer::requests() const
{
    return readJsonLines(m_dir.filePath(QStringLiteral("requests.jsonl")));
}

QList<QJsonObject> ScriptedServer::waitForRequests(int n) const
{
    return waitForJsonLines(m_dir.filePath(QStringLiteral("requests.jsonl")), n);
}

} // namespace ts::test
