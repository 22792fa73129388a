// Models on a server, measured against the server itself in the same run (tests/bench/remote/RESULTS.md):
//  1. open: what `tensorscope-cli info URL` transfers from a loopback nginx for a 100k-tensor
//     model, against the size of its header (goal: at most 1.1x);
//  2. scan: `tensorscope-cli scan URL` of a 1 GiB model, against curl downloading the same bytes
//     as one plain range request from the same nginx (goal: at least 80% of its throughput).
// The disk cache is off (--cache-size 0): every byte comes from the server. The file is in the
// page cache after the first download, so the server's disk is not what is measured.
//
// usage: bench_remote [DIR] [--runs N]   (DIR: where the two models are written; default a temp dir)
#include "NginxServer.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

using ts::test::NginxServer;

namespace {

constexpr int kScanTensors = 16;
constexpr std::uint64_t kScanSide = 4096; // 16 F32 tensors of 4096 x 4096: 1 GiB

struct Run {
    int exitCode = -1;
    double seconds = 0;
    QByteArray err;
};

Run run(const QString& program, const QStringList& args)
{
    QProcess p;
    p.setStandardOutputFile(QProcess::nullDevice());
    QElapsedTimer timer;
    timer.start();
    p.start(program, args);
    p.waitForFinished(-1);
    Run r;
    r.seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.err = p.readAllStandardError();
    return r;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

qint64 bodyBytes(const QList<QJsonObject>& requests)
{
    qint64 sum = 0;
    for (const QJsonObject& r : requests)
        sum += r.value(QStringLiteral("body")).toInteger();
    return sum;
}

// 1 GiB of F32 values spread over [-1, 1) (xorshift), so the scan has real statistics to do.
bool writeScanModel(const QString& path)
{
    QByteArray header = "{";
    const std::uint64_t bytes = kScanSide * kScanSide * 4;
    for (int i = 0; i < kScanTensors; ++i) {
        header += QStringLiteral("%1\"layers.%2.weight\":{\"dtype\":\"F32\",\"shape\":[%3,%3],"
                                 "\"data_offsets\":[%4,%5]}")
                      .arg(i ? QStringLiteral(",") : QString())
                      .arg(i)
                      .arg(kScanSide)
                      .arg(bytes * static_cast<std::uint64_t>(i))
                      .arg(bytes * static_cast<std::uint64_t>(i + 1))
                      .toLatin1();
    }
    header += '}';
    while (header.size() % 8)
        header += ' ';
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    const std::uint64_t n = static_cast<std::uint64_t>(header.size());
    char prefix[8];
    for (int b = 0; b < 8; ++b)
        prefix[b] = static_cast<char>((n >> (8 * b)) & 0xff);
    f.write(prefix, 8);
    f.write(header);
    std::vector<float> chunk(1 << 20);
    std::uint64_t x = 0x9e3779b97f4a7c15ull;
    for (std::uint64_t done = 0; done < bytes * kScanTensors; done += chunk.size() * 4) {
        for (float& v : chunk) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            v = static_cast<float>(static_cast<double>(x >> 11) / 4503599627370496.0 - 1.0);
        }
        if (f.write(reinterpret_cast<const char*>(chunk.data()), static_cast<qint64>(chunk.size() * 4)) !=
            static_cast<qint64>(chunk.size() * 4))
            return false;
    }
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    int runs = 3;
    if (const qsizetype i = args.indexOf(QStringLiteral("--runs")); i >= 0 && i + 1 < args.size()) {
        runs = std::max(1, args.at(i + 1).toInt());
        args.remove(i, 2);
    }
    QTemporaryDir temp;
    const QString dir = args.isEmpty() ? temp.path() : args.front();
    QDir().mkpath(dir);
    QFile::setPermissions(dir, QFile::permissions(dir) | QFileDevice::ReadOther | QFileDevice::ExeOther);
    const QString cli = QCoreApplication::applicationDirPath() + QStringLiteral("/tensorscope-cli");
    const QString curl = QStandardPaths::findExecutable(QStringLiteral("curl"));
    if (curl.isEmpty()) {
        std::fprintf(stderr, "bench_remote needs curl (the baseline download)\n");
        return 2;
    }

    const QString headerModel = dir + QStringLiteral("/header_100k.safetensors");
    const QString scanModel = dir + QStringLiteral("/scan_1gib.safetensors");
    if (!QFileInfo::exists(headerModel)) {
        const Run made =
            run(QStringLiteral("python3"), {QStringLiteral(TS_MAKE_LARGE_HEADER), headerModel,
                                            QStringLiteral("--tensors"), QStringLiteral("100000")});
        if (made.exitCode != 0) {
            std::fprintf(stderr, "make_large_header.py failed: %s\n", made.err.constData());
            return 2;
        }
    }
    if (!QFileInfo::exists(scanModel) && !writeScanModel(scanModel)) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(scanModel));
        return 2;
    }

    NginxServer nginx;
    NginxServer::Options options;
    options.root = dir;
    if (!nginx.start(options)) {
        std::fprintf(stderr, "%s\n", qPrintable(nginx.error()));
        return 2;
    }
    // The runs get a cache folder and settings of their own; no token goes anywhere.
    QTemporaryDir home;
    qputenv("XDG_CACHE_HOME", home.filePath(QStringLiteral("cache")).toLocal8Bit());
    qputenv("XDG_CONFIG_HOME", home.filePath(QStringLiteral("config")).toLocal8Bit());
    qunsetenv("HF_TOKEN");

    // 1. Open.
    {
        QFile f(headerModel);
        if (!f.open(QIODevice::ReadOnly))
            return 2;
        std::uint64_t headerLength = 0;
        const QByteArray prefix = f.read(8);
        std::memcpy(&headerLength, prefix.constData(), 8);
        const std::uint64_t headerBytes = headerLength + 8;
        const QString url = nginx.url(QFileInfo(headerModel).fileName());
        std::vector<double> times;
        qint64 moved = 0;
        int requests = 0;
        for (int r = 0; r < runs; ++r) {
            nginx.clearLog();
            const Run info =
                run(cli, {QStringLiteral("info"), QStringLiteral("--cache-size"), QStringLiteral("0"), url});
            if (info.exitCode != 0) {
                std::fprintf(stderr, "tensorscope-cli info failed: %s\n", info.err.constData());
                return 2;
            }
            times.push_back(info.seconds);
            const QList<QJsonObject> log = nginx.waitForRequests(1);
            moved = bodyBytes(log);
            requests = static_cast<int>(log.size());
        }
        std::printf("open 100k tensors: header %llu bytes (file %lld); transferred %lld bytes in %d requests "
                    "= %.3fx the header (goal <= 1.1x); tensorscope-cli info %.0f ms (median of %d)\n",
                    static_cast<unsigned long long>(headerBytes),
                    static_cast<long long>(QFileInfo(headerModel).size()), static_cast<long long>(moved),
                    requests, static_cast<double>(moved) / static_cast<double>(headerBytes),
                    median(times) * 1e3, runs);
    }

    // 2. Scan against a plain range download of the same bytes.
    {
        const qint64 size = QFileInfo(scanModel).size();
        const QString url = nginx.url(QFileInfo(scanModel).fileName());
        const QStringList download = {QStringLiteral("-s"),
                                      QStringLiteral("-f"),
                                      QStringLiteral("-o"),
                                      QStringLiteral("/dev/null"),
                                      QStringLiteral("-r"),
                                      QStringLiteral("0-%1").arg(size - 1),
                                      url};
        run(curl, download); // the file into the page cache
        struct Case {
            const char* name;
            QString program;
            QStringList args;
            std::vector<double> seconds;
        };
        const QString qnam = QCoreApplication::applicationDirPath() + QStringLiteral("/qnam_download");
        std::vector<Case> cases = {
            {"curl range download", curl, download, {}},
            {"Qt Network download", qnam, {url, QStringLiteral("0"), QString::number(size - 1)}, {}},
            {"scan --nan-inf-only",
             cli,
             {QStringLiteral("scan"), QStringLiteral("--nan-inf-only"), QStringLiteral("--cache-size"),
              QStringLiteral("0"), url},
             {}},
            {"scan (statistics)",
             cli,
             {QStringLiteral("scan"), QStringLiteral("--cache-size"), QStringLiteral("0"), url},
             {}},
        };
        // Interleaved, so a busy moment of the shared machine falls on all cases alike.
        for (int r = 0; r < runs; ++r) {
            for (Case& c : cases) {
                nginx.clearLog();
                const Run done = run(c.program, c.args);
                if (done.exitCode != 0 && done.exitCode != 1) {
                    std::fprintf(stderr, "%s failed (%d): %s\n", c.name, done.exitCode, done.err.constData());
                    return 2;
                }
                const qint64 moved = bodyBytes(nginx.waitForRequests(1));
                if (moved < size - 4096) {
                    std::fprintf(stderr, "%s moved %lld of %lld bytes\n", c.name,
                                 static_cast<long long>(moved), static_cast<long long>(size));
                    return 2;
                }
                c.seconds.push_back(done.seconds);
            }
        }
        const double base = static_cast<double>(size) / median(cases[0].seconds);
        const double qtBase = static_cast<double>(size) / median(cases[1].seconds);
        for (const Case& c : cases) {
            const double rate = static_cast<double>(size) / median(c.seconds);
            std::printf(
                "%-22s %7.0f MB/s (median of %d: %.2f s) = %3.0f%% of curl's download (goal >= 80%%), "
                "%3.0f%% of Qt Network's\n",
                c.name, rate / 1e6, runs, median(c.seconds), 100.0 * rate / base, 100.0 * rate / qtBase);
        }
    }
    return 0;
}
