#pragma once

#include "analysis/CodeCounts.h"
#include "analysis/Histogram.h"
#include "analysis/TensorStats.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ts {

class CodeTable;

// Fills a Histogram in a second pass, once the first pass has found min, max and the smallest
// non-zero magnitude. Builders over different element ranges of one tensor are summed with
// merge(); bin counts are integers, so the order does not matter.
class HistogramBuilder {
public:
    // A bin count comes from users and files: bound it so it cannot exhaust memory.
    static constexpr int kMaxBins = 1'000'000;
    // Above this many log bins the exact std::log10 path is used (the guess would be many bins off).
    static constexpr std::size_t kMaxThresholdBins = 4096;
    // Up to this many bins, float blocks are binned in SIMD and counted in split tables.
    static constexpr std::size_t kMaxSplitBins = 65536;

    // `stats` must be finalized. `bins` is clamped to [1, kMaxBins]. `withLog`: also fill the
    // log10|x| histogram (about as costly again as the linear one).
    HistogramBuilder(const ValueStats& stats, int bins, bool withLog = true);

    void add(const float* p, std::size_t n);
    void add(const double* p, std::size_t n);
    // Every value the counts hold, `count` times each (coded dtypes: one binning per code, so the
    // histogram of any number of elements costs at most 65,536 binnings).
    void add(const CodeTable& table, const CodeCounts& counts);
    void merge(const HistogramBuilder& other);
    const Histogram& histogram() const;

private:
    // Equal-width bins with numpy's edge corrections (np.histogram, numpy/lib/histograms.py).
    struct Axis {
        void init(double lo, double hi, int bins);
        std::size_t index(double x) const;
        std::vector<double> edges;
        double lo = 0;
        double norm = 0;
        double scale = 1; // lo, norm and edges are of value * scale (0.5 when the range overflows)
        std::size_t bins = 0;
    };
    template <typename T> void addBlock(const T* p, std::size_t n);
    void addFloats(const float* p, std::size_t n);
    static void countSplit(const std::uint32_t* index, std::size_t k, std::uint32_t* split,
                           std::size_t stride);
    void fold() const;
    std::size_t logIndex(double magnitude) const;
    void initLogThresholds();

    // Mutable with the split tables below: histogram() is const to its callers, but first folds the
    // pending split counts into this (a cache flush, not a change of the value it stands for).
    mutable Histogram m_hist;
    Axis m_linear;
    Axis m_log;
    // m_thresholds[k]: the smallest |x| whose log10 is >= log edge k. Binning |x| against these
    // gives exactly the bins of binning log10|x| against the edges, without a log10 per value.
    std::vector<double> m_thresholds;
    bool m_oneStep = false; // the log10 guess is always within one bin
    // Float blocks: bins computed in SIMD (simd::linearBins/logBins) with these margins, counted
    // into kSplit interleaved 32-bit tables so runs of one popular bin do not wait on each other's
    // increments; fold() adds them into m_hist before anyone reads it.
    static constexpr std::size_t kSplit = 4;
    double m_linearMargin = 0;
    double m_logMargin = 0;
    bool m_simdLinear = false;
    bool m_simdLog = false;
    mutable std::vector<std::uint32_t> m_split;    // kSplit * (bins + 1)
    mutable std::vector<std::uint32_t> m_splitLog; // kSplit * (log bins + 1)
    mutable std::uint64_t m_pending = 0;           // values counted into the split tables
    bool m_enabled = false;
    bool m_withLog = true;
};

} // namespace ts
