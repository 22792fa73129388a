#include "ServerUtil.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QHostAddress>
#include <QJsonDocument>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

namespace ts::test {

quint16 freeLoopbackPort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

bool waitForListening(quint16 port, const QProcess& process, int ms)
{
    QDeadlineTimer deadline(ms);
    while (!deadline.hasExpired() && process.state() == QProcess::Running) {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, port);
        if (socket.waitForConnected(200))
            return true;
        // Refused at once: the server is not there yet. A short pause before asking again
        // (the condition waited for is the connection, not the time).
        QThread::msleep(20);
    }
    return false;
}

QList<QJsonObject> readJsonLines(const QString& path)
{
    QList<QJsonObject> lines;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return lines;
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (!line.trimmed().isEmpty())
            lines << QJsonDocument::fromJson(line).object();
    }
    return lines;
}

QList<QJsonObject> waitForJsonLines(const QString& path, int n)
{
    QDeadlineTimer deadline(5000 * qMax(1, qEnvironmentVariableIntValue("TS_TIMEOUT_SCALE")));
    QList<QJsonObject> lines = readJsonLines(path);
    while (lines.size() < n && !deadline.hasExpired()) {
        QThread::msleep(10);
        lines = readJsonLines(path);
    }
    return lines;
}

} // namespace ts::test
