#pragma once

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>

// Runs a program as a child and reports how it ended: exit status or signal, its output, how long
// it took and its own peak memory. QProcess cannot report a child's rusage, so this forks and
// reaps with wait4(); it waits on the child through a pidfd, so a hang is cut at the timeout
// without polling.
namespace ts::test {

struct ProcessRun {
    int exitCode = -1; // the exit status; -1 when the child did not exit by itself
    int signal = 0;    // the signal that ended it (SIGKILL after a timeout too), 0 when it exited
    bool timedOut = false;
    qint64 elapsedMs = 0;
    long peakRssKb = 0;   // the child's own peak RSS (wait4's rusage), KiB
    long parentRssKb = 0; // this process's RSS when it forked: ru_maxrss counts the forked copy too
    QByteArray out;
    QByteArray err;

    bool crashed() const { return signal != 0 && !timedOut; }
    QString describe() const; // for failure messages: how it ended, the figures, the output
};

struct ProcessOptions {
    std::optional<QProcessEnvironment> environment; // nullopt: this process's environment
    QString workingDirectory;                       // empty: this process's
    QByteArray stdinBytes;                          // the child reads these, then end of file
    // Then SIGKILL and timedOut. Multiplied by $TS_TIMEOUT_SCALE (4 in the sanitizer build, where
    // children run several times slower; tests/CMakeLists.txt): it catches a hang, not a slow build.
    int timeoutMs = 120000;
    // Runs in the child before exec (setrlimit, setuid...): only async-signal-safe calls there,
    // the test process has threads.
    std::function<void()> childSetup;
};

// Options that set only the timeout, and what runs in the child before exec.
ProcessOptions withTimeout(int timeoutMs, std::function<void()> childSetup = {});

// One child: start() and wait() for tests that act while it runs (kill it at a chosen moment);
// runProcess() for the rest. The destructor kills and reaps a child that was not waited for.
class ChildProcess {
public:
    ChildProcess() = default;
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    ~ChildProcess();

    // `program` is a path (no PATH search). False when the child could not be set up; a program
    // that cannot be executed exits with status 127.
    bool start(const QString& program, const QStringList& args, const ProcessOptions& options = {});
    pid_t pid() const { return m_pid; }
    // Until the child ends or the timeout counted from start() passes.
    ProcessRun wait();

private:
    pid_t m_pid = -1;
    int m_pidfd = -1;
    int m_out = -1;
    int m_err = -1;
    int m_timeoutMs = 0;
    long m_parentRssKb = 0;
    std::chrono::steady_clock::time_point m_started;
};

ProcessRun runProcess(const QString& program, const QStringList& args, const ProcessOptions& options = {});

// The tensorscope-cli this build made (TS_CLI_PATH, tests/support/CMakeLists.txt).
QString cliPath();
// A crash or a sanitizer abort is printed with the child's stderr, so the failing test shows it.
ProcessRun runCli(const QStringList& args, const ProcessOptions& options = {});

long currentRssKb(); // this process's resident set now, KiB

} // namespace ts::test
