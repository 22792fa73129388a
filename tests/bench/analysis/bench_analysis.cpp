// Speed and memory of the analysis engine, against the machine's memory bandwidth measured in the
// same run. Usage:
//   bench_analysis prepare DIR    write the benchmark files (1 GiB each: F32, BF16, F16, F8_E4M3, F4
//                                 as one flat tensor; F16 again holding the BF16 file's values;
//                                 F32 again shaped like a model's layers)
//   bench_analysis run DIR [TARGET]  bandwidth baselines, then Tensorscope scans of each file;
//                                 with TARGET (AVX3, AVX2, SSE4, ...: `targets` lists them) the
//                                 SIMD dispatcher is held to that instruction set
//   bench_analysis targets        the SIMD targets this binary carries and this CPU runs
//   bench_analysis rss [DIR]      scan a 32 GiB sparse F32 file and report the peak resident memory
// run_bench.sh runs all three plus numpy on the same F32 file.
#include "../MemoryBandwidth.h"
#include "../SimdTargets.h"
#include "analysis/CodeCounter.h"
#include "analysis/ModelScanner.h"
#include "analysis/SimdKernels.h"
#include "checkpoint/Checkpoint.h"
#include "convert/DtypeConverter.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace ts;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::uint64_t kGiB = 1ull << 30;

struct BenchFile {
    const char* name;
    const char* dtype;
    int bits;
};

const BenchFile kFiles[] = {{"bench_f32", "F32", 32},
                            {"bench_bf16", "BF16", 16},
                            {"bench_f16", "F16", 16},
                            {"bench_f8e4m3", "F8_E4M3", 8},
                            {"bench_f4", "F4", 4}};
// F16 holding the BF16 file's values (each BF16 code rounded to F16): the same values in both
// 16-bit dtypes, as a model converted from one to the other holds. bench_f16 spans 16 binades
// at F16's 10 mantissa bits, 32,768 codes against BF16's 4,096, so its code counts touch 8x the
// table: a difference of data, not of dtype.
const BenchFile kF16SameValues = {"bench_f16_same", "F16", 16};
// F32 too, shaped like a model (modelTensors()) rather than one flat tensor.
const char* const kModelFile = "bench_f32_model";

double seconds(Clock::time_point a)
{
    return std::chrono::duration<double>(Clock::now() - a).count();
}

std::uint64_t xorshift(std::uint64_t& s)
{
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
}

struct BenchTensor {
    std::string name;
    std::uint64_t elements;
    std::string shape; // JSON list
};

// The header the reference writer would produce, padded to 8 bytes with spaces.
std::string header(const char* dtype, int bits, const std::vector<BenchTensor>& tensors)
{
    std::string h = "{";
    std::uint64_t offset = 0;
    for (const BenchTensor& t : tensors) {
        const std::uint64_t bytes = t.elements * static_cast<std::uint64_t>(bits) / 8;
        h += (h.size() > 1 ? ",\"" : "\"") + t.name + "\":{\"dtype\":\"" + dtype + "\",\"shape\":" + t.shape +
             ",\"data_offsets\":[" + std::to_string(offset) + "," + std::to_string(offset + bytes) + "]}";
        offset += bytes;
    }
    h += "}";
    while (h.size() % 8)
        h += ' ';
    return h;
}

// One flat tensor "x" of `bytes`.
std::vector<BenchTensor> oneTensor(std::uint64_t bytes, int bits)
{
    const std::uint64_t elements = bytes * 8 / static_cast<std::uint64_t>(bits);
    return {{"x", elements, "[" + std::to_string(elements) + "]"}};
}

