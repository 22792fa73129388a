// Speed and memory of the checkpoint comparison (core/diff) on two 1 GiB F32 models, against the
// machine's memory read bandwidth measured in the same run. Usage:
//   bench_diff DIR    writes a.safetensors, same.safetensors (A's bytes) and changed.safetensors
//                     (every value of A moved a little) into DIR if they are missing, then measures
//                     the identical check (A against same), the full numeric pass (A against
//                     changed) on every SIMD target the pair kernel dispatches to, the rank
//                     estimate of one 4096 x 4096 tensor, and the peak resident memory.
// Each percentage is bytes of both files / time / memory bandwidth. RESULTS.md has the numbers.
#include "../MemoryBandwidth.h"
#include "checkpoint/Checkpoint.h"
#include "diff/CheckpointDiff.h"
#include "diff/DiffKernels.h"

#include <hwy/targets.h>

#include <QCoreApplication>
#include <QFile>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace ts;
using namespace ts::diff;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::uint64_t kGiB = 1ull << 30;

double seconds(Clock::time_point a)
{
    return std::chrono::duration<double>(Clock::now() - a).count();
}

struct BenchTensor {
    std::string name;
    std::uint64_t rows, cols;
};

// 1.0 GiB of F32 shaped like two Llama-7B-style layers (as tests/bench/analysis uses): big
// projections with their norm vectors, in the reference writer's (name) order.
std::vector<BenchTensor> modelTensors()
{
    std::vector<BenchTensor> t;
    t.push_back({"model.layers.0.input_layernorm.weight", 4096, 1});
    t.push_back({"model.layers.0.mlp.down_proj.weight", 4096, 11008});
    t.push_back({"model.layers.0.mlp.gate_proj.weight", 11008, 4096});
    t.push_back({"model.layers.0.mlp.up_proj.weight", 11008, 4096});
    t.push_back({"model.layers.0.post_attention_layernorm.weight", 4096, 1});
    for (const char* p : {"k_proj", "o_proj", "q_proj", "v_proj"})
        t.push_back({std::string("model.layers.0.self_attn.") + p + ".weight", 4096, 4096});
    t.push_back({"model.layers.1.input_layernorm.weight", 4096, 1});
    for (const char* p : {"k_proj", "o_proj", "q_proj", "v_proj"})
        t.push_back({std::string("model.layers.1.self_attn.") + p + ".weight", 4096, 4096});
    return t;
}

std::string header(const std::vector<BenchTensor>& tensors)
{
    std::string h = "{";
    std::uint64_t offset = 0;
    for (const BenchTensor& t : tensors) {
        const std::uint64_t bytes = t.rows * t.cols * 4;
        const std::string shape = t.cols == 1
                                      ? "[" + std::to_string(t.rows) + "]"
                                      : "[" + std::to_string(t.rows) + "," + std::to_string(t.cols) + "]";
        h += (h.size() > 1 ? ",\"" : "\"") + t.name + "\":{\"dtype\":\"F32\",\"shape\":" + shape +
             ",\"data_offsets\":[" + std::to_string(offset) + "," + std::to_string(offset + bytes) + "]}";
        offset += bytes;
    }
    h += "}";
    while (h.size() % 8)
        h += ' ';
    return h;
}

// Weight-like values (normal exponents, random signs and mantissas); `changed` moves every one
// of them by a few units in the last place, as a fine-tune step does.
bool writeModel(const std::string& path, bool changed)
{
    const std::vector<BenchTensor> tensors = modelTensors();
    std::uint64_t bytes = 0;
    for (const BenchTensor& t : tensors)
        bytes += t.rows * t.cols * 4;
    const std::string h = header(tensors);
    FILE* out = std::fopen(path.c_str(), "wb");
    if (!out)
        return false;
    const std::uint64_t n = h.size();
    std::fwrite(&n, 8, 1, out);
    std::fwrite(h.data(), 1, h.size(), out);
    std::vector<std::uint32_t> chunk((8 << 20) / 4);
    std::uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (std::uint64_t done = 0; done < bytes; done += chunk.size() * 4) {
        for (std::uint32_t& u : chunk) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            const auto r = static_cast<std::uint32_t>(seed);
            u = (r & 0x807fffffu) | ((110u + (r >> 23) % 16) << 23);
            // 1 to 8 ulps up or down, the direction independent of the sign: the change has no
            // mean, so it is pure full-rank noise. (Taking the size from the top bits, which
            // hold the sign, made negative values move further than positive ones: a mean
            // shift, which the rank estimate rightly found as one direction.)
            if (changed) {
                const std::uint32_t k = 1 + ((r >> 8) & 7);
                u = (r >> 11) & 1 ? u + k : u - k;
            }
        }
        std::fwrite(chunk.data(), 1, std::min<std::uint64_t>(chunk.size() * 4, bytes - done), out);
    }
    return std::fclose(out) == 0;
}

double mappedReadGBs(const std::string& path, int threads)
{
    const int fd = ::open(path.c_str(), O_RDONLY);
    const auto size = static_cast<std::size_t>(::lseek(fd, 0, SEEK_END));
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
    const double best = ts::bench::memoryReadGBs(map, size, threads);
    ::munmap(map, size);
    ::close(fd);
    return best;
}

