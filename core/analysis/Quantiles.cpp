#include "analysis/Quantiles.h"

#include <cmath>

namespace ts {

std::uint64_t Quantiles::rank(std::uint64_t n, double q)
{
    // numpy/lib/function_base.py, _inverted_cdf and _discret_interpolation_to_boundaries.
    const double index = static_cast<double>(n) * q - 1.0;
    const double previous = std::floor(index);
    const double chosen = index - previous == 0 ? previous : previous + 1;
    return chosen < 0 ? 0 : static_cast<std::uint64_t>(chosen);
}

} // namespace ts
