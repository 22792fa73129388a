#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

namespace ts::diff {

// What one pass over a block of element pairs (a from checkpoint A, b from B, same flat index)
// finds. Counts are exact; sums are in double. "Compared" elements are those finite on both sides;
// every difference metric is over them, d = b - a.
struct PairSummary {
    static constexpr std::uint32_t kNone = 0xffffffffu;
    // Relative errors are |d| / 2^e, e the exponent of max(|a|, |b|) but at least the floor's: in
    // units of the binade, where half a unit in the last place of w significand bits is exactly
    // 2^-(w+1); below a format's smallest normal its subnormals are evenly spaced, so their
    // rounding error is absolute. 2^-14 is F16's and F8_E5M2's smallest normal, 2^-6 F8_E4M3's.
    // Significand bits are counted above kSmall only.
    static constexpr double kSmall = 0x1p-14;
    static constexpr double kSmallF8 = 0x1p-6;

    std::uint64_t compared = 0;
    std::uint64_t changed = 0; // values that differ; NaN against NaN is no change, +0 against -0 neither
    std::uint64_t nanA = 0, infA = 0, nanB = 0, infB = 0;
    std::uint64_t introduced = 0; // finite in A, NaN or Inf in B
    std::uint64_t removed = 0;    // NaN or Inf in A, finite in B
    double sumAbs = 0, sumSq = 0, sumSqA = 0, sumSqB = 0;
    double maxAbs = 0;
    std::uint32_t maxAbsAt = kNone; // in the block; the first of equal maxima; none while max is 0
    double aAtMax = 0, bAtMax = 0;  // the values there
    std::uint32_t firstIntroduced = kNone, firstRemoved = kNone;
    double minDiff = std::numeric_limits<double>::infinity(),
           maxDiff = -std::numeric_limits<double>::infinity();
    double minA = std::numeric_limits<double>::infinity(), maxA = -std::numeric_limits<double>::infinity();
    double minB = std::numeric_limits<double>::infinity(), maxB = -std::numeric_limits<double>::infinity();
    double maxRelative = 0;   // |d| / 2^e with the floor kSmall
    double maxRelativeF8 = 0; // ... with the floor kSmallF8
    // OR of the significand bits of compared values of at least kSmall, as a double's 52 (a float's
    // 23 shifted up by 29): how many significand bits each side really uses (a BF16 round trip
    // leaves 7).
    std::uint64_t mantissaA = 0, mantissaB = 0;
};

inline std::uint64_t mantissaBits(float v)
{
    return static_cast<std::uint64_t>(std::bit_cast<std::uint32_t>(v) & 0x7fffffu) << 29;
}

inline std::uint64_t mantissaBits(double v)
{
    return std::bit_cast<std::uint64_t>(v) & 0xfffffffffffffull;
}

// The portable pass: the F64 and integer path, the SIMD kernel's tail and its one-lane target.
// `offset` is added to the recorded in-block positions.
template <typename T>
void summarizePairScalar(const T* a, const T* b, std::size_t n, PairSummary& s, std::uint32_t offset = 0)
{
    for (std::size_t i = 0; i < n; ++i) {
        const T x = a[i], y = b[i];
        const bool fa = std::isfinite(x), fb = std::isfinite(y);
        const auto at = static_cast<std::uint32_t>(i) + offset;
        if (!fa || !fb) {
            s.nanA += std::isnan(x);
            s.infA += std::isinf(x);
            s.nanB += std::isnan(y);
            s.infB += std::isinf(y);
            if (fa) {
                if (s.introduced++ == 0)
                    s.firstIntroduced = at;
            } else if (fb) {
                if (s.removed++ == 0)
                    s.firstRemoved = at;
            }
            // NaN against NaN is the same (missing) value; Inf against -Inf is a change.
            s.changed += !(std::isnan(x) && std::isnan(y)) && !(x == y);
            continue;
        }
        ++s.compared;
        s.changed += x != y;
        const double da = static_cast<double>(x), db = static_cast<double>(y);
        const double d = db - da;
        const double ad = std::fabs(d);
        s.sumAbs += ad;
        s.sumSq += d * d;
        s.sumSqA += da * da;
        s.sumSqB += db * db;
        if (ad > s.maxAbs) {
            s.maxAbs = ad;
            s.maxAbsAt = at;
            s.aAtMax = da;
            s.bAtMax = db;
        }
        // In T, as the SIMD kernel has them: the signed range only sets histogram bins, and the
        // relative error of a rounding (b within a factor of two of a) is exact in float.
        const T dt = y - x;
        s.minDiff = std::min(s.minDiff, static_cast<double>(dt));
        s.maxDiff = std::max(s.maxDiff, static_cast<double>(dt));
        s.minA = std::min(s.minA, da);
        s.maxA = std::max(s.maxA, da);
        s.minB = std::min(s.minB, db);
        s.maxB = std::max(s.maxB, db);
        const T den = std::max(std::fabs(x), std::fabs(y));
        const T adt = std::fabs(dt);
        const auto inBinade = [&](int floorExp) {
            constexpr int top = std::numeric_limits<T>::max_exponent - 2;
            const int e = std::clamp(den > 0 ? static_cast<int>(std::ilogb(den)) : floorExp, floorExp, top);
            return static_cast<double>(std::ldexp(adt, -e));
        };
        s.maxRelative = std::max(s.maxRelative, inBinade(-14));
        s.maxRelativeF8 = std::max(s.maxRelativeF8, inBinade(-6));
        if (std::fabs(x) >= static_cast<T>(PairSummary::kSmall))
            s.mantissaA |= mantissaBits(x);
        if (std::fabs(y) >= static_cast<T>(PairSummary::kSmall))
            s.mantissaB |= mantissaBits(y);
    }
}

} // namespace ts::diff