// A model's shapes, 1.0 GiB in F32: two Llama-7B-style layers' projections (4096x4096 and
// 4096x11008) with their norm vectors, in the reference writer's (name) order. Big tensors are
// what real checkpoints hold; a single 1 GiB tensor is the other extreme.
std::vector<BenchTensor> modelTensors()
{
    std::vector<BenchTensor> t;
    auto add = [&](const std::string& name, std::uint64_t rows, std::uint64_t cols) {
        t.push_back({name, rows * cols,
                     cols == 1 ? "[" + std::to_string(rows) + "]"
                               : "[" + std::to_string(rows) + "," + std::to_string(cols) + "]"});
    };
    add("model.layers.0.input_layernorm.weight", 4096, 1);
    add("model.layers.0.mlp.down_proj.weight", 4096, 11008);
    add("model.layers.0.mlp.gate_proj.weight", 11008, 4096);
    add("model.layers.0.mlp.up_proj.weight", 11008, 4096);
    add("model.layers.0.post_attention_layernorm.weight", 4096, 1);
    for (const char* p : {"k_proj", "o_proj", "q_proj", "v_proj"})
        add(std::string("model.layers.0.self_attn.") + p + ".weight", 4096, 4096);
    add("model.layers.1.input_layernorm.weight", 4096, 1);
    for (const char* p : {"k_proj", "o_proj", "q_proj", "v_proj"})
        add(std::string("model.layers.1.self_attn.") + p + ".weight", 4096, 4096);
    return t;
}

bool writeFile(const std::string& path, const BenchFile& f, const std::vector<BenchTensor>& tensors,
               bool sparse, bool fromBf16 = false)
{
    std::uint64_t bytes = 0;
    for (const BenchTensor& t : tensors)
        bytes += t.elements * static_cast<std::uint64_t>(f.bits) / 8;
    const std::string h = header(f.dtype, f.bits, tensors);
    FILE* out = std::fopen(path.c_str(), "wb");
    if (!out) {
        std::fprintf(stderr, "cannot write %s: %s\n", path.c_str(), std::strerror(errno));
        return false;
    }
    const std::uint64_t n = h.size();
    std::fwrite(&n, 8, 1, out);
    std::fwrite(h.data(), 1, h.size(), out);
    if (sparse) { // a hole: reads as zeros, costs no disk
        std::fflush(out);
        const bool ok = ::ftruncate(fileno(out), static_cast<off_t>(8 + n + bytes)) == 0;
        std::fclose(out);
        return ok;
    }
    std::vector<std::uint8_t> chunk(8 << 20);
    std::uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (std::uint64_t done = 0; done < bytes; done += chunk.size()) {
        for (std::size_t i = 0; i < chunk.size(); i += 8) {
            const std::uint64_t r = xorshift(seed);
            std::memcpy(&chunk[i], &r, 8);
        }
        // Keep every value finite and weight-like: clamp exponents per dtype.
        if (f.bits == 32) {
            for (std::size_t i = 0; i < chunk.size(); i += 4) {
                std::uint32_t u;
                std::memcpy(&u, &chunk[i], 4);
                u = (u & 0x807fffffu) | ((110u + (u >> 23) % 16) << 23);
                std::memcpy(&chunk[i], &u, 4);
            }
        } else if (f.bits == 16) {
            const bool bf = fromBf16 || std::strcmp(f.dtype, "BF16") == 0;
            for (std::size_t i = 0; i < chunk.size(); i += 2) {
                std::uint16_t u;
                std::memcpy(&u, &chunk[i], 2);
                u = bf ? static_cast<std::uint16_t>((u & 0x807f) | ((110u + (u >> 7) % 16) << 7))
                       : static_cast<std::uint16_t>((u & 0x83ff) | ((5u + (u >> 10) % 16) << 10));
                std::memcpy(&chunk[i], &u, 2);
            }
        } else if (f.bits == 8) {
            for (auto& b : chunk)
                b = (b & 0x7f) == 0x7f ? 0x38 : b; // no NaN codes
        }
        if (fromBf16) {
            std::vector<std::uint8_t> f16(chunk.size());
            ConversionCounts ignored;
            DtypeConverter::convert(Dtype::BF16, Dtype::F16, reinterpret_cast<const std::byte*>(chunk.data()),
                                    reinterpret_cast<std::byte*>(f16.data()), chunk.size() / 2, ignored);
            chunk.swap(f16);
        }
        std::fwrite(chunk.data(), 1, std::min<std::uint64_t>(chunk.size(), bytes - done), out);
    }
    return std::fclose(out) == 0;
}

