#pragma once

#include "analysis/TensorBlockReader.h"
#include "base/JobControl.h"
#include "base/Result.h"
#include "format/TensorInfo.h"
#include "io/TensorLocation.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace ts::diff {

// A run of element pairs: a[i] from A and b[i] from B are element firstIndex + i of both tensors.
// Either `a`/`b` are set (both sides decode to float) or `ad`/`bd` (one side needs double: F64
// and the 32- and 64-bit integers).
struct PairRun {
    std::uint64_t firstIndex = 0;
    std::size_t count = 0;
    const float* a = nullptr;
    const float* b = nullptr;
    const double* ad = nullptr;
    const double* bd = nullptr;
};

// Streams two tensors of the same element count side by side, decoded through the analysis
// decoders (TensorBlockReader, so a file truncated under us is an Error and pages are released as
// they are passed). B is decoded a chunk at a time into a buffer that stays in cache (F32 needs no
// decoding and is used in place: the copy cost 13% of a comparison), then A's blocks are handed
// over with the matching slice of it. Memory: two readers and one chunk, whatever the tensors.
// Elements are flat: a reshaped tensor is compared in memory order.
class PairReader {
public:
    static constexpr std::uint64_t kChunk = 1u << 16; // elements of B buffered at a time

    PairReader(TensorLocation a, const TensorInfo& infoA, TensorLocation b, const TensorInfo& infoB);

    // Both dtypes decode to real numbers (C64 does not: it is compared by its bytes only).
    static bool comparable(Dtype a, Dtype b);
    bool usesDoubles() const { return m_doubles; }

    // Calls `fn` for runs of at most ValueAccumulator::kBlock pairs covering [first, first + count),
    // in order. `first` must be a multiple of 8 (sub-byte dtypes start on a byte).
    Result<void> forEach(std::uint64_t first, std::uint64_t count, const JobControl& control,
                         const std::function<void(const PairRun&)>& fn);

private:
    TensorBlockReader m_readerA;
    TensorBlockReader m_readerB;
    TensorLocation m_b;
    QString m_nameB;
    bool m_doubles = false;
    bool m_inPlace = false; // B is F32: its blocks are used where the reader left them
    std::vector<float> m_bFloats;
    std::vector<double> m_bDoubles;
    std::vector<double> m_aDoubles;
};

} // namespace ts::diff
