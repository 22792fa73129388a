// bench_convert [DIR] [MODEL_GIB] [CONVERT_GIB] [CONVERT_OUT_DIR]
// bench_convert kernels [MIB]
// Writes a MODEL_GIB F32 model in DIR (default /tmp), then times in one run:
//   cp of the model (and its fsync) vs a full metadata re-save (SafetensorsWriter::rewriteMetadata);
//   an in-place metadata save (bytes written, time);
//   F32 -> BF16 / F16 conversion of a CONVERT_GIB model vs a streaming read of the same bytes.
// Every file it makes is deleted at the end.
// `kernels`: DtypeConverter::convert alone, for every pair of dtypes with a kernel of its own and
// a few that take the element-wise path, on every SIMD target the binary carries (Highway's
// dispatcher forced to each in turn), from MIB (default 256) of resident F32 input and the same
// element count of the other source dtypes, into a reused 8 MiB output, one thread.
#include "../MemoryBandwidth.h"
#include "../SimdTargets.h"
#include "checkpoint/Checkpoint.h"
#include "convert/ConvertWriter.h"
#include "convert/Converter.h"
#include "convert/DtypeConverter.h"
#include "format/SafetensorsFile.h"
#include "io/ByteSource.h"
#include "write/MetadataSave.h"
#include "write/SafetensorsWriter.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

using namespace ts;
using Clock = std::chrono::steady_clock;

namespace {

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// F32 values in [-1, 1) from a 32-bit LCG, generated as the writer asks for them.
class NoiseSource final : public ByteSource {
public:
    NoiseSource(std::uint64_t size, std::uint32_t seed) : m_size(size), m_seed(seed) {}
    QString displayName() const override { return QStringLiteral("<noise>"); }
    std::uint64_t size() const override { return m_size; }
    Result<void> read(std::uint64_t offset, std::span<std::byte> dst) const override
    {
        std::uint32_t state = m_seed ^ static_cast<std::uint32_t>(offset * 2654435761u);
        for (std::size_t i = 0; i + 4 <= dst.size(); i += 4) {
            state = state * 1664525u + 1013904223u;
            const float v = static_cast<float>(static_cast<std::int32_t>(state)) * (1.0f / 2147483648.0f);
            std::memcpy(dst.data() + i, &v, 4);
        }
        return {};
    }

private:
    std::uint64_t m_size;
    std::uint32_t m_seed;
};

bool makeModel(const QString& path, std::uint64_t bytes, std::uint64_t slack)
{
    constexpr std::uint64_t kTensor = 64ull << 20;
    std::vector<WriterTensor> tensors;
    for (std::uint64_t i = 0; i * kTensor < bytes; ++i) {
        auto src = std::make_shared<NoiseSource>(kTensor, static_cast<std::uint32_t>(i + 1));
        tensors.push_back({QStringLiteral("layers.%1.weight").arg(i, 3, 10, QLatin1Char('0')),
                           Dtype::F32,
                           {4096, kTensor / 4 / 4096},
                           TensorLocation{src, 0, kTensor}});
    }
    Metadata md;
    md.set(QStringLiteral("format"), QStringLiteral("pt"));
    WriteOptions options;
    options.headerSlack = slack;
    const auto r = SafetensorsWriter::write(path, std::move(tensors), md, options);
    if (!r)
        std::fprintf(stderr, "%s\n", qPrintable(r.error().toString()));
    return r.ok();
}

double fsyncFile(const QString& path)
{
    const auto start = Clock::now();
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY);
    ::fsync(fd);
    ::close(fd);
    return secondsSince(start);
}

