#pragma once

#include "base/Error.h"
#include "format/Dtype.h"
#include "format/TensorInfo.h"
#include "hub/HubQuantization.h"
#include "hub/HubWeights.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ts {

class Checkpoint;

// One dtype's line of the Hub's count.
struct HubDtypeCount {
    Dtype dtype = Dtype::F32;
    std::uint64_t parameters = 0; // as the Hub counts them (packed weights unpacked)
    std::uint64_t elements = 0;   // stored elements of the tensors counted
    std::uint64_t tensors = 0;
};

// The parameter count the Hub shows for a model, with the plain element count beside it.
struct HubParameterCount {
    HubWeights weights;
    bool counted = false;       // false when the Hub finds no weights, or they failed to open (error)
    std::optional<Error> error; // the Hub's weights could not be read
    std::vector<HubDtypeCount>
        dtypes;            // the Hub's parameterCount: dtypes with a counted tensor, in dtype order
    std::uint64_t sum = 0; // of dtypes[].parameters
    // `total_parameters` from the metadata (a single file's __metadata__, an index's metadata):
    // what it says, and what the Hub shows from it (capped at the computed sum).
    std::optional<std::uint64_t> declaredTotal;
    std::optional<std::uint64_t> metadataTotal;
    std::uint64_t elements = 0; // every element of every tensor of the same files
    std::uint64_t tensors = 0;
    std::uint64_t skippedTensors = 0; // scalars, scales, zero points, quantisation state
    std::uint64_t skippedElements = 0;
    QString quantMethod;   // config.json's quant_method, lower case; empty when none
    QString expertDtype;   // config.json's expert_dtype
    QString configProblem; // config.json exists but could not be read: counted without it, as the Hub does

    // The figure the Hub's model page shows: the metadata's total when there is one, else the sum.
    std::uint64_t total() const { return metadataTotal.value_or(sum); }
};

class HubParameterCounter {
public:
    // computeNumOfParamsByDtype over `tensors`: skipped tensors and scalars out, packed ones
    // multiplied, each tensor's count rounded to an integer (Math.round) before it is summed.
    static void count(const std::vector<TensorInfo>& tensors, const HubQuantization& quantization,
                      HubParameterCount& into);
    // What the Hub shows for `opened` (a file, an index or a folder). `checkpoint`, when it was
    // opened from the same files, is counted instead of opening them again.
    static HubParameterCount forLocation(const QString& opened, const Checkpoint* checkpoint);
    // parseTotalParameters: a metadata total the Hub trusts only up to the computed sum.
    static std::optional<std::uint64_t> parseTotal(const QString& text, bool isJsonNumber);
};

} // namespace ts