double anonymousReadGBs(std::uint64_t bytes, int threads)
{
    std::vector<std::uint64_t> buffer(bytes / 8);
    for (std::size_t i = 0; i < buffer.size(); ++i)
        buffer[i] = i;
    return ts::bench::memoryReadGBs(buffer.data(), bytes, threads);
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

// Resets the peak resident memory to the current one, so the next VmHWM is this phase's.
void resetPeakRss()
{
    QFile clear(QStringLiteral("/proc/self/clear_refs"));
    if (clear.open(QIODevice::WriteOnly))
        clear.write("5");
}

struct Timing {
    double seconds = 1e30;
    std::uint64_t bytes = 0;
    DiffReport::Counts counts;
};

// Best of three full comparisons, each on freshly opened models (no page mapped in the process).
Timing compare(const std::string& a, const std::string& b, int threads)
{
    Timing best;
    for (int rep = 0; rep < 3; ++rep) {
        auto ca = Checkpoint::open(QString::fromStdString(a));
        auto cb = Checkpoint::open(QString::fromStdString(b));
        if (!ca || !cb) {
            std::fprintf(stderr, "cannot open the benchmark files\n");
            std::exit(2);
        }
        DiffOptions options;
        options.threads = threads;
        CheckpointDiff diff(*ca, *cb, options);
        const auto t0 = Clock::now();
        Result<DiffReport> r = diff.run();
        const double s = seconds(t0);
        if (!r) {
            std::fprintf(stderr, "%s\n", qPrintable(r.error().toString()));
            std::exit(2);
        }
        if (s < best.seconds)
            best = {s, r->bytesRead, r->counts()};
    }
    return best;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const std::string dir =
        args.size() > 1 ? args[1].toStdString() : std::string("/tmp/tensorscope-diff-bench");
    ::mkdir(dir.c_str(), 0755);
    const std::string a = dir + "/a.safetensors", same = dir + "/same.safetensors",
                      changed = dir + "/changed.safetensors";
    for (const auto& [path, moved] :
         {std::pair{a, false}, std::pair{same, false}, std::pair{changed, true}}) {
        if (QFile::exists(QString::fromStdString(path)))
            continue;
        std::printf("writing %s\n", path.c_str());
        if (!writeModel(path, moved))
            return 2;
    }
    const int threads = static_cast<int>(std::thread::hardware_concurrency());
    double load[1] = {0};
    ::getloadavg(load, 1);
    std::printf("pair kernel target: %s, %d hardware threads, load average %.2f\n", kernelTarget(), threads,
                load[0]);
    // Warm: every file read once, so each measurement reads cached data, as the bandwidth does.
    compare(a, same, threads);
    compare(a, changed, threads);

    const double fileBw = mappedReadGBs(a, threads);
    const double anonBw = anonymousReadGBs(kGiB, threads);
    const double bw = std::max(fileBw, anonBw);
    std::printf("baseline  memory read, %d threads  %6.2f GB/s  (file mapping %.2f, anonymous memory %.2f)\n",
                threads, bw, fileBw, anonBw);
    // What a comparison of two freshly opened files can reach at best on this machine.
    const double ceiling = ts::bench::freshMappingCompareGBs(a, same, threads);
    std::printf("ceiling   both files freshly mapped, memcmp, %d threads  %6.2f GB/s (%.0f%% of memory bw)\n",
                threads, ceiling, 100 * ceiling / bw);

    resetPeakRss();
    const long rssBefore = peakRssKiB();
    const Timing identical = compare(a, same, threads);
    const long rssIdentical = peakRssKiB();
    const double identicalGBs = static_cast<double>(identical.bytes) / identical.seconds / 1e9;
    std::printf(
        "identical check  A vs a copy: %d identical of %zu  %6.2f GB/s of both files  (%.3f s, %.0f%% of "
        "memory bw, %.0f%% of the fresh-mapping ceiling)\n",
        identical.counts.identical, modelTensors().size(), identicalGBs, identical.seconds,
        100 * identicalGBs / bw, 100 * identicalGBs / ceiling);

    const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
    for (const std::int64_t target : targets) {
        hwy::SetSupportedTargetsForTest(target);
        resetPeakRss();
        const Timing numeric = compare(a, changed, threads);
        const long rssNumeric = peakRssKiB();
        const double gbs = static_cast<double>(numeric.bytes) / numeric.seconds / 1e9;
        std::printf(
            "numeric pass     A vs changed (%-8s): %d changed  %6.2f GB/s of both files  (%.3f s, %.0f%% "
            "of memory bw, %.0f%% of the ceiling, peak RSS %ld MiB)\n",
            kernelTarget(), numeric.counts.changed, gbs, numeric.seconds, 100 * gbs / bw, 100 * gbs / ceiling,
            rssNumeric / 1024);
    }
    hwy::SetSupportedTargetsForTest(0);
    std::printf("peak RSS, identical check: %ld MiB (before: %ld MiB; the files are 3 GiB)\n",
                rssIdentical / 1024, rssBefore / 1024);

    // The rank estimate of one 4096 x 4096 projection (full rank here: the changes are random).
    auto ca = Checkpoint::open(QString::fromStdString(a));
    auto cb = Checkpoint::open(QString::fromStdString(changed));
    DiffReport report;
    report.a = *ca;
    report.b = *cb;
    TensorPair pair;
    pair.a = (*ca)->indexOf(QStringLiteral("model.layers.0.self_attn.q_proj.weight"));
    pair.b = (*cb)->indexOf(QStringLiteral("model.layers.0.self_attn.q_proj.weight"));
    const auto t0 = Clock::now();
    Result<RankEstimate> rank = CheckpointDiff::estimateRank(report, pair, {});
    if (!rank) {
        std::fprintf(stderr, "%s\n", qPrintable(rank.error().toString()));
        return 2;
    }
    std::printf("rank estimate    4096 x 4096: rank %d (%d above noise, sketch %d%s) in %.2f s\n", rank->rank,
                rank->aboveNoise, rank->sketch, rank->lowerBound ? ", at the sketch's limit" : "",
                seconds(t0));
    return 0;
}
