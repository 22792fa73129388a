#pragma once

#include "analysis/TensorStats.h"
#include "base/CancelToken.h"
#include "base/Diagnostic.h"
#include "base/Result.h"
#include "format/TensorInfo.h"
#include "io/TensorLocation.h"

#include <cstdint>
#include <vector>

namespace ts {

// Finding DuplicateTensor: tensors under different names whose bytes are identical. Info when a
// known tying convention explains it (a language model head sharing the input embedding:
// lm_head / embed_tokens / wte / word_embeddings / shared / embed_in / embed_out /
// cls.predictions.decoder), a warning otherwise.
//
// No hash of every tensor is needed: identical bytes have identical exact statistics (dtype,
// shape, counts, min, max), so only tensors that agree on those are compared, byte for byte,
// after the scan. A model without duplicates costs nothing; one with them costs one more read of
// the duplicated tensors. Constant tensors (all zeros, all ones) are left out: they are equal
// by construction and have their own findings (AllZero, Constant).
class DuplicateFindings {
public:
    static Result<std::vector<Diagnostic>> of(const std::vector<TensorStats>& tensors,
                                              const std::vector<TensorLocation>& locations,
                                              const std::vector<const TensorInfo*>& infos,
                                              const CancelToken& cancel = {});
    // Whether every name of a group of identical tensors is an input or output embedding.
    static bool isKnownTying(const std::vector<QString>& names);
};

} // namespace ts