// Drops the file's pages from the page cache (clean pages of an unmapped file: no root needed),
// so the next read comes from disk. Why: the kernel keeps a cached file in folios of the size the
// first reader brought it in with, and a scan of the same bytes differs up to 2x with them (large
// folios are mapped whole per fault, 64 KiB ones 64 KiB at a time). A file left behind by an
// earlier run, half evicted by the 32 GiB RSS check or by the host's memory reclaim, is in an
// unknown state; evicting it and letting the first scan read it back is the state a user's
// second scan of a model sees.
bool evictFromPageCache(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0)
        return false;
    ::fdatasync(fd);
    const bool ok = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
    ::close(fd);
    return ok;
}

// Copies `from` to `to` with write() calls of `piece` bytes at offsets that are multiples of it.
bool copyInPieces(const std::string& from, const std::string& to, std::size_t piece)
{
    const int in = ::open(from.c_str(), O_RDONLY);
    const int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<char> buf(piece);
    bool ok = in >= 0 && out >= 0;
    for (ssize_t n = 0; ok && (n = ::read(in, buf.data(), piece)) > 0;)
        ok = ::write(out, buf.data(), static_cast<std::size_t>(n)) == n;
    if (in >= 0)
        ::close(in);
    if (out >= 0)
        ok = ::close(out) == 0 && ok;
    return ok;
}

// (a) Memory read bandwidth: sum every 64-bit word of the file's pages, already mapped and
// resident, on `threads` threads. This is the ceiling for any reader of cached data.
double streamingReadGBs(const std::string& path, int threads)
{
    const int fd = ::open(path.c_str(), O_RDONLY);
    const auto size = static_cast<std::size_t>(::lseek(fd, 0, SEEK_END));
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
    const double best = ts::bench::memoryReadGBs(map, size, threads);
    ::munmap(map, size);
    ::close(fd);
    return best;
}

// The same loop over `bytes` of anonymous memory, written first so every page is resident.
double anonymousReadGBs(std::uint64_t bytes, int threads)
{
    std::vector<std::uint64_t> buffer(bytes / 8);
    for (std::size_t i = 0; i < buffer.size(); ++i)
        buffer[i] = i;
    return ts::bench::memoryReadGBs(buffer.data(), bytes, threads);
}

// The ceiling of an exact one-pass histogram of 16-bit codes on this machine: every code read
// from a populated mapping and counted by the product's counting loop (CodeCounter::addCodes) in
// the thread's own table, nothing else (no statistics, no page faults, no chunking). Counting costs
// a load and a store per element, so on a fast memory system it is the CPU, not the bandwidth,
// that bounds BF16/F16 histograms.
double countingLoopGBs(const std::string& path, int threads)
{
    const int fd = ::open(path.c_str(), O_RDONLY);
    const auto size = static_cast<std::size_t>(::lseek(fd, 0, SEEK_END));
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
    const auto* bytes = static_cast<const std::byte*>(map);
    const std::size_t codes = size / 2;
    std::atomic<std::uint64_t> sink{0};
    const double best = ts::bench::bestOfThreeGBs(static_cast<double>(size), threads, [&](int t) {
        const std::size_t first = codes * static_cast<std::size_t>(t) / static_cast<std::size_t>(threads);
        const std::size_t last = codes * static_cast<std::size_t>(t + 1) / static_cast<std::size_t>(threads);
        CodeCounter& counter = CodeCounter::forThread(65536);
        counter.addCodes(Dtype::BF16, bytes + 2 * first, last - first);
        sink += counter.countOf(0);
        counter.take();
    });
    ::munmap(map, size);
    ::close(fd);
    return best;
}

