#include "ChildProcess.h"

#include <QFile>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

namespace ts::test {
namespace {

QByteArray readAllFrom(int fd)
{
    QByteArray bytes;
    if (fd < 0 || ::lseek(fd, 0, SEEK_SET) < 0)
        return bytes;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        bytes.append(buffer, n);
    }
    return bytes;
}

// An anonymous file for a child's stdout or stderr: it never fills up as a pipe would, so a child
// that writes a lot never waits for a reader.
int anonymousFile(const char* name, const QByteArray& contents = {})
{
    const int fd = ::memfd_create(name, MFD_CLOEXEC);
    if (fd >= 0 && !contents.isEmpty()) {
        if (::write(fd, contents.constData(), static_cast<std::size_t>(contents.size())) != contents.size() ||
            ::lseek(fd, 0, SEEK_SET) < 0) {
            ::close(fd);
            return -1;
        }
    }
    return fd;
}

void closeFd(int& fd)
{
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}

std::vector<char*> pointers(std::vector<QByteArray>& strings)
{
    std::vector<char*> out;
    for (QByteArray& s : strings)
        out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

} // namespace

long currentRssKb()
{
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    return fields.size() > 1 ? fields[1].toLong() * (::sysconf(_SC_PAGESIZE) / 1024) : 0;
}

QString ProcessRun::describe() const
{
    const QString what = timedOut ? QStringLiteral("TIMED OUT after %1 ms").arg(elapsedMs)
                         : signal ? QStringLiteral("CRASHED with signal %1").arg(signal)
                                  : QStringLiteral("exit %1").arg(exitCode);
    return what + QStringLiteral(" (%1 ms, peak RSS %2 KiB, test RSS at fork %3 KiB)\nstdout: %4\nstderr: %5")
                      .arg(elapsedMs)
                      .arg(peakRssKb)
                      .arg(parentRssKb)
                      .arg(QString::fromUtf8(out.left(2000)), QString::fromUtf8(err.left(2000)));
}

ChildProcess::~ChildProcess()
{
    if (m_pid > 0) {
        ::kill(m_pid, SIGKILL);
        int status = 0;
        while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    closeFd(m_pidfd);
    closeFd(m_out);
    closeFd(m_err);
}

bool ChildProcess::start(const QString& program, const QStringList& args, const ProcessOptions& options)
{
    if (m_pid > 0)
        return false;
    // Everything the child needs is made before fork: after it, only async-signal-safe calls.
    std::vector<QByteArray> argStrings{QFile::encodeName(program)};
    for (const QString& a : args)
        argStrings.push_back(a.toUtf8());
    std::vector<char*> argv = pointers(argStrings);
    std::vector<QByteArray> envStrings;
    std::vector<char*> envp;
    if (options.environment) {
        for (const QString& entry : options.environment->toStringList())
            envStrings.push_back(entry.toUtf8());
        envp = pointers(envStrings);
    }
    char** const childEnv = options.environment ? envp.data() : environ;
    const QByteArray workingDirectory = QFile::encodeName(options.workingDirectory);
    int in = options.stdinBytes.isEmpty() ? ::open("/dev/null", O_RDONLY | O_CLOEXEC)
                                          : anonymousFile("stdin", options.stdinBytes);
    m_out = anonymousFile("stdout");
    m_err = anonymousFile("stderr");
    if (in < 0 || m_out < 0 || m_err < 0) {
        closeFd(in);
        return false;
    }
    static const int scale = std::max(1, qEnvironmentVariableIntValue("TS_TIMEOUT_SCALE"));
    m_timeoutMs = options.timeoutMs * scale;
    m_parentRssKb = currentRssKb();
    m_started = std::chrono::steady_clock::now();

    const pid_t pid = ::fork();
    if (pid == 0) {
        // dup2 clears close-on-exec on the copies: the child keeps exactly 0, 1 and 2.
        if (::dup2(in, 0) < 0 || ::dup2(m_out, 1) < 0 || ::dup2(m_err, 2) < 0)
            ::_exit(127);
        if (!workingDirectory.isEmpty() && ::chdir(workingDirectory.constData()) != 0)
            ::_exit(127);
        if (options.childSetup)
            options.childSetup();
        ::execve(argv[0], argv.data(), childEnv);
        static const char message[] = "exec failed\n";
        (void)!::write(2, message, sizeof message - 1);
        ::_exit(127);
    }
    closeFd(in);
    if (pid < 0)
        return false;
    m_pid = pid;
    // A pidfd becomes readable when the child ends: poll() on it waits for exactly that, with a
    // timeout. (Linux 5.3 and later; without it wait() blocks until the child ends and the ctest
    // TIMEOUT is the guard against a hang.)
    m_pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
    return true;
}

ProcessRun ChildProcess::wait()
{
    ProcessRun run;
    run.parentRssKb = m_parentRssKb;
    if (m_pid <= 0)
        return run;
    const auto deadline = m_started + std::chrono::milliseconds(m_timeoutMs);
    while (m_pidfd >= 0) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            // Not reaped yet, so the pid is still this child's: the kill cannot reach another process.
            ::kill(m_pid, SIGKILL);
            run.timedOut = true;
            break;
        }
        pollfd ended{m_pidfd, POLLIN, 0};
        const int ready = ::poll(&ended, 1, static_cast<int>(std::min<long long>(left.count(), 1 << 30)));
        if (ready > 0 || (ready < 0 && errno != EINTR))
            break;
    }
    int status = 0;
    struct rusage usage {};
    while (::wait4(m_pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    m_pid = -1;
    run.elapsedMs =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - m_started)
            .count();
    run.peakRssKb = usage.ru_maxrss;
    if (WIFEXITED(status))
        run.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        run.signal = WTERMSIG(status);
    run.out = readAllFrom(m_out);
    run.err = readAllFrom(m_err);
    closeFd(m_pidfd);
    closeFd(m_out);
    closeFd(m_err);
    return run;
}

ProcessOptions withTimeout(int timeoutMs, std::function<void()> childSetup)
{
    ProcessOptions options;
    options.timeoutMs = timeoutMs;
    options.childSetup = std::move(childSetup);
    return options;
}

ProcessRun runProcess(const QString& program, const QStringList& args, const ProcessOptions& options)
{
    ChildProcess child;
    if (!child.start(program, args, options)) {
        qWarning("could not start %s", qPrintable(program));
        return {};
    }
    ProcessRun run = child.wait();
    if (run.crashed() || run.timedOut)
        qWarning("%s %s", qPrintable(program), qPrintable(run.describe()));
    return run;
}

QString cliPath()
{
    return QStringLiteral(TS_CLI_PATH);
}

ProcessRun runCli(const QStringList& args, const ProcessOptions& options)
{
    return runProcess(cliPath(), args, options);
}

} // namespace ts::test
