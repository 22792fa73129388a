#pragma once

#include "analysis/TensorStats.h"
#include "base/CancelToken.h"
#include "base/Diagnostic.h"
#include "base/Result.h"
#include "format/TensorInfo.h"
#include "io/TensorLocation.h"

#include <vector>

namespace ts {

// Finding DeadRows (warning): all-zero rows or columns in a 2-D floating-point weight (a neuron
// that never fires, an embedding row never trained, a pruned output), with the count and the
// first index of each.
//
// Only tensors whose zero count could hold a whole row or column (zeros >= the shorter side) are
// read again, after the scan; trained weights have almost no exact zeros, so a scan of a dense
// model reads nothing more. All-zero tensors are left to AllZero.
class DeadRowFindings {
public:
    // A row (column) counts only when it has at least this many elements: in a [512, 1] head
    // every zero weight would be a "dead row" (the real age/gender model has 11 such zeros,
    // dequantised from 8-bit codes), and a short line of zeros happens by chance.
    static constexpr std::uint64_t kMinLine = 16;

    static Result<std::vector<Diagnostic>> of(const std::vector<TensorStats>& tensors,
                                              const std::vector<TensorLocation>& locations,
                                              const std::vector<const TensorInfo*>& infos,
                                              const CancelToken& cancel = {});
};

} // namespace ts
