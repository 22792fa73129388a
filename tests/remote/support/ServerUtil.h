#pragma once

#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QString>

namespace ts::test {

// A port on 127.0.0.1 nobody listens on right now.
quint16 freeLoopbackPort();
// Until `port` accepts a connection or `process` ended or `ms` passed.
bool waitForListening(quint16 port, const QProcess& process, int ms);
QList<QJsonObject> readJsonLines(const QString& path);
// Reads `path` until it has at least `n` lines, for up to 5 s (a server logs after it answers).
QList<QJsonObject> waitForJsonLines(const QString& path, int n);

} // namespace ts::test
