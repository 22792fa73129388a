#include "HeadlessChromium.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSocketNotifier>
#include <QStandardPaths>
#include <QTimer>

#include <fcntl.h>
#include <unistd.h>

#include <map>

namespace {

// File descriptors above anything the test or Qt has open, so the child's dup2 onto 3 and 4
// cannot close one of them.
int highFd(int fd)
{
    const int high = ::fcntl(fd, F_DUPFD_CLOEXEC, 100);
    ::close(fd);
    return high;
}

} // namespace

HeadlessChromium::HeadlessChromium() = default;

HeadlessChromium::~HeadlessChromium()
{
    if (m_process.state() != QProcess::NotRunning) {
        send(QStringLiteral("Browser.close"), {}, false);
        if (!m_process.waitForFinished(5000)) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }
    delete m_notifier;
    if (m_toBrowser >= 0)
        ::close(m_toBrowser);
    if (m_fromBrowser >= 0)
        ::close(m_fromBrowser);
}

QString HeadlessChromium::executable()
{
    for (const char* name : {"chromium", "chromium-browser"}) {
        const QString path = QStandardPaths::findExecutable(QLatin1String(name));
        if (!path.isEmpty())
            return path;
    }
    return {};
}

bool HeadlessChromium::start(int timeoutMs)
{
    int toBrowser[2], fromBrowser[2];
    if (::pipe(toBrowser) != 0 || ::pipe(fromBrowser) != 0) {
        m_error = QStringLiteral("pipe() failed");
        return false;
    }
    const int childIn = highFd(toBrowser[0]);
    const int childOut = highFd(fromBrowser[1]);
    m_toBrowser = highFd(toBrowser[1]);
    m_fromBrowser = highFd(fromBrowser[0]);
    ::fcntl(m_fromBrowser, F_SETFL, ::fcntl(m_fromBrowser, F_GETFL) | O_NONBLOCK);
    m_process.setChildProcessModifier([childIn, childOut] {
        // In the child, between fork and exec: the protocol's ends on 3 (commands) and 4 (replies).
        ::dup2(childIn, 3);
        ::dup2(childOut, 4);
    });
    // The browser's own log (D-Bus complaints of a machine without a session bus) goes to a file
    // beside its profile; what the page does comes over the protocol.
    m_process.setStandardOutputFile(QProcess::nullDevice());
    m_process.setStandardErrorFile(m_profile.filePath(QStringLiteral("chromium.log")));
    m_process.start(executable(),
                    {QStringLiteral("--headless"), QStringLiteral("--no-sandbox"),
                     QStringLiteral("--disable-gpu"), QStringLiteral("--disable-background-networking"),
                     QStringLiteral("--disable-component-update"), QStringLiteral("--disable-sync"),
                     QStringLiteral("--no-first-run"), QStringLiteral("--disable-default-apps"),
                     QStringLiteral("--disable-extensions"), QStringLiteral("--disable-dev-shm-usage"),
                     QStringLiteral("--remote-debugging-pipe"),
                     QStringLiteral("--user-data-dir=") + m_profile.path(), QStringLiteral("about:blank")});
    ::close(childIn);
    ::close(childOut);
    if (!m_process.waitForStarted(timeoutMs)) {
        m_error = QStringLiteral("chromium did not start: ") + m_process.errorString();
        return false;
    }
    m_notifier = new QSocketNotifier(m_fromBrowser, QSocketNotifier::Read);
    connect(m_notifier, &QSocketNotifier::activated, this, &HeadlessChromium::readMessages);

    const QJsonObject created =
        waitForReply(send(QStringLiteral("Target.createTarget"),
                          {{QStringLiteral("url"), QStringLiteral("about:blank")}}, false),
                     timeoutMs);
    const QString target =
        created.value(QLatin1String("result")).toObject().value(QLatin1String("targetId")).toString();
    if (target.isEmpty()) {
        m_error = QStringLiteral("no page target: ") + QString::fromUtf8(QJsonDocument(created).toJson());
        return false;
    }
    const QJsonObject attached =
        waitForReply(send(QStringLiteral("Target.attachToTarget"),
                          {{QStringLiteral("targetId"), target}, {QStringLiteral("flatten"), true}}, false),
                     timeoutMs);
    m_session =
        attached.value(QLatin1String("result")).toObject().value(QLatin1String("sessionId")).toString();
    if (m_session.isEmpty()) {
        m_error = QStringLiteral("could not attach to the page");
        return false;
    }
    for (const char* domain : {"Runtime.enable", "Log.enable", "Network.enable", "Page.enable"}) {
        if (waitForReply(send(QLatin1String(domain)), timeoutMs).contains(QLatin1String("error"))) {
            m_error = QStringLiteral("%1 failed").arg(QLatin1String(domain));
            return false;
        }
    }
    return true;
}

