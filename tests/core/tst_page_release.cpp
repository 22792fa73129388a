// A scan must not leave a big file resident in the process: pieces a reader of the mapping is done
// with are released (MappedFile::release, batched by PageReleaser), and scans and conversions do
// not map a local file at all. Measured as the mapping's own Rss in /proc/self/smaps, with a
// control that shows the measurement sees pages kept mapped.
#include "analysis/ModelScanner.h"
#include "checkpoint/Checkpoint.h"
#include "convert/ConvertWriter.h"
#include "convert/Converter.h"
#include "io/MappedFile.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstring>
#include <span>
#include <string>

using namespace ts;

namespace {

constexpr std::uint64_t kMiB = 1u << 20;
// Not a multiple of the 64 MiB release batch, so a reader of the mapping leaves its last partial
// batch mapped: what the scan and conversion checks below would see if those mapped the file.
constexpr std::uint64_t kFileBytes = 100 * kMiB;

// Rss (bytes) of the mapping that contains `address`, from /proc/self/smaps.
std::uint64_t mappingRss(const void* address)
{
    QFile smaps(QStringLiteral("/proc/self/smaps"));
    if (!smaps.open(QIODevice::ReadOnly))
        return ~0ull;
    const auto at = reinterpret_cast<std::uintptr_t>(address);
    bool inside = false;
    for (const QByteArray& line : smaps.readAll().split('\n')) {
        const int dash = line.indexOf('-');
        const int space = line.indexOf(' ');
        if (dash > 0 && space > dash && line[space - 1] != ':') { // "lo-hi perms offset dev inode path"
            const std::uintptr_t lo = line.left(dash).toULongLong(nullptr, 16);
            const std::uintptr_t hi = line.mid(dash + 1, space - dash - 1).toULongLong(nullptr, 16);
            inside = lo <= at && at < hi;
        } else if (inside && line.startsWith("Rss:")) {
            return line.mid(4).trimmed().split(' ').front().toULongLong() * 1024;
        }
    }
    return ~0ull;
}

// A safetensors file with one F32 tensor filling kFileBytes of data, every value 0.5.
QString writeModel(const QTemporaryDir& dir)
{
    const std::uint64_t elements = kFileBytes / 4;
    std::string header = "{\"w\":{\"dtype\":\"F32\",\"shape\":[" + std::to_string(elements) +
                         "],\"data_offsets\":[0," + std::to_string(kFileBytes) + "]}}";
    while ((8 + header.size()) % 8)
        header += ' ';
    QFile f(dir.filePath(QStringLiteral("big.safetensors")));
    if (!f.open(QIODevice::WriteOnly))
        return {};
    const std::uint64_t n = header.size();
    f.write(reinterpret_cast<const char*>(&n), 8);
    f.write(header.data(), static_cast<qint64>(header.size()));
    QByteArray chunk(static_cast<int>(4 * kMiB), Qt::Uninitialized);
    const float half = 0.5f;
    for (int i = 0; i < chunk.size(); i += 4)
        std::memcpy(chunk.data() + i, &half, 4);
    for (std::uint64_t done = 0; done < kFileBytes; done += 4 * kMiB)
        f.write(chunk);
    return f.fileName();
}

} // namespace

