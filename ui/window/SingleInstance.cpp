#include "window/SingleInstance.h"

#include "io/RemoteLocation.h"

#include "window/PrivateSocketDir.h"

#include <QDataStream>
#include <QDir>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>

#include <unistd.h>

namespace ts::ui {
namespace {

// Bounded: a stray client must not make the instance buffer without limit.
constexpr qint64 kMaxMessage = 1 << 20;

// A peer of another uid is refused: the folder should make that impossible, so it means
// someone got round it.
bool isOurs(const QLocalSocket& socket)
{
    const std::optional<uid_t> uid = peerUid(socket.socketDescriptor());
    if (uid == ::geteuid())
        return true;
    qWarning("tensorscope: %s: the other end belongs to uid %s, not us; ignored",
             qPrintable(socket.serverName()), uid ? qPrintable(QString::number(*uid)) : "(unknown)");
    return false;
}

} // namespace

SingleInstance::SingleInstance(QString key, QObject* parent) : QObject(parent)
{
    const Result<QString> dir = privateSocketDir();
    if (dir)
        m_serverName = QDir(dir.value()).filePath(key);
    else
        qWarning("tensorscope: no single-instance socket, each launch opens a window: %s",
                 qPrintable(dir.error().message));
}

SingleInstance::~SingleInstance() = default;

bool SingleInstance::forwardToRunningInstance(const QStringList& paths, const LaunchActivation& launch,
                                              int timeoutMs)
{
    if (!isAvailable())
        return false;
    QLocalSocket socket;
    socket.connectToServer(m_serverName);
    if (!socket.waitForConnected(timeoutMs))
        return false;
    if (!isOurs(socket)) {
        socket.abort();
        return false;
    }
    QStringList absolute;
    for (const QString& p : paths) // a URL is already absolute
        absolute << (RemoteLocation::isRemote(p) ? p : QFileInfo(p).absoluteFilePath());
    QByteArray message;
    {
        QDataStream stream(&message, QIODevice::WriteOnly);
        // The ids follow the paths: an instance of an older version reads the paths and stops.
        stream << absolute << launch.startupId << launch.activationToken;
    }
    QByteArray framed;
    {
        QDataStream stream(&framed, QIODevice::WriteOnly);
        stream << static_cast<quint32>(message.size());
    }
    socket.write(framed + message);
    if (!socket.waitForBytesWritten(timeoutMs))
        return false;
    // The instance answers once it has the list: only then may this process exit.
    if (!socket.waitForReadyRead(timeoutMs))
        return false;
    return socket.read(2) == "ok";
}

bool SingleInstance::listen()
{
    if (!isAvailable())
        return false;
    m_server = new QLocalServer(this);
    m_server->setSocketOptions(QLocalServer::UserAccessOption);
    if (!m_server->listen(m_serverName)) {
        // A socket file left by a crashed instance: nobody answered forwardToRunningInstance().
        QLocalServer::removeServer(m_serverName);
        if (!m_server->listen(m_serverName))
            return false;
    }
    connect(m_server, &QLocalServer::newConnection, this, &SingleInstance::acceptConnection);
    return true;
}

void SingleInstance::acceptConnection()
{
    while (QLocalSocket* socket = m_server->nextPendingConnection()) {
        if (!isOurs(*socket)) {
            socket->abort();
            socket->deleteLater();
            continue;
        }
        connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QLocalSocket::readyRead, this, [this, socket] {
            if (socket->bytesAvailable() < 4)
                return;
            quint32 size = 0;
            {
                QDataStream stream(socket->peek(4));
                stream >> size;
            }
            if (size > kMaxMessage) {
                socket->abort();
                return;
            }
            if (socket->bytesAvailable() < 4 + static_cast<qint64>(size))
                return;
            socket->read(4);
            QStringList paths;
            LaunchActivation launch;
            {
                QDataStream stream(socket->read(size));
                stream >> paths;
                if (!stream.atEnd())
                    stream >> launch.startupId >> launch.activationToken;
                if (stream.status() != QDataStream::Ok)
                    launch = {}; // a message of an older version, or a truncated one
            }
            socket->write("ok");
            socket->flush();
            Q_EMIT openRequested(paths, launch); // no paths: just bring the window forward
        });
    }
}

} // namespace ts::ui
