#pragma once

#include "analysis/TensorStats.h"
#include "base/JobControl.h"
#include "base/Result.h"
#include "format/TensorInfo.h"
#include "io/TensorLocation.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ts {

// Where a tensor's anomalies are: the flat indices of its NaN, +Inf, -Inf and extreme outliers,
// in element order, for walking from one to the next (F3 in the tensor view). Outliers are the
// scan's (ScanFindings::isOutlier: leave-one-out z-score above kOutlierZ against the tensor's other
// finite values), so the walk stops where the heatmap draws an outlier marker and the audit list
// reports one. C64 is walked by magnitude, as its statistics are. Memory is bounded: at most `cap`
// positions are kept (the first ones), while the totals count them all.
class AnomalyIndex {
public:
    enum class Kind : std::uint8_t { NaN, PosInf, NegInf, Outlier };
    static constexpr std::size_t kKinds = 4;
    struct Position {
        std::uint64_t index = 0;
        Kind kind = Kind::NaN;
    };
    static constexpr std::size_t kDefaultCap = 10'000;

    // Whether a tensor with these statistics can hold any anomaly; when not, find() has nothing to
    // read. An outlier exists only if the element farthest from the mean (its max or min) is one:
    // the score grows with the distance.
    static bool mayHoldAny(const ValueStats& stats);

    // Reads the tensor once, in pieces; `stats` are its full statistics (TensorAnalyzer's, or
    // the scan's; not the NaN/Inf-only check's, which has no mean or spread). The control's token
    // is polled between pieces of a few MB, its sink gets the bytes read.
    static Result<AnomalyIndex> find(const TensorLocation& location, const TensorInfo& info,
                                     const ValueStats& stats, const JobControl& control = {},
                                     std::size_t cap = kDefaultCap);

    // The kept positions, in element order.
    const std::vector<Position>& positions() const { return m_positions; }
    // Every anomaly of one kind in the tensor, kept or not.
    std::uint64_t total(Kind kind) const { return m_totals[static_cast<std::size_t>(kind)]; }
    std::uint64_t total() const;
    // More anomalies than were kept: positions() holds the first cap of them.
    bool truncated() const { return m_positions.size() < total(); }
    std::size_t cap() const { return m_cap; }

private:
    void add(std::uint64_t index, Kind kind);

    std::vector<Position> m_positions;
    std::array<std::uint64_t, kKinds> m_totals{};
    std::size_t m_cap = kDefaultCap;
};

} // namespace ts