void benchResave(const QString& dir, std::uint64_t gib)
{
    const QString model = dir + QStringLiteral("/bench-resave.safetensors");
    const QString copy = dir + QStringLiteral("/bench-resave-copy.safetensors");
    std::printf("## Metadata re-save of a %llu GiB model (F32, 64 MiB tensors)\n\n",
                static_cast<unsigned long long>(gib));
    auto start = Clock::now();
    if (!makeModel(model, gib << 30, 4096))
        return;
    std::printf("made the model in %.2f s\n\n", secondsSince(start));
    std::printf("| round | cp (s) | cp + fsync (s) | full re-save, data copied (s) | full re-save incl. "
                "fsync (s) | ratio re-save/cp | ratio incl. fsync |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
    for (int round = 1; round <= 3; ++round) {
        start = Clock::now();
        QProcess::execute(QStringLiteral("cp"), {model, copy});
        const double cp = secondsSince(start);
        const double cpSync = cp + fsyncFile(copy);
        QFile::remove(copy);

        auto file = SafetensorsFile::open(model);
        if (!file)
            return;
        Metadata md = (*file)->header().metadata.value_or(Metadata{});
        md.set(QStringLiteral("round"),
               QString(5000, QLatin1Char('r'))); // too big for the slack: forces a rewrite
        MetadataSaveOptions options;
        options.allowInPlace = false;
        double copied = 0;
        start = Clock::now();
        // The sink always reports the moment its total is reached.
        options.control.progress = ProgressSink([&](const Progress& p) {
            if (p.bytesDone == p.bytesTotal)
                copied = secondsSince(start);
        });
        const auto saved = MetadataSave::save(**file, md, model, options);
        const double total = secondsSince(start);
        if (!saved) {
            std::fprintf(stderr, "%s\n", qPrintable(saved.error().toString()));
            return;
        }
        std::printf("| %d | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f |\n", round, cp, cpSync, copied, total,
                    copied / cp, total / cpSync);
    }

    // In place: a fresh model with slack, then small edits.
    QFile::remove(model);
    if (!makeModel(model, gib << 30, 4096))
        return;
    std::printf("\n## In-place metadata save of the same %llu GiB model (4096 bytes of header slack)\n\n",
                static_cast<unsigned long long>(gib));
    std::printf("| round | method | bytes written (header + journal) | time (ms) |\n|---|---|---|---|\n");
    for (int round = 1; round <= 5; ++round) {
        auto file = SafetensorsFile::open(model);
        if (!file)
            return;
        Metadata md = (*file)->header().metadata.value_or(Metadata{});
        md.set(QStringLiteral("edit"), QStringLiteral("round %1").arg(round));
        start = Clock::now();
        const auto saved = MetadataSave::save(**file, md, model);
        const double ms = secondsSince(start) * 1000;
        if (!saved)
            return;
        std::printf("| %d | %s | %llu | %.2f |\n", round,
                    saved->method == SaveMethod::InPlace ? "in place" : "full rewrite",
                    static_cast<unsigned long long>(saved->bytesWritten), ms);
    }
    QFile::remove(model);
}

void benchConvert(const QString& dir, std::uint64_t gib, const QString& outDir)
{
    const std::uint64_t bytes = gib << 30;
    const QString model = dir + QStringLiteral("/bench-convert.safetensors");
    if (!makeModel(model, bytes, 0))
        return;
    std::printf("\n## F32 -> BF16 / F16 conversion of %llu GiB (input in %s, output in %s)\n\n",
                static_cast<unsigned long long>(gib), qPrintable(dir), qPrintable(outDir));
    // Memory bandwidth: a streaming read of an in-memory buffer of the same size.
    std::vector<std::byte> buffer(bytes);
    auto file = SafetensorsFile::open(model);
    if (!file)
        return;
    const auto& src = (*file)->source();
    for (std::uint64_t off = 0; off < bytes; off += 64u << 20)
        (void)src->read((*file)->header().dataOffset() + off,
                        std::span(buffer.data() + off, std::min<std::uint64_t>(64u << 20, bytes - off)));
    const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const double bandwidth = ts::bench::memoryReadGBs(buffer.data(), buffer.size(), threads);
    std::printf("memory read bandwidth (sum of u64 over a %llu GiB buffer, %d threads, best of 3; the "
                "analysis benchmark's measurement): **%.2f GB/s**\n\n",
                static_cast<unsigned long long>(gib), threads, bandwidth);
    // The other ceiling: writing the output's size (half the input) into a new file in the output
    // folder, 1 MiB write() calls at 1 MiB-aligned offsets (as the writer does) of data already in
    // memory, no fsync. On this VM page-cache writes, not the conversion, bound the end-to-end number.
    {
        const QString probe = outDir + QStringLiteral("/bench-convert-write-probe");
        double best = 1e9;
        for (int round = 0; round < 2; ++round) {
            QFile f(probe);
            if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
                break;
            const auto start = Clock::now();
            for (std::uint64_t off = 0; off < bytes / 2; off += 1u << 20)
                f.write(reinterpret_cast<const char*>(buffer.data() + off), 1 << 20);
            f.close();
            best = std::min(best, secondsSince(start));
            QFile::remove(probe);
        }
        std::printf("page-cache write of the output size (%llu MiB, write() of 1 MiB, no fsync, best of 2): "
                    "**%.2f GB/s of output = %.2f GB/s of F32 input**\n\n",
                    static_cast<unsigned long long>(bytes / 2 >> 20),
                    static_cast<double>(bytes / 2) / best / 1e9, static_cast<double>(bytes) / best / 1e9);
    }
    std::printf(
        "| dtype | kernel, memory to 8 MiB chunks, 1 thread (GB/s of F32 read) | %% of memory bandwidth | "
        "report pass on the file (s, GB/s) | write, data done, best of 3 (s, GB/s, %% of memory bandwidth) "
        "| write incl. fsync (s) |\n");
    std::printf("|---|---|---|---|---|---|\n");
    for (Dtype to : {Dtype::BF16, Dtype::F16}) {
        std::vector<std::byte> out(4u << 20);
        double best = 1e9;
        for (int round = 0; round < 3; ++round) {
            ConversionCounts counts;
            const auto start = Clock::now();
            const std::size_t chunk = 2u << 20; // elements
            for (std::size_t e = 0; e < bytes / 4; e += chunk)
                DtypeConverter::convert(Dtype::F32, to, buffer.data() + e * 4, out.data(),
                                        std::min(chunk, bytes / 4 - e), counts);
            best = std::min(best, secondsSince(start));
        }
        const double kernel = static_cast<double>(bytes) / best / 1e9;

        auto m = Checkpoint::open(model);
        ConvertOptions options;
        options.dtype = to;
        auto plan = Converter::plan({m.value()}, options);
        auto start = Clock::now();
        (void)Converter::measure(plan.value());
        const double report = secondsSince(start);

        // Best of three: page-cache writes on this VM vary by 2-4x from one run to the next
        // (writeback of the files written just before), the conversion does not.
        const QString outPath = outDir + QStringLiteral("/bench-convert-out.safetensors");
        double dataDone = 1e9, total = 1e9;
        for (int round = 0; round < 3; ++round) {
            double doneAt = 0;
            start = Clock::now();
            const auto written = ConvertWriter::write(plan.value(), outPath, options,
                                                      {CancelToken(), ProgressSink([&](const Progress& p) {
                                                           if (p.bytesDone == p.bytesTotal)
                                                               doneAt = secondsSince(start);
                                                       })});
            const double t = secondsSince(start);
            if (!written)
                std::fprintf(stderr, "%s\n", qPrintable(written.error().toString()));
            dataDone = std::min(dataDone, doneAt);
            total = std::min(total, t);
            QFile::remove(outPath);
        }
        const double endToEnd = static_cast<double>(bytes) / dataDone / 1e9;
        std::printf("| %s | %.2f | %.0f%% | %.3f s, %.2f GB/s | %.3f s, %.2f GB/s, %.0f%% | %.3f |\n",
                    dtypeNameLatin1(to), kernel, 100 * kernel / bandwidth, report,
                    static_cast<double>(bytes) / report / 1e9, dataDone, endToEnd, 100 * endToEnd / bandwidth,
                    total);
        QFile::remove(outPath);
    }
    QFile::remove(model);
}

// Weight-like values (a sum of uniforms, spread 0.02) from an LCG, for every source dtype.
std::vector<std::byte> kernelInput(Dtype dtype, std::size_t elements)
{
    std::vector<float> f(elements);
    std::uint32_t state = 12345;
    for (float& x : f) {
        float sum = 0;
        for (int k = 0; k < 4; ++k) {
            state = state * 1664525u + 1013904223u;
            sum += static_cast<float>(state >> 8) * (1.0f / 16777216.0f) - 0.5f;
        }
        x = sum * 0.02f;
    }
    const std::size_t size = static_cast<std::size_t>(dtypeBits(dtype) / 8);
    std::vector<std::byte> out(elements * size);
    ConversionCounts ignored;
    if (dtype == Dtype::F32)
        std::memcpy(out.data(), f.data(), out.size());
    else
        DtypeConverter::convert(Dtype::F32, dtype, reinterpret_cast<const std::byte*>(f.data()), out.data(),
                                elements, ignored);
    return out;
}

// CPU time of the calling thread: on a machine shared with other jobs, a kernel's CPU time moves
// far less between runs than its wall time.
double threadCpuSeconds()
{
    timespec t{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

void benchKernels(std::uint64_t mib)
{
    const std::size_t elements = static_cast<std::size_t>(mib << 20) / 4;
    struct Pair {
        Dtype from, to;
        bool simd; // has a kernel of its own; the element-wise pairs get 1/32 of the elements
    };
    const Pair pairs[] = {{Dtype::F32, Dtype::BF16, true},     {Dtype::F32, Dtype::F16, true},
                          {Dtype::BF16, Dtype::F32, true},     {Dtype::F16, Dtype::F32, true},
                          {Dtype::BF16, Dtype::F16, false},    {Dtype::F16, Dtype::BF16, false},
                          {Dtype::F32, Dtype::F8_E4M3, false}, {Dtype::F32, Dtype::F8_E5M2, false},
                          {Dtype::F8_E4M3, Dtype::F32, false}, {Dtype::F8_E4M3, Dtype::BF16, false},
                          {Dtype::F64, Dtype::F32, false},     {Dtype::F32, Dtype::F64, false},
                          {Dtype::F16, Dtype::F64, false}};
    std::vector<std::vector<std::byte>> inputs(kDtypeCount);
    for (const Pair& p : pairs) {
        auto& in = inputs[static_cast<std::size_t>(p.from)];
        if (in.empty())
            in = kernelInput(p.from, elements);
    }
    const auto& f32 = inputs[static_cast<std::size_t>(Dtype::F32)];
    std::printf("## DtypeConverter kernels, %llu Mi elements (element-wise pairs: 1/32 of them), 1 thread, "
                "best of 3\n\nGB/s of input by the thread's CPU time (wall time in brackets)\n\n",
                static_cast<unsigned long long>(elements >> 20));
    std::printf("memory read bandwidth, 1 thread (sum of u64 over the F32 input): %.2f GB/s\n\n",
                ts::bench::memoryReadGBs(f32.data(), f32.size(), 1));
    std::printf("| target |");
    for (const Pair& p : pairs)
        std::printf(" %s->%s |", dtypeNameLatin1(p.from), dtypeNameLatin1(p.to));
    std::printf("\n|---|");
    for (std::size_t i = 0; i < std::size(pairs); ++i)
        std::printf("---|");
    std::printf("\n");
    std::vector<std::byte> out(8u << 20);
    for (const std::int64_t target : ts::bench::simdTargets()) {
        ts::bench::forceSimdTarget(target);
        std::printf("| %s |", hwy::TargetName(target));
        for (const Pair& p : pairs) {
            const auto& in = inputs[static_cast<std::size_t>(p.from)];
            const std::size_t n = p.simd ? elements : elements / 32;
            const std::size_t inSize = static_cast<std::size_t>(dtypeBits(p.from) / 8);
            const std::size_t chunk = out.size() / static_cast<std::size_t>(dtypeBits(p.to) / 8);
            double bestCpu = 1e9, bestWall = 1e9;
            for (int round = 0; round < 3; ++round) {
                ConversionCounts counts;
                const auto start = Clock::now();
                const double cpu0 = threadCpuSeconds();
                for (std::size_t e = 0; e < n; e += chunk)
                    DtypeConverter::convert(p.from, p.to, in.data() + e * inSize, out.data(),
                                            std::min(chunk, n - e), counts);
                bestCpu = std::min(bestCpu, threadCpuSeconds() - cpu0);
                bestWall = std::min(bestWall, secondsSince(start));
            }
            const double bytes = static_cast<double>(n * inSize);
            std::printf(" %.2f (%.2f) |", bytes / bestCpu / 1e9, bytes / bestWall / 1e9);
            std::fflush(stdout);
        }
        std::printf("\n");
    }
    ts::bench::forceSimdTarget(0);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc > 1 && std::strcmp(argv[1], "kernels") == 0) {
        benchKernels(argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 256);
        return 0;
    }
    const QString dir = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("/tmp");
    const std::uint64_t modelGib = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 4;
    const std::uint64_t convertGib = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
    if (modelGib > 0)
        benchResave(dir, modelGib);
    const QString convertOut = argc > 4 ? QString::fromLocal8Bit(argv[4]) : dir;
    if (convertGib > 0)
        benchConvert(dir, convertGib, convertOut);
    return 0;
}
