#include "HostileSupport.h"

#include <QFile>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace hostile {

long currentRssKb()
{
    const QList<QByteArray> fields = readFile(QStringLiteral("/proc/self/statm")).split(' ');
    return fields.size() > 1 ? fields[1].toLong() * (::sysconf(_SC_PAGESIZE) / 1024) : 0;
}

QString CliRun::describe() const
{
    QString what = timedOut ? QStringLiteral("TIMED OUT after %1 ms").arg(elapsedMs)
                   : signal ? QStringLiteral("CRASHED with signal %1").arg(signal)
                            : QStringLiteral("exit %1").arg(exitCode);
    return what + QStringLiteral(" (%1 ms, peak RSS %2 KiB, test RSS at fork %5 KiB)\nstdout: %3\nstderr: %4")
                      .arg(elapsedMs)
                      .arg(peakRssKb)
                      .arg(QString::fromUtf8(out.left(2000)), QString::fromUtf8(err.left(2000)))
                      .arg(parentRssKb);
}

pid_t startCli(const QStringList& args, const QString& outPath, const QString& errPath,
               const std::function<void()>& childSetup)
{
    // Everything the child needs is prepared before fork: after it only async-signal-safe calls.
    std::vector<QByteArray> storage;
    storage.push_back(QByteArrayLiteral(TS_CLI_PATH));
    for (const QString& a : args)
        storage.push_back(a.toUtf8());
    std::vector<char*> argv;
    for (QByteArray& s : storage)
        argv.push_back(s.data());
    argv.push_back(nullptr);
    const QByteArray outFile = QFile::encodeName(outPath);
    const QByteArray errFile = QFile::encodeName(errPath);

    const pid_t pid = ::fork();
    if (pid != 0)
        return pid;
    const int o = ::open(outFile.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = ::open(errFile.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int in = ::open("/dev/null", O_RDONLY);
    if (o < 0 || e < 0 || in < 0)
        ::_exit(127);
    ::dup2(in, 0);
    ::dup2(o, 1);
    ::dup2(e, 2);
    if (childSetup)
        childSetup();
    ::execv(argv[0], argv.data());
    ::_exit(127);
}

CliRun waitCli(pid_t pid, int timeoutMs, const QString& outPath, const QString& errPath)
{
    // ctest sets TS_TIMEOUT_SCALE (4 in the sanitizer build, where the CLI runs several times
    // slower; see tests/CMakeLists.txt): the bounds here catch a hang, not a slow build.
    static const int scale = std::max(1, qEnvironmentVariableIntValue("TS_TIMEOUT_SCALE"));
    CliRun run;
    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + std::chrono::milliseconds(timeoutMs) * scale;
    int status = 0;
    struct rusage usage {};
    for (;;) {
        const pid_t done = ::wait4(pid, &status, WNOHANG, &usage);
        if (done == pid)
            break;
        if (done < 0 && errno != EINTR)
            break;
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(pid, SIGKILL);
            ::wait4(pid, &status, 0, &usage);
            run.timedOut = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    run.elapsedMs =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start)
            .count();
    run.peakRssKb = usage.ru_maxrss;
    if (WIFEXITED(status))
        run.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        run.signal = WTERMSIG(status);
    run.out = readFile(outPath);
    run.err = readFile(errPath);
    QFile::remove(outPath);
    QFile::remove(errPath);
    return run;
}

CliRun runCli(const QStringList& args, int timeoutMs, const std::function<void()>& childSetup)
{
    static int counter = 0;
    const QString base = QStringLiteral(TS_BINARY_DIR "/hostile-cli-%1-%2").arg(::getpid()).arg(++counter);
    const QString outPath = base + QStringLiteral(".out");
    const QString errPath = base + QStringLiteral(".err");
    const long parentRss = currentRssKb();
    const pid_t pid = startCli(args, outPath, errPath, childSetup);
    CliRun run = waitCli(pid, timeoutMs, outPath, errPath);
    run.parentRssKb = parentRss;
    return run;
}

QByteArray le64(std::uint64_t n)
{
    QByteArray b(8, Qt::Uninitialized);
    for (int i = 0; i < 8; ++i)
        b[i] = static_cast<char>((n >> (8 * i)) & 0xff);
    return b;
}

QByteArray makeFile(const QByteArray& header, const QByteArray& data, int align)
{
    QByteArray h = header;
    while (align > 1 && h.size() % align != 0)
        h.append(' ');
    return le64(static_cast<std::uint64_t>(h.size())) + h + data;
}

QByteArray makeU8File(const std::vector<std::pair<QString, int>>& tensors, const QByteArray& metadataJson)
{
    QByteArray header = "{";
    QByteArray data;
    if (!metadataJson.isEmpty())
        header += "\"__metadata__\":" + metadataJson;
    for (const auto& [name, bytes] : tensors) {
        if (header.size() > 1)
            header += ',';
        const qsizetype begin = data.size();
        for (int i = 0; i < bytes; ++i)
            data.append(static_cast<char>((begin + i) * 31 + 7));
        header += "\"" + name.toUtf8() + "\":{\"dtype\":\"U8\",\"shape\":[" + QByteArray::number(bytes) +
                  "],\"data_offsets\":[" + QByteArray::number(begin) + "," + QByteArray::number(data.size()) +
                  "]}";
    }
    header += "}";
    return makeFile(header, data);
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size() && f.flush();
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace hostile
