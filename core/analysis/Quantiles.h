#pragma once

#include <array>
#include <cstdint>

namespace ts {

// The quantiles a statistics panel shows, of a tensor's finite values, each one of the values
// (numpy's quantile(method="inverted_cdf"): the smallest value x with at least q * n values <= x).
struct Quantiles {
    static constexpr std::array<double, 7> kLevels = {0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99};
    static constexpr std::array<const char*, 7> kNames = {"p1", "p5", "p25", "p50", "p75", "p95", "p99"};

    std::array<double, 7> values{}; // in the order of kLevels

    // The 0-based rank in the sorted values that numpy's inverted_cdf takes for level q of n
    // values (n > 0), with numpy's float64 steps: i = n * q - 1, floor(i) when i is whole, else
    // floor(i) + 1, and never below 0.
    static std::uint64_t rank(std::uint64_t n, double q);

    bool operator==(const Quantiles&) const = default;
};

} // namespace ts
