#pragma once

#include <QObject>
#include <QStringList>

class QLocalServer;

namespace ts::ui {

// One window per user session: a second `tensorscope FILE` hands FILE to the running instance
// (which opens it as a tab) and exits. That is what double-clicking several files in a file
// manager should do. A local socket, not D-Bus, so it works the same on every desktop and in tests.
class SingleInstance final : public QObject {
    Q_OBJECT
public:
    // `key` distinguishes independent groups of instances (tests use their own).
    explicit SingleInstance(QString key, QObject* parent = nullptr);
    ~SingleInstance() override;

    // Sends the paths (made absolute) to a running instance. True when one took them.
    bool forwardToRunningInstance(const QStringList& paths, int timeoutMs = 3000);
    // Becomes the running instance; false when the socket cannot be created.
    bool listen();

    QString serverName() const { return m_serverName; }

Q_SIGNALS:
    // Paths another launch asked this instance to open.
    void openRequested(const QStringList& paths);

private:
    void acceptConnection();

    QString m_serverName;
    QLocalServer* m_server = nullptr;
};

} // namespace ts::ui
