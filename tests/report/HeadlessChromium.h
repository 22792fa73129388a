#pragma once

#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

#include <functional>
#include <map>
#include <memory>

class QSocketNotifier;

// Debian's chromium, headless, driven over the DevTools protocol through --remote-debugging-pipe
// (JSON messages separated by NUL on file descriptors 3 and 4: no port, no WebSocket). A page is
// loaded and everything it does is recorded: every request it makes (Network.requestWillBeSent),
// every console error and uncaught exception, every browser log entry of level error (a refused
// load, a CSP violation). Started with a fresh profile and the switches that keep the browser
// itself from going online, so that any request seen is the page's.
class HeadlessChromium final : public QObject {
    Q_OBJECT
public:
    struct PageLoad {
        bool loaded = false;       // Page.loadEventFired arrived
        QStringList requests;      // every URL requested, the page's own first
        QStringList consoleErrors; // console.error/assert, exceptions, error-level log entries
        QJsonObject evaluated;     // the result of the expression evaluated after the load
    };

    HeadlessChromium();
    ~HeadlessChromium() override;

    static QString executable(); // empty when chromium is not installed
    // Starts the browser and attaches to a blank page; false (and error()) on failure.
    bool start(int timeoutMs);
    // Loads `url`, waits for its load event, then evaluates `expression` (its value comes back
    // by value) and makes one more round trip: the browser delivers the events a page caused
    // before the replies to later commands, so what the page did as it loaded is all recorded.
    PageLoad load(const QString& url, const QString& expression, int timeoutMs);
    QString error() const { return m_error; }

private:
    int send(const QString& method, const QJsonObject& params = {}, bool session = true);
    QJsonObject waitForReply(int id, int timeoutMs);
    bool waitFor(const std::function<bool()>& done, int timeoutMs);
    void readMessages();
    void handle(const QJsonObject& message);

    QTemporaryDir m_profile;
    QProcess m_process;
    int m_toBrowser = -1;
    int m_fromBrowser = -1;
    QSocketNotifier* m_notifier = nullptr;
    QByteArray m_buffer;
    int m_nextId = 1;
    QString m_session;
    QString m_error;
    std::map<int, QJsonObject> m_replies;
    PageLoad* m_current = nullptr;
};
