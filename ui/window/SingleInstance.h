#pragma once

#include "window/LaunchActivation.h"

#include <QObject>
#include <QStringList>

class QLocalServer;

namespace ts::ui {

// One window per user session: a second `tensorscope FILE` hands FILE to the running instance
// (which opens it as a tab) and exits. That is what double-clicking several files in a file
// manager should do. A local socket, not D-Bus, so it works the same on every desktop and in tests.
//
// The socket lives in a folder only this user can write (PrivateSocketDir), and each end checks
// the other's uid before trusting it: a socket another user put in our way must neither receive
// our paths nor keep our window from opening. Without a private folder there is no hand-off, and
// every launch opens its own window.
class SingleInstance final : public QObject {
    Q_OBJECT
public:
    // `key` distinguishes independent groups of instances (tests use their own); it names the
    // socket in the private folder.
    explicit SingleInstance(QString key, QObject* parent = nullptr);
    ~SingleInstance() override;

    // Sends the paths (made absolute) to a running instance of this user, with this launch's
    // startup id and activation token so that its window may come forward. True when one took them.
    bool forwardToRunningInstance(const QStringList& paths, const LaunchActivation& launch,
                                  int timeoutMs = 3000);
    bool forwardToRunningInstance(const QStringList& paths, int timeoutMs = 3000)
    {
        return forwardToRunningInstance(paths, LaunchActivation{}, timeoutMs);
    }
    // Becomes the running instance; false when the socket cannot be created.
    bool listen();

    // The socket's full path; empty when there is no private folder for it.
    QString serverName() const { return m_serverName; }
    bool isAvailable() const { return !m_serverName.isEmpty(); }

Q_SIGNALS:
    // Paths another launch asked this instance to open, and what its launcher gave it to raise
    // a window with (LaunchActivation::raise).
    void openRequested(const QStringList& paths, const ts::ui::LaunchActivation& launch);

private:
    void acceptConnection();

    QString m_serverName;
    QLocalServer* m_server = nullptr;
};

} // namespace ts::ui
