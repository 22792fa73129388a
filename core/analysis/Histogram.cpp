#include "analysis/Histogram.h"

#include <numeric>

namespace ts {

std::uint64_t Histogram::total() const
{
    return std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
}

} // namespace ts