// What the product's counting loop (CodeCounter, as for BF16) does when nothing misses L1: 16 KiB
// of codes, 1,024 neighbouring codes in a shuffled order, so that the table's touched part (8 KiB)
// stays in L1 too and next to no increment waits on the one before. Only the load, add and store
// per code are left, so a one-pass 16-bit histogram of real weights (whose codes miss L1) stays
// below this line's share of the memory bandwidth unless the count itself gets cheaper per code.
double incrementCeilingGBs(int threads)
{
    constexpr std::size_t kCodes = 8192;
    constexpr int kRounds = 16384; // 256 MiB of codes per thread
    std::vector<std::uint16_t> codes(kCodes);
    std::uint64_t state = 0x9e3779b97f4a7c15ull;
    for (std::size_t i = 0; i < kCodes; ++i)
        codes[i] = static_cast<std::uint16_t>(0x3c00 + i % 1024);
    for (std::size_t i = kCodes - 1; i > 0; --i) { // Fisher-Yates with a fixed xorshift stream
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        std::swap(codes[i], codes[state % (i + 1)]);
    }
    std::atomic<std::uint64_t> sink{0};
    return ts::bench::bestOfThreeGBs(2.0 * kCodes * kRounds * threads, threads, [&](int) {
        CodeCounter& counter = CodeCounter::forThread(65536);
        const auto* bytes = reinterpret_cast<const std::byte*>(codes.data());
        for (int r = 0; r < kRounds; ++r)
            counter.addCodes(Dtype::BF16, bytes, kCodes);
        sink += counter.countOf(0x3c00);
        counter.take();
    });
}

// The same data through pread into a 1 MiB buffer, as the scanner reads it (page cache -> copy).
double preadLoopGBs(const std::string& path, int threads)
{
    const int fd = ::open(path.c_str(), O_RDONLY);
    const auto size = static_cast<std::uint64_t>(::lseek(fd, 0, SEEK_END));
    std::atomic<std::uint64_t> next{0};
    const double best = ts::bench::bestOfThreeGBs(
        static_cast<double>(size), threads,
        [&](int) {
            std::vector<std::uint64_t> buf((1 << 20) / 8);
            for (;;) {
                const std::uint64_t off = next.fetch_add(1 << 20);
                if (off >= size)
                    break;
                if (::pread(fd, buf.data(), 1 << 20, static_cast<off_t>(off)) < 0)
                    break;
            }
        },
        [&] { next = 0; });
    ::close(fd);
    return best;
}

struct ScanTiming {
    double gbs = 0;
    double seconds = 0;
    double cpuSeconds = 0;   // user + system of the whole process: shows how much the CPU was shared
    double crossSeconds = 0; // the findings across tensors (siblings, duplicates, dead rows)
};

