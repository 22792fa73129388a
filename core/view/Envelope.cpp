#include "view/Envelope.h"

#include "view/ElementReader.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ts {
namespace {

constexpr std::uint64_t kChunk = 1u << 18; // elements per read: bounded memory whatever the tensor

} // namespace

Result<Envelope> buildEnvelope(const TensorLocation& location, const TensorInfo& info, int buckets,
                               const CancelToken& cancel)
{
    Envelope env;
    env.elements = info.elementCount();
    const std::uint64_t n = env.elements;
    const auto b = static_cast<std::size_t>(
        std::min<std::uint64_t>(n, static_cast<std::uint64_t>(std::max(1, buckets))));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    env.min.assign(b, nan);
    env.max.assign(b, nan);
    env.x.resize(b);
    for (std::size_t k = 0; k < b; ++k)
        env.x[k] = static_cast<double>(k * n / b);
    const ElementReader reader(location, info);
    for (std::uint64_t first = 0; first < n; first += kChunk) {
        if (cancel.isCancelled())
            return makeError(ErrorCode::Cancelled, location.source->displayName(),
                             QStringLiteral("The line plot was cancelled."), info.name);
        const std::uint64_t count = std::min(kChunk, n - first);
        Result<std::vector<double>> values = reader.read(first, count);
        if (!values)
            return values.error();
        for (std::uint64_t i = 0; i < count; ++i) {
            const double v = values.value()[i];
            if (!std::isfinite(v)) {
                ++env.nonFinite;
                continue;
            }
            const auto k = static_cast<std::size_t>((first + i) * b / n);
            if (std::isnan(env.min[k]) || v < env.min[k])
                env.min[k] = v;
            if (std::isnan(env.max[k]) || v > env.max[k])
                env.max[k] = v;
        }
    }
    return env;
}

} // namespace ts
