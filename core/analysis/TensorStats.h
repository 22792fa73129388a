#pragma once

#include "analysis/Quantiles.h"
#include "base/Boxed.h"
#include "format/Dtype.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace ts {

// How many NaN / Inf positions a ValueStats remembers. The counts are exact; the index lists are
// a sample for messages and for jumping to the first few bad elements.
inline constexpr std::size_t kRecordedIndices = 16;

// Statistics of one stream of values (a real tensor, or one part of a complex tensor). Values are
// decoded to float/double first; integers beyond 2^53 therefore lose exactness in min/max/mean.
// Partial results over consecutive element ranges are combined with mergeFollowing(), which is
// what makes chunked and threaded scans give the same counts and extremes as a sequential one.
struct ValueStats {
    std::uint64_t count = 0;  // elements seen
    std::uint64_t finite = 0; // elements that are neither NaN nor Inf
    std::uint64_t nan = 0;
    std::uint64_t posinf = 0;
    std::uint64_t neginf = 0;
    std::uint64_t zeros = 0;               // +0 and -0
    std::uint64_t subnormals = 0;          // subnormal in the tensor's own dtype (not after decoding)
    std::uint64_t f16Overflow = 0;         // finite with |x| > 65504
    std::uint64_t f16Underflow = 0;        // non-zero, rounds to zero in F16 (|x| <= 2^-25)
    std::uint64_t bf16Underflow = 0;       // non-zero, rounds to zero in BF16 (|x| <= 2^-134)
    std::vector<std::uint64_t> nanIndices; // first kRecordedIndices flat indices
    std::vector<std::uint64_t> infIndices; // first kRecordedIndices flat indices, either sign

    // Over finite values; NaN when there is none.
    double min = 0;
    double max = 0;
    double absmax = 0;
    std::optional<std::uint64_t> absmaxIndex; // first element with |x| == absmax
    double minAbsNonzero = 0;                 // smallest non-zero |x| (for the log histogram)
    double mean = 0;
    double m2 = 0;  // sum of squared deviations from the mean (Chan et al. merge state)
    double std = 0; // population standard deviation (numpy's default ddof=0); set by finalize()
    double l2 = 0;  // sqrt(sum x^2); set by finalize()
    // Of the finite values, when they were asked for (ScanOptions::quantiles, TensorAnalyzer::
    // analyze) and there is a finite value. Not mergeable: mergeFollowing() drops them, and whoever
    // merges computes them for the whole (from code counts or a QuantileSearch).
    Boxed<Quantiles> quantiles;

    // Zeros among all elements (NaN and Inf included); NaN for no elements.
    double zeroShare() const;

    std::optional<std::uint64_t> firstNan() const;
    std::optional<std::uint64_t> firstInf() const;
    // Appends a range that follows this one in element order.
    void mergeFollowing(const ValueStats& next);
    // Derives std and l2 and turns the "no finite value" extremes into NaN.
    void finalize();
    // An empty stream, ready to merge into: extremes at +-infinity.
    static ValueStats empty();
};

// Everything the analysis engine knows about one tensor.
struct TensorStats {
    QString name;
    Dtype dtype = Dtype::F32;
    std::uint64_t elements = 0;
    // Real tensors: the values. C64: the magnitude |z| (NaN when either part is NaN).
    ValueStats values;
    Boxed<ValueStats> real; // C64 only (boxed: every other tensor pays a pointer, not 272 bytes)
    Boxed<ValueStats> imag; // C64 only
    // BOOL only: bytes other than 0 and 1 (the reference accepts them, most readers misread them).
    std::uint64_t nonBinaryBool = 0;
    // Set by the NaN/Inf-only check (ScanOptions::nanInfOnly): of `values` only count, finite,
    // nan, posinf, neginf and the NaN/Inf indices were computed; nothing else is meaningful.
    bool nanInfOnly = false;
    std::optional<std::uint64_t> firstNonBinaryBool;

    void mergeFollowing(const TensorStats& next);
    void finalize();
};

} // namespace ts
