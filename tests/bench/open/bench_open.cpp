// Open + validate time against header size and data size.
//
//   build/bin/bench_open [DIR]
//
// Writes models with 1k, 10k and 100k tensors (realistic transformer names, F16/BF16 shapes,
// sparse data) and a 100 GB sparse model into DIR (default /tmp), then reports the median of
// repeated opens. Opening must grow with the header and not with the data.
#include "format/HeaderSerializer.h"
#include "format/SafetensorsFile.h"
#include "format/WriterOrder.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

// n tensors named like a large language model's, data left sparse.
QString makeModel(const QString& dir, int n, std::uint64_t padToTotal)
{
    std::vector<ts::TensorInfo> tensors;
    tensors.reserve(static_cast<std::size_t>(n));
    const char* parts[] = {
        "self_attn.q_proj.weight", "self_attn.k_proj.weight", "self_attn.v_proj.weight",
        "self_attn.o_proj.weight", "mlp.gate_proj.weight",    "mlp.up_proj.weight",
        "mlp.down_proj.weight",    "input_layernorm.weight",  "post_attention_layernorm.weight",
        "self_attn.q_proj.bias"};
    for (int i = 0; i < n; ++i) {
        ts::TensorInfo t;
        t.name = QStringLiteral("model.layers.%1.%2").arg(i / 10).arg(QLatin1String(parts[i % 10]));
        t.dtype = ts::Dtype::BF16;
        t.shape = i % 10 >= 7 ? std::vector<std::uint64_t>{64} : std::vector<std::uint64_t>{64, 32};
        tensors.push_back(t);
    }
    // Laid out as the reference writer does (real files are), so the header is canonical.
    std::sort(tensors.begin(), tensors.end(),
              [](const ts::TensorInfo& a, const ts::TensorInfo& b) { return ts::writerOrderLess(a, b); });
    std::uint64_t offset = 0;
    for (ts::TensorInfo& t : tensors) {
        t.begin = offset;
        t.end = offset + t.shape[0] * (t.shape.size() > 1 ? t.shape[1] : 1) * 2;
        offset = t.end;
    }
    if (padToTotal > offset) {
        // One big tensor at the end makes the data section as large as asked.
        const std::uint64_t big = padToTotal - offset;
        tensors.push_back(
            ts::TensorInfo{QStringLiteral("zz_padding"), ts::Dtype::U8, {big}, offset, offset + big});
        offset += big;
    }
    const QByteArray header = ts::serializeHeader(tensors, std::nullopt);
    const QString path = QStringLiteral("%1/bench_%2_%3.safetensors").arg(dir).arg(n).arg(padToTotal);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(header) != header.size() ||
        !f.resize(header.size() + static_cast<qint64>(offset))) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
        std::exit(2);
    }
    return path;
}

double medianMs(const QString& path, int runs, qint64* headerBytes)
{
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        auto file = ts::SafetensorsFile::open(path);
        times.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        if (!file) {
            std::fprintf(stderr, "%s\n", qPrintable(file.error().toString()));
            std::exit(1);
        }
        *headerBytes = static_cast<qint64>((*file)->header().headerLength);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QString dir = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("/tmp");
    std::printf("%-34s %14s %12s %12s\n", "case", "header bytes", "file bytes", "median ms");
    struct Case {
        const char* label;
        int tensors;
        std::uint64_t total;
    } cases[] = {
        {"1k tensors", 1000, 0},
        {"10k tensors", 10000, 0},
        {"100k tensors", 100000, 0},
        {"100k tensors + 100 GB data", 100000, 100ULL << 30},
        {"1k tensors + 100 GB data", 1000, 100ULL << 30},
    };
    for (const Case& c : cases) {
        const QString path = makeModel(dir, c.tensors, c.total);
        qint64 header = 0;
        medianMs(path, 2, &header); // warm the page cache: we measure parsing, not the disk
        const double ms = medianMs(path, c.tensors >= 100000 ? 15 : 41, &header);
        std::printf("%-34s %14lld %12lld %12.3f\n", c.label, static_cast<long long>(header),
                    static_cast<long long>(QFileInfo(path).size()), ms);
        if (!qEnvironmentVariableIsSet("BENCH_KEEP"))
            QFile::remove(path);
    }
    return 0;
}
