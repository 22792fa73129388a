// bench_hash [DIR] [GIB] [ROUNDS]
// Writes a GIB-sized file of random bytes in DIR (default /tmp, 1 GiB) and the same bytes as four
// shards, reads them once so the page cache holds them, then times in each of ROUNDS (3) rounds:
//   sha256sum FILE (coreutils) and FileHasher on the same file (one file: one sequential stream);
//   sha256sum on the four shards one after the other, and FileHasher on them (two cores);
//   the same file with QCryptographicHash (Qt's own SHA-256), the fallback without OpenSSL.
// The digests must agree. Prints GB/s and the ratios; every file it makes is deleted at the end.
#include "io/MappedFile.h"
#include "report/FileHasher.h"
#include "report/Sha256.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>

#include <chrono>
#include <cstdio>
#include <random>
#include <thread>
#include <vector>

using namespace ts;
using Clock = std::chrono::steady_clock;

namespace {

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

bool writeRandom(const QString& path, std::uint64_t bytes, std::uint32_t seed)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    std::mt19937_64 rng(seed);
    std::vector<std::uint64_t> block(1 << 17); // 1 MiB
    for (std::uint64_t done = 0; done < bytes; done += block.size() * 8) {
        for (auto& v : block)
            v = rng();
        f.write(reinterpret_cast<const char*>(block.data()), static_cast<qint64>(block.size() * 8));
    }
    return true;
}

QStringList sha256sum(const QStringList& files, double* seconds)
{
    const auto start = Clock::now();
    QStringList digests;
    for (const QString& file : files) {
        QProcess p;
        p.start(QStringLiteral("sha256sum"), {file});
        p.waitForFinished(-1);
        digests << QString::fromLatin1(p.readAllStandardOutput()).section(QLatin1Char(' '), 0, 0);
    }
    *seconds = secondsSince(start);
    return digests;
}

QStringList hasher(const QStringList& files, double* seconds)
{
    std::vector<HashInput> inputs;
    for (const QString& f : files)
        inputs.push_back({f, f, QStringLiteral("weights"), MappedFile::open(f).value()});
    const auto start = Clock::now();
    auto digests = FileHasher(std::move(inputs)).run();
    *seconds = secondsSince(start);
    QStringList out;
    for (const FileDigest& d : digests.value())
        out << d.sha256;
    return out;
}

QString qtHash(const QString& file, double* seconds)
{
    const auto start = Clock::now();
    QFile f(file);
    f.open(QIODevice::ReadOnly);
    QCryptographicHash h(QCryptographicHash::Sha256);
    QByteArray buffer(8 << 20, Qt::Uninitialized);
    for (qint64 n; (n = f.read(buffer.data(), buffer.size())) > 0;)
        h.addData(QByteArrayView(buffer.constData(), n));
    *seconds = secondsSince(start);
    return QString::fromLatin1(h.result().toHex());
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QString dir = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("/tmp");
    const double gib = argc > 2 ? std::atof(argv[2]) : 1.0;
    const int rounds = argc > 3 ? std::atoi(argv[3]) : 3;
    const auto bytes = static_cast<std::uint64_t>(gib * (1ull << 30));
    const QString single = QDir(dir).filePath(QStringLiteral("bench_hash.bin"));
    QStringList shards;
    if (!writeRandom(single, bytes, 1))
        return 2;
    for (int i = 0; i < 4; ++i) {
        shards << QDir(dir).filePath(QStringLiteral("bench_hash-%1.bin").arg(i));
        writeRandom(shards.back(), bytes / 4, 10 + static_cast<std::uint32_t>(i));
    }
    double warm = 0;
    sha256sum(QStringList{single} + shards, &warm); // everything in the page cache before timing
    std::printf("SHA-256 of %.2f GiB, %u cores, backend %s; GB/s (ratio to sha256sum in the same round)\n",
                gib, std::thread::hardware_concurrency(), qPrintable(Sha256::backend()));
    const double gb = static_cast<double>(bytes) / 1e9;
    bool agree = true;
    for (int r = 0; r < rounds; ++r) {
        double tSum = 0, tOurs = 0, tSumShards = 0, tOursShards = 0, tQt = 0;
        const QStringList a = sha256sum({single}, &tSum);
        const QStringList b = hasher({single}, &tOurs);
        const QStringList c = sha256sum(shards, &tSumShards);
        const QStringList d = hasher(shards, &tOursShards);
        const QString q = qtHash(single, &tQt);
        agree = agree && a == b && c == d && q == a.front();
        std::printf("round %d: one file: sha256sum %.2f, FileHasher %.2f (%.2fx) | 4 shards: sha256sum %.2f, "
                    "FileHasher %.2f (%.2fx) | QCryptographicHash %.2f (%.2fx)\n",
                    r + 1, gb / tSum, gb / tOurs, tSum / tOurs, gb / tSumShards, gb / tOursShards,
                    tSumShards / tOursShards, gb / tQt, tSum / tQt);
    }
    std::printf("digests %s\n", agree ? "agree" : "DIFFER");
    QFile::remove(single);
    for (const QString& s : shards)
        QFile::remove(s);
    return agree ? 0 : 1;
}
