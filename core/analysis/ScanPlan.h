#pragma once

#include "analysis/ModelScanner.h"
#include "base/Result.h"
#include "checkpoint/Checkpoint.h"
#include "format/TensorInfo.h"
#include "io/TensorLocation.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ts {

// One tensor of a scan: where its bytes are, and into how many parts its elements are cut.
struct ScanTarget {
    TensorLocation location;
    const TensorInfo* info = nullptr; // the model's own: a plan lives no longer than the scan
    std::size_t parts = 0;
};

// Elements [first, first + count) of target `target`: its `part`-th part, merged in part order.
struct ScanSegment {
    std::size_t target = 0;
    std::size_t part = 0;
    std::uint64_t first = 0;
    std::uint64_t count = 0;
};

// What one worker takes at a time: a chunk of a big tensor, or a batch of small tensors.
struct ScanItem {
    std::vector<ScanSegment> segments;
    std::uint64_t bytes = 0;
};

enum class ScanPass {
    Statistics, // every count, extreme and moment (TensorAnalyzer::statsOfRange)
    NanInf,     // the NaN/Inf counts alone (TensorAnalyzer::nanInfOfRange)
};

// What a scan does, decided before anything is read: the tensors, the work items every pass runs
// over, the first pass, and what the later passes (ScanFolds: histograms and quantile steps of
// dtypes wider than 16 bits) will read. Big tensors are cut into chunks of about ScanOptions::chunkBytes
// (whole ValueAccumulator blocks) and small ones batched to about that size; the boundaries
// depend on the options only, never on the thread count, which is what makes every number of a
// scan identical however many threads run it.
struct ScanPlan {
    std::vector<ScanTarget> targets; // in the order of ScanOptions::tensors (or the model's)
    std::vector<ScanItem> items;     // a big tensor's chunks as it comes, a batch when it is full
    ScanPass firstPass = ScanPass::Statistics;
    bool quantiles = false;       // asked for, and not the NaN/Inf check
    std::uint64_t bytes = 0;      // read by the first pass (the NaN/Inf check reads no dtype without NaN/Inf)
    std::uint64_t laterBytes = 0; // read by the later passes, each tensor as many times as it takes

    // InvalidArgument for a tensor index out of range or histograms with the NaN/Inf check;
    // TensorInvalidInfo for a tensor whose bytes cannot hold its shape.
    static Result<ScanPlan> make(const Checkpoint& model, const ScanOptions& options);

    std::uint64_t bytesOfAllPasses() const { return bytes + laterBytes; }
};

} // namespace ts