class TestPageRelease : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void releasedPiecesLeaveTheProcess()
    {
        QTemporaryDir dir;
        const QString path = writeModel(dir);
        QVERIFY(!path.isEmpty());
        auto kept = MappedFile::open(path);
        auto released = MappedFile::open(path);
        QVERIFY(kept && released);
        const auto whole = (*kept)->view(0, (*kept)->size());
        const auto other = (*released)->view(0, (*released)->size());
        QVERIFY(!whole.empty() && !other.empty());
        volatile unsigned sink = 0;
        const std::uint64_t piece = 4 * kMiB;
        for (std::uint64_t at = 0; at < whole.size(); at += piece) {
            const std::uint64_t n = std::min<std::uint64_t>(piece, whole.size() - at);
            for (std::uint64_t i = 0; i < n; i += 4096) {
                sink = sink + static_cast<unsigned>(whole[at + i]);
                sink = sink + static_cast<unsigned>(other[at + i]);
            }
            (*released)->release(at, n);
        }
        const std::uint64_t keptRss = mappingRss(whole.data());
        const std::uint64_t releasedRss = mappingRss(other.data());
        qInfo("Rss after touching %llu MiB: kept %llu MiB, released in 4 MiB pieces %llu MiB",
              static_cast<unsigned long long>(kFileBytes / kMiB),
              static_cast<unsigned long long>(keptRss / kMiB),
              static_cast<unsigned long long>(releasedRss / kMiB));
        QVERIFY2(keptRss >= kFileBytes - kMiB, "the control mapping should hold every page it touched");
        QVERIFY(releasedRss <= 64 * kMiB + piece);
    }

    // Scans read a local file with pread into a reused buffer (MappedFile::hold lends nothing),
    // so not even a release batch of the file is left mapped: only the page this test touched.
    void scanLeavesTheFileUnmapped()
    {
        QTemporaryDir dir;
        const QString path = writeModel(dir);
        auto model = Checkpoint::open(path);
        QVERIFY(model);
        const TensorLocation where = (*model)->location(0);
        const auto view = where.source->view(0, 1);
        QVERIFY(!view.empty());
        ScanOptions options;
        options.threads = 2;
        options.histogramBins = 64;
        auto result = ModelScanner(*model, options).run();
        QVERIFY(result);
        QCOMPARE(result->tensors.front().values.mean, 0.5);
        QCOMPARE(result->tensors.front().values.count, kFileBytes / 4);
        const std::uint64_t rss = mappingRss(view.data());
        qInfo("Rss of the %llu MiB mapping after a two-pass scan: %llu KiB",
              static_cast<unsigned long long>(kFileBytes / kMiB),
              static_cast<unsigned long long>(rss / 1024));
        QVERIFY(rss <= kMiB);
    }

    // The same for a conversion: its report pass and its write read the input, they do not map it.
    void conversionLeavesTheFileUnmapped()
    {
        QTemporaryDir dir;
        const QString path = writeModel(dir);
        auto model = Checkpoint::open(path);
        QVERIFY(model);
        const auto view = (*model)->location(0).source->view(0, 1);
        QVERIFY(!view.empty());
        ConvertOptions options;
        options.dtype = Dtype::BF16;
        auto plan = Converter::plan({*model}, options);
        QVERIFY(plan);
        QVERIFY(Converter::measure(*plan));
        const QString out = dir.filePath(QStringLiteral("half.safetensors"));
        auto written = ConvertWriter::write(*plan, out, options);
        QVERIFY2(written, qPrintable(written ? QString() : written.error().toString()));
        const std::uint64_t rss = mappingRss(view.data());
        qInfo("Rss of the %llu MiB input mapping after measure and write: %llu KiB",
              static_cast<unsigned long long>(kFileBytes / kMiB),
              static_cast<unsigned long long>(rss / 1024));
        QVERIFY(rss <= kMiB);

        // And the values came through: every one 0.5, BF16 0x3F00.
        auto converted = Checkpoint::open(out);
        QVERIFY(converted);
        const TensorLocation at = (*converted)->location(0);
        QCOMPARE(at.length, kFileBytes / 2);
        std::vector<std::uint16_t> codes(static_cast<std::size_t>(at.length / 2));
        QVERIFY(at.source->read(at.offset, std::as_writable_bytes(std::span(codes))));
        QVERIFY(std::all_of(codes.begin(), codes.end(), [](std::uint16_t c) { return c == 0x3F00; }));
    }
};

QTEST_GUILESS_MAIN(TestPageRelease)
#include "tst_page_release.moc"
