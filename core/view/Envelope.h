#pragma once

#include "base/CancelToken.h"
#include "base/Result.h"
#include "format/TensorInfo.h"
#include "io/TensorLocation.h"

#include <cstdint>
#include <vector>

namespace ts {

// A 1-D tensor drawn as at most `buckets` columns, each the min and max of its elements, so a
// single spike in a million values still reaches its full height.
struct Envelope {
    std::vector<double> x;   // first element index of each bucket
    std::vector<double> min; // NaN when the bucket had no finite value
    std::vector<double> max;
    std::uint64_t elements = 0;
    std::uint64_t nonFinite = 0;
};

Result<Envelope> buildEnvelope(const TensorLocation& location, const TensorInfo& info, int buckets,
                               const CancelToken& cancel = {});

} // namespace ts