double cpuSeconds()
{
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

ScanTiming scanGBs(const QString& path, int bins, int threads, bool logHistogram = true,
                   bool nanInfOnly = false, bool quantiles = false)
{
    ScanTiming best;
    for (int rep = 0; rep < 3; ++rep) {
        // A fresh open each time, as a user's scan starts: no page is mapped in the process yet.
        auto model = Checkpoint::open(path);
        if (!model) {
            std::fprintf(stderr, "%s\n", qPrintable(model.error().toString()));
            std::exit(2);
        }
        ScanOptions o;
        o.histogramBins = bins;
        o.threads = threads;
        o.logHistogram = logHistogram;
        o.nanInfOnly = nanInfOnly;
        o.quantiles = quantiles;
        const auto t0 = Clock::now();
        const double c0 = cpuSeconds();
        auto r = ModelScanner(*model, o).run();
        const double s = seconds(t0);
        const double cpu = cpuSeconds() - c0;
        if (!r) {
            std::fprintf(stderr, "%s\n", qPrintable(r.error().toString()));
            std::exit(2);
        }
        // Bytes of the tensor, not bytes touched: the histogram pass reads the data twice.
        const double gbs = static_cast<double>(r->bytes) / s / 1e9;
        if (gbs > best.gbs)
            best = {gbs, s, cpu, r->crossTensorSeconds};
    }
    return best;
}

double cancelLatencyMs(const QString& path)
{
    auto model = Checkpoint::open(path);
    ScanOptions o;
    o.histogramBins = 256;
    ModelScanner scanner(*model, o);
    // Cancels in full flight: once the workers have reported bytes read, not after a guessed delay.
    std::atomic<std::uint64_t> done{0};
    scanner.setProgressCallback(
        [&done](const ScanProgress& p) {
            done = p.bytesDone;
            done.notify_all();
        },
        10);
    Clock::time_point cancelledAt;
    std::thread t([&] {
        done.wait(0);
        cancelledAt = Clock::now();
        scanner.cancel();
    });
    auto r = scanner.run();
    const auto returned = Clock::now();
    if (done.load() == 0) { // finished before any report: release the canceller
        done = ~0ull;
        done.notify_all();
    }
    t.join();
    return r ? -1 : std::chrono::duration<double, std::milli>(returned - cancelledAt).count();
}

long peakRssKiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').front().toLong();
    }
    return -1;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: bench_analysis prepare|run|rss [DIR]\n");
        return 2;
    }
    const std::string dir = args.size() > 2 ? args[2].toStdString() : std::string("/tmp");
    const int threads = static_cast<int>(std::thread::hardware_concurrency());
    auto pathOf = [&](const BenchFile& f) { return dir + "/" + f.name + ".safetensors"; };

    if (args[1] == QLatin1String("prepare")) {
        QDir().mkpath(QString::fromStdString(dir));
        for (const BenchFile& f : kFiles) {
            if (QFile::exists(QString::fromStdString(pathOf(f))))
                continue;
            std::printf("writing %s\n", pathOf(f).c_str());
            if (!writeFile(pathOf(f), f, oneTensor(kGiB, f.bits), false))
                return 2;
        }
        const std::string same = dir + "/" + kF16SameValues.name + ".safetensors";
        if (!QFile::exists(QString::fromStdString(same))) {
            std::printf("writing %s\n", same.c_str());
            if (!writeFile(same, kF16SameValues, oneTensor(kGiB, 16), false, true))
                return 2;
        }
        const std::string model = dir + "/" + kModelFile + ".safetensors";
        if (!QFile::exists(QString::fromStdString(model))) {
            std::printf("writing %s\n", model.c_str());
            if (!writeFile(model, kFiles[0], modelTensors(), false))
                return 2;
        }
        return 0;
    }
    if (args[1] == QLatin1String("targets")) {
        for (const std::int64_t t : ts::bench::simdTargets())
            std::printf("%s\n", hwy::TargetName(t));
        return 0;
    }
    if (args[1] == QLatin1String("run")) {
        const std::string f32 = pathOf(kFiles[0]);
        if (args.size() > 3) {
            const std::int64_t target = ts::bench::simdTargetNamed(qPrintable(args[3]));
            if (target == 0) {
                std::fprintf(stderr, "no SIMD target %s here (see `bench_analysis targets`)\n",
                             qPrintable(args[3]));
                return 2;
            }
            ts::bench::forceSimdTarget(target);
        }
        double load[1] = {0};
        ::getloadavg(load, 1);
        std::printf("SIMD target: %s%s, %d hardware threads, load average %.2f\n", simd::targetName(),
                    args.size() > 3 ? " (forced)" : "", threads, load[0]);
        // Every file out of the page cache, then read back by a first scan, so each measurement
        // reads cached data in the same state (see evictFromPageCache). The F32 file's first
        // scan, from disk, is reported too.
        double coldF32 = 0;
        for (const BenchFile& f : kFiles) {
            if (!evictFromPageCache(pathOf(f)))
                return 2;
            const auto t0 = Clock::now();
            auto model = Checkpoint::open(QString::fromStdString(pathOf(f)));
            auto first =
                model ? ModelScanner(*model, ScanOptions{}).run() : Result<ScanResult>(model.error());
            if (!first) {
                std::fprintf(stderr, "%s\n", qPrintable(first.error().toString()));
                return 2;
            }
            if (&f == &kFiles[0])
                coldF32 = static_cast<double>(first->bytes) / seconds(t0) / 1e9;
        }
        // The same loop over the file's mapping and over anonymous memory: which of the two is
        // faster depends on how the kernel maps each (PTEs or whole 2 MiB pages) and changes from
        // run to run here, so the ceiling every percentage below is taken against is the larger.
        const double bw1 = streamingReadGBs(f32, 1);
        const double fileN = streamingReadGBs(f32, threads);
        const double anonN = anonymousReadGBs(kGiB, threads);
        const double bwN = std::max(fileN, anonN);
        const double pr = preadLoopGBs(f32, threads);
        std::printf("baseline  memory read, 1 thread            %6.2f GB/s\n", bw1);
        std::printf("baseline  memory read, %d threads           %6.2f GB/s  (file mapping %.2f, anonymous "
                    "memory %.2f)\n",
                    threads, bwN, fileN, anonN);
        std::printf("baseline  pread into 1 MiB buffer, %d thr.  %6.2f GB/s\n", threads, pr);
        // On the BF16 file (4,096 distinct codes) and the F16 one (32,768: 8x the table touched).
        const double countBf16 = countingLoopGBs(pathOf(kFiles[1]), threads);
        const double countF16 = countingLoopGBs(pathOf(kFiles[2]), threads);
        std::printf(
            "baseline  16-bit code counting, %d thr.    %6.2f GB/s  BF16 file, %.2f GB/s F16 file (%.0f%% / "
            "%.0f%% of memory bw: the ceiling of a one-pass 16-bit histogram)\n",
            threads, countBf16, countF16, 100 * countBf16 / bwN, 100 * countF16 / bwN);
        const double ceiling = incrementCeilingGBs(threads);
        std::printf(
            "baseline  16-bit counting, all in L1, %d thr. %6.2f GB/s  (%.0f%% of memory bw: the most "
            "this count does per byte here)\n",
            threads, ceiling, 100 * ceiling / bwN);
        std::printf("tensorscope F32      first scan, from disk     %6.2f GB/s\n", coldF32);
        double bf16Stats = 0; // BF16's statistics bytes/s: F16's goal (parity) on every target
        for (const BenchFile& f : kFiles) {
            const ScanTiming s = scanGBs(QString::fromStdString(pathOf(f)), 0, threads);
            if (&f == &kFiles[1])
                bf16Stats = s.gbs;
            std::printf("tensorscope %-8s stats + NaN/Inf scan     %6.2f GB/s  (%.3f s, cpu %.2f s, %.0f%% "
                        "of memory bw",
                        f.dtype, s.gbs, s.seconds, s.cpuSeconds, 100 * s.gbs / bwN);
            if (&f == &kFiles[2])
                std::printf(", %.2fx BF16", s.gbs / bf16Stats);
            std::printf(")\n");
        }
        // The NaN/Inf check alone (`scan --nan-inf-only`): what numpy's isfinite line measures.
        for (const BenchFile& f : kFiles) {
            if (f.bits == 4) { // E2M1 has no NaN or Inf encoding: the check reads nothing
                std::printf(
                    "tensorscope %-8s NaN/Inf-only check        (no NaN/Inf encoding: nothing to read)\n",
                    f.dtype);
                continue;
            }
            const ScanTiming s = scanGBs(QString::fromStdString(pathOf(f)), 0, threads, false, true);
            std::printf("tensorscope %-8s NaN/Inf-only check        %6.2f GB/s  (%.3f s, cpu %.2f s, %.0f%% "
                        "of memory bw)\n",
                        f.dtype, s.gbs, s.seconds, s.cpuSeconds, 100 * s.gbs / bwN);
        }
        const ScanTiming one = scanGBs(QString::fromStdString(f32), 0, 1);
        std::printf("tensorscope F32      stats, 1 thread         %6.2f GB/s  (%.3f s, cpu %.2f s)\n",
                    one.gbs, one.seconds, one.cpuSeconds);
        const ScanTiming h = scanGBs(QString::fromStdString(f32), 256, threads);
        std::printf("tensorscope F32      stats + 256-bin hist    %6.2f GB/s  (%.3f s, cpu %.2f s, %.0f%% of "
                    "memory bw)\n",
                    h.gbs, h.seconds, h.cpuSeconds, 100 * h.gbs / bwN);
        const ScanTiming hl = scanGBs(QString::fromStdString(f32), 256, threads, false);
        std::printf("tensorscope F32      stats + 256-bin, no log %6.2f GB/s  (%.3f s, cpu %.2f s, %.0f%% of "
                    "memory bw)\n",
                    hl.gbs, hl.seconds, hl.cpuSeconds, 100 * hl.gbs / bwN);
        const QString model = QString::fromStdString(dir + "/" + kModelFile + ".safetensors");
        if (!evictFromPageCache(model.toStdString()))
            return 2;
        scanGBs(model, 0, threads);
        const ScanTiming ms = scanGBs(model, 0, threads);
        std::printf(
            "tensorscope F32 model stats + NaN/Inf scan    %6.2f GB/s  (%.3f s, cpu %.2f s, %.0f%% of "
            "memory bw)\n",
            ms.gbs, ms.seconds, ms.cpuSeconds, 100 * ms.gbs / bwN);
        std::printf("  of which findings across tensors            %.2f ms (%.2f%% of the scan)\n",
                    1e3 * ms.crossSeconds, 100 * ms.crossSeconds / ms.seconds);
        const ScanTiming mh = scanGBs(model, 256, threads);
        std::printf(
            "tensorscope F32 model stats + 256-bin hist    %6.2f GB/s  (%.3f s, cpu %.2f s, %.0f%% of "
            "memory bw)\n",
            mh.gbs, mh.seconds, mh.cpuSeconds, 100 * mh.gbs / bwN);
        // The same F32 file held by the page cache in 64 KiB folios, as writing it 64 KiB at a
        // time leaves it: the kernel then maps (and the scan faults in) 64 KiB per page fault
        // instead of a whole large folio. The scan is the same code; only the page cache differs.
        const std::string smallFolios = dir + "/bench_f32_64k.safetensors";
        if (!copyInPieces(f32, smallFolios, 64 << 10))
            return 2;
        const ScanTiming sf = scanGBs(QString::fromStdString(smallFolios), 0, threads);
        ::unlink(smallFolios.c_str());
        std::printf(
            "tensorscope F32, cached in 64 KiB folios      %6.2f GB/s  (%.3f s, cpu %.2f s, %.0f%% of "
            "memory bw)\n",
            sf.gbs, sf.seconds, sf.cpuSeconds, 100 * sf.gbs / bwN);
        // Statistics + 256-bin histogram (+ log10 histogram) of every file, and with quantiles, as
        // `tensorscope-cli stats` and the statistics panel compute them. 16 bits or fewer: one pass.
        const std::string sameValues = dir + "/" + kF16SameValues.name + ".safetensors";
        if (!evictFromPageCache(sameValues))
            return 2;
        scanGBs(QString::fromStdString(sameValues), 0, threads);
        // The same values as the BF16 file: F16 against BF16 with the data held equal (bench_f16
        // spreads over 8x the codes, which a code count feels).
        const ScanTiming same = scanGBs(QString::fromStdString(sameValues), 0, threads);
        std::printf(
            "tensorscope F16 same stats + NaN/Inf scan     %6.2f GB/s  (%.3f s, cpu %.2f s, %.0f%% of "
            "memory bw, %.2fx BF16)\n",
            same.gbs, same.seconds, same.cpuSeconds, 100 * same.gbs / bwN, same.gbs / bf16Stats);
        std::vector<std::pair<std::string, std::string>> histFiles;
        for (const BenchFile& f : kFiles)
            histFiles.emplace_back(f.dtype, pathOf(f));
        histFiles.insert(histFiles.begin() + 3, {"F16 same", sameValues});
        for (const auto& [label, path] : histFiles) {
            const ScanTiming hs = scanGBs(QString::fromStdString(path), 256, threads);
            // "F16 same" holds the BF16 file's values, so its codes spread as BF16's do.
            const double counting = label == "F16"                           ? countF16
                                    : label == "BF16" || label == "F16 same" ? countBf16
                                                                             : 0;
            std::printf("tensorscope %-8s stats + 256-bin hist    %6.2f GB/s  (%.3f s, cpu %.2f s, %.0f%% of "
                        "memory bw",
                        label.c_str(), hs.gbs, hs.seconds, hs.cpuSeconds, 100 * hs.gbs / bwN);
            if (counting > 0)
                std::printf(", %.0f%% of code counting, %.0f%% of counting in L1", 100 * hs.gbs / counting,
                            100 * hs.gbs / ceiling);
            std::printf(")\n");
            const ScanTiming hq = scanGBs(QString::fromStdString(path), 256, threads, true, false, true);
            std::printf("tensorscope %-8s + quantiles             %6.2f GB/s  (%.3f s, cpu %.2f s, %.0f%% of "
                        "memory bw)\n",
                        label.c_str(), hq.gbs, hq.seconds, hq.cpuSeconds, 100 * hq.gbs / bwN);
        }
        const ScanTiming sq = scanGBs(QString::fromStdString(f32), 0, threads, true, false, true);
        std::printf("tensorscope F32      stats + quantiles       %6.2f GB/s  (%.3f s, cpu %.2f s, %.0f%% of "
                    "memory bw)\n",
                    sq.gbs, sq.seconds, sq.cpuSeconds, 100 * sq.gbs / bwN);
        std::printf("cancel latency (stats + histogram scan)      %6.2f ms\n",
                    cancelLatencyMs(QString::fromStdString(f32)));
        return 0;
    }
    if (args[1] == QLatin1String("rss")) {
        const std::string sparse = dir + "/bench_sparse_32g.safetensors";
        const BenchFile f{"bench_sparse_32g", "F32", 32};
        if (!writeFile(sparse, f, oneTensor(32 * kGiB, f.bits), true))
            return 2;
        const long before = peakRssKiB();
        const auto t0 = Clock::now();
        auto model = Checkpoint::open(QString::fromStdString(sparse));
        auto r = model ? ModelScanner(*model).run() : Result<ScanResult>(model.error());
        const double s = seconds(t0);
        ::unlink(sparse.c_str());
        if (!r) {
            std::fprintf(stderr, "%s\n", qPrintable(r.error().toString()));
            return 2;
        }
        std::printf("32 GiB sparse F32: scanned %.1f GiB in %.1f s (%.2f GB/s), zeros=%llu, peak RSS %ld MiB "
                    "(before the scan %ld MiB)\n",
                    static_cast<double>(r->bytes) / kGiB, s, static_cast<double>(r->bytes) / s / 1e9,
                    static_cast<unsigned long long>(r->tensors[0].values.zeros), peakRssKiB() / 1024,
                    before / 1024);
        return 0;
    }
    std::fprintf(stderr, "unknown mode\n");
    return 2;
}
