#pragma once
// The memory read bandwidth both benchmarks compare against: every 64-bit word of a resident
// buffer summed by four independent chains on `threads` threads, best of three (GB/s). One
// definition, so "% of memory bandwidth" means the same in the analysis and conversion reports.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

namespace ts::bench {

inline double memoryReadGBs(const void* data, std::size_t size, int threads)
{
    const auto* words = static_cast<const std::uint64_t*>(data);
    const std::size_t n = size / 8;
    double best = 0;
    for (int rep = 0; rep < 3; ++rep) {
        std::atomic<std::uint64_t> sink{0};
        const auto start = std::chrono::steady_clock::now();
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t) {
            pool.emplace_back([&, t] {
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
        for (auto& p : pool)
            p.join();
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        best = std::max(best, static_cast<double>(size) / took.count() / 1e9);
    }
    return best;
}

} // namespace ts::bench
