#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <vector>

// Helpers for the hostile-input suites: running tensorscope-cli as a child whose peak memory we
// can read, and building (possibly broken) safetensors files byte by byte.
namespace hostile {

struct CliRun {
    int exitCode = -1; // valid when !crashed && !timedOut
    int signal = 0;    // the signal that ended the child, 0 if it exited
    bool timedOut = false;
    qint64 elapsedMs = 0;
    long peakRssKb = 0;   // getrusage of this one child (wait4), in KiB
    long parentRssKb = 0; // the test's own RSS when it forked: ru_maxrss counts the forked copy too
    QByteArray out;
    QByteArray err;

    bool crashed() const { return signal != 0 && !timedOut; }
    QString describe() const; // for failure messages
};

// Runs TS_CLI_PATH with `args`. QProcess cannot report a child's own rusage, so this forks and
// waits with wait4(). `childSetup` runs in the child before exec (setrlimit, setuid...): only
// async-signal-safe calls there. `timeoutMs` is multiplied by $TS_TIMEOUT_SCALE.
CliRun runCli(const QStringList& args, int timeoutMs = 30000, const std::function<void()>& childSetup = {});

// Starts the CLI and returns at once (for SIGKILL tests); finish with waitCli().
// ru_maxrss includes the pages the child inherited before exec, so free big buffers first.
pid_t startCli(const QStringList& args, const QString& outPath, const QString& errPath,
               const std::function<void()>& childSetup = {});
CliRun waitCli(pid_t pid, int timeoutMs, const QString& outPath, const QString& errPath);

long currentRssKb();

// The 8-byte little-endian length prefix.
QByteArray le64(std::uint64_t n);
// A file: prefix(N) + header, header padded with spaces to a multiple of `align` (1 = none),
// then `data` bytes.
QByteArray makeFile(const QByteArray& header, const QByteArray& data = {}, int align = 8);
// A valid file with the given tensors: each (name, U8 byte count); data filled with a pattern.
QByteArray makeU8File(const std::vector<std::pair<QString, int>>& tensors,
                      const QByteArray& metadataJson = {});

bool writeFile(const QString& path, const QByteArray& bytes);
QByteArray readFile(const QString& path);

} // namespace hostile

// ASan/UBSan builds (the asan preset) use several times the memory: RSS bounds are only logged.
#if defined(__SANITIZE_ADDRESS__)
#define HOSTILE_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HOSTILE_SANITIZED 1
#endif
#endif
#ifndef HOSTILE_SANITIZED
#define HOSTILE_SANITIZED 0
#endif

#define HOSTILE_EXPECT_RSS_BELOW(run, kb)                                                                    \
    do {                                                                                                     \
        if (!HOSTILE_SANITIZED)                                                                              \
            QVERIFY2((run).peakRssKb < (kb), qPrintable((run).describe()));                                  \
    } while (0)

// Fails the test if the child crashed or hung; otherwise checks the exit status.
#define HOSTILE_EXPECT_EXIT(run, expected)                                                                   \
    do {                                                                                                     \
        const hostile::CliRun& r_ = (run);                                                                   \
        QVERIFY2(!r_.timedOut && r_.signal == 0, qPrintable(r_.describe()));                                 \
        QVERIFY2(r_.exitCode == (expected), qPrintable(r_.describe()));                                      \
    } while (0)