int HeadlessChromium::send(const QString& method, const QJsonObject& params, bool session)
{
    const int id = m_nextId++;
    QJsonObject message{
        {QStringLiteral("id"), id}, {QStringLiteral("method"), method}, {QStringLiteral("params"), params}};
    if (session && !m_session.isEmpty())
        message.insert(QStringLiteral("sessionId"), m_session);
    QByteArray bytes = QJsonDocument(message).toJson(QJsonDocument::Compact);
    bytes.append('\0');
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t n =
            ::write(m_toBrowser, bytes.constData() + done, static_cast<size_t>(bytes.size() - done));
        if (n <= 0)
            break;
        done += n;
    }
    return id;
}

bool HeadlessChromium::waitFor(const std::function<bool()>& done, int timeoutMs)
{
    // Woken by each message the browser sends (readMessages) or by the deadline, never polled.
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        const qint64 left = timeoutMs - clock.elapsed();
        if (left <= 0 || m_process.state() == QProcess::NotRunning)
            return done();
        QEventLoop loop;
        QTimer deadline;
        deadline.setSingleShot(true);
        connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
        connect(m_notifier, &QSocketNotifier::activated, &loop, &QEventLoop::quit, Qt::QueuedConnection);
        connect(&m_process, &QProcess::finished, &loop, &QEventLoop::quit);
        deadline.start(static_cast<int>(left));
        loop.exec();
    }
    return true;
}

QJsonObject HeadlessChromium::waitForReply(int id, int timeoutMs)
{
    waitFor([&] { return m_replies.count(id) > 0; }, timeoutMs);
    const auto it = m_replies.find(id);
    return it == m_replies.end() ? QJsonObject() : it->second;
}

void HeadlessChromium::readMessages()
{
    char chunk[65536];
    for (;;) {
        const ssize_t n = ::read(m_fromBrowser, chunk, sizeof chunk);
        if (n <= 0)
            break;
        m_buffer.append(chunk, n);
    }
    for (qsizetype end = m_buffer.indexOf('\0'); end >= 0; end = m_buffer.indexOf('\0')) {
        const QJsonObject message = QJsonDocument::fromJson(m_buffer.left(end)).object();
        m_buffer.remove(0, end + 1);
        handle(message);
    }
}

void HeadlessChromium::handle(const QJsonObject& message)
{
    if (message.contains(QLatin1String("id"))) {
        m_replies[message.value(QLatin1String("id")).toInt()] = message;
        return;
    }
    if (!m_current)
        return;
    const QString method = message.value(QLatin1String("method")).toString();
    const QJsonObject params = message.value(QLatin1String("params")).toObject();
    if (method == QLatin1String("Network.requestWillBeSent")) {
        m_current->requests
            << params.value(QLatin1String("request")).toObject().value(QLatin1String("url")).toString();
    } else if (method == QLatin1String("Page.loadEventFired")) {
        m_current->loaded = true;
    } else if (method == QLatin1String("Runtime.consoleAPICalled")) {
        const QString type = params.value(QLatin1String("type")).toString();
        if (type == QLatin1String("error") || type == QLatin1String("assert")) {
            QStringList args;
            for (const QJsonValue& a : params.value(QLatin1String("args")).toArray())
                args << a.toObject().value(QLatin1String("value")).toVariant().toString();
            m_current->consoleErrors
                << QStringLiteral("console.%1: %2").arg(type, args.join(QLatin1Char(' ')));
        }
    } else if (method == QLatin1String("Runtime.exceptionThrown")) {
        m_current->consoleErrors << QStringLiteral("exception: ") +
                                        params.value(QLatin1String("exceptionDetails"))
                                            .toObject()
                                            .value(QLatin1String("text"))
                                            .toString();
    } else if (method == QLatin1String("Log.entryAdded")) {
        const QJsonObject entry = params.value(QLatin1String("entry")).toObject();
        if (entry.value(QLatin1String("level")).toString() == QLatin1String("error"))
            m_current->consoleErrors << QStringLiteral("log: ") +
                                            entry.value(QLatin1String("text")).toString();
    }
}

HeadlessChromium::PageLoad HeadlessChromium::load(const QString& url, const QString& expression,
                                                  int timeoutMs)
{
    PageLoad result;
    m_current = &result;
    const QJsonObject navigated =
        waitForReply(send(QStringLiteral("Page.navigate"), {{QStringLiteral("url"), url}}), timeoutMs);
    if (navigated.value(QLatin1String("result")).toObject().contains(QLatin1String("errorText")))
        result.consoleErrors << QStringLiteral("navigation: ") + navigated.value(QLatin1String("result"))
                                                                     .toObject()
                                                                     .value(QLatin1String("errorText"))
                                                                     .toString();
    waitFor([&] { return result.loaded; }, timeoutMs);
    const QJsonObject evaluated =
        waitForReply(send(QStringLiteral("Runtime.evaluate"), {{QStringLiteral("expression"), expression},
                                                               {QStringLiteral("returnByValue"), true}}),
                     timeoutMs);
    result.evaluated =
        evaluated.value(QLatin1String("result")).toObject().value(QLatin1String("result")).toObject();
    // One more round trip: any event the page caused before it is delivered before its reply.
    waitForReply(
        send(QStringLiteral("Runtime.evaluate"), {{QStringLiteral("expression"), QStringLiteral("1")}}),
        timeoutMs);
    m_current = nullptr;
    return result;
}
