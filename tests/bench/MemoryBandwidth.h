#pragma once
// The memory read bandwidth both benchmarks compare against: every 64-bit word of a resident
// buffer summed by four independent chains on `threads` threads, best of three (GB/s). One
// definition, so "% of memory bandwidth" means the same in the analysis and conversion reports.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace ts::bench {

// Runs `work(t)` for t = 0 ... threads - 1, each on a thread of its own, three rounds, and gives
// `bytes` over the fastest round (GB/s). `beforeRound()` rewinds what the threads share.
template <class Work, class BeforeRound>
double bestOfThreeGBs(double bytes, int threads, const Work& work, const BeforeRound& beforeRound)
{
    double best = 0;
    for (int rep = 0; rep < 3; ++rep) {
        beforeRound();
        const auto start = std::chrono::steady_clock::now();
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t)
            pool.emplace_back([&work, t] { work(t); });
        for (auto& p : pool)
            p.join();
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        best = std::max(best, bytes / took.count() / 1e9);
    }
    return best;
}

template <class Work> double bestOfThreeGBs(double bytes, int threads, const Work& work)
{
    return bestOfThreeGBs(bytes, threads, work, [] {});
}

inline double memoryReadGBs(const void* data, std::size_t size, int threads)
{
    const auto* words = static_cast<const std::uint64_t*>(data);
    const std::size_t n = size / 8;
    std::atomic<std::uint64_t> sink{0};
    return bestOfThreeGBs(static_cast<double>(size), threads, [&](int t) {
        const std::size_t a = n * static_cast<std::size_t>(t) / static_cast<std::size_t>(threads);
        const std::size_t b = n * static_cast<std::size_t>(t + 1) / static_cast<std::size_t>(threads);
        std::uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        std::size_t i = a;
        for (; i + 4 <= b; i += 4) {
            s0 += words[i];
            s1 += words[i + 1];
            s2 += words[i + 2];
            s3 += words[i + 3];
        }
        sink += s0 + s1 + s2 + s3;
    });
}

// The ceiling for a comparison of two files it has just opened, as every Tensorscope command
// maps them: both files mapped without MAP_POPULATE and compared with memcmp in 4 MiB pieces on
// `threads` threads (each thread its share), the pages dropped in 64 MiB batches as the readers
// do (core/io/PageReleaser), then unmapped; best of three (GB/s of both files' bytes). The files
// must be the same size and in the page cache. Against memoryReadGBs on a resident buffer, the
// difference is the kernel's cost of mapping each page on first touch and unmapping it again,
// which no reader of a freshly opened mapping avoids (MADV_POPULATE_READ, and read() into a
// buffer, measured no faster here). A summing loop instead of memcmp measured slower.
inline double freshMappingCompareGBs(const std::string& pathA, const std::string& pathB, int threads)
{
    double best = 0;
    for (int rep = 0; rep < 3; ++rep) {
        std::atomic<std::uint64_t> sink{0};
        const auto start = std::chrono::steady_clock::now();
        const int fa = ::open(pathA.c_str(), O_RDONLY), fb = ::open(pathB.c_str(), O_RDONLY);
        if (fa < 0 || fb < 0)
            return 0;
        const auto size = static_cast<std::size_t>(::lseek(fa, 0, SEEK_END));
        if (static_cast<std::size_t>(::lseek(fb, 0, SEEK_END)) != size)
            return 0;
        auto* a = static_cast<char*>(::mmap(nullptr, size, PROT_READ, MAP_SHARED, fa, 0));
        auto* b = static_cast<char*>(::mmap(nullptr, size, PROT_READ, MAP_SHARED, fb, 0));
        if (a == MAP_FAILED || b == MAP_FAILED)
            return 0;
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t) {
            pool.emplace_back([&, t] {
                constexpr std::size_t kPiece = 4u << 20, kBatch = 64u << 20;
                const std::size_t from =
                    size * static_cast<std::size_t>(t) / static_cast<std::size_t>(threads) &
                    ~std::size_t(4095);
                const std::size_t to =
                    size * static_cast<std::size_t>(t + 1) / static_cast<std::size_t>(threads);
                std::uint64_t differ = 0;
                std::size_t released = from;
                for (std::size_t p = from; p < to; p += kPiece) {
                    const std::size_t n = std::min(kPiece, to - p);
                    differ += std::memcmp(a + p, b + p, n) != 0;
                    if (p + n - released >= kBatch || p + n == to) {
                        ::madvise(a + released, p + n - released, MADV_DONTNEED);
                        ::madvise(b + released, p + n - released, MADV_DONTNEED);
                        released = (p + n) & ~std::size_t(4095);
                    }
                }
                sink += differ;
            });
        }
        for (auto& p : pool)
            p.join();
        ::munmap(a, size);
        ::munmap(b, size);
        ::close(fa);
        ::close(fb);
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        best = std::max(best, 2.0 * static_cast<double>(size) / took.count() / 1e9);
    }
    return best;
}

} // namespace ts::bench
