#pragma once

#include "base/Result.h"
#include "checkpoint/Checkpoint.h"
#include "convert/ConvertOptions.h"
#include "convert/ConvertPlan.h"

#include <functional>
#include <memory>
#include <vector>

namespace ts {

using ProgressCallback = std::function<bool(std::uint64_t done, std::uint64_t total)>;

// Decides what a conversion does (selection, renaming, dtypes, metadata) and measures what it
// would do to the values before anything is written. Writing is ConvertWriter's job.
class Converter {
public:
    // Several inputs (files or sharded models) merge into one tensor list; a tensor name found
    // twice is an error naming both places.
    static Result<ConvertPlan> plan(const std::vector<std::shared_ptr<const Checkpoint>>& inputs,
                                    const ConvertOptions& options);

    // The report pass: runs every conversion into a scratch buffer to count overflows,
    // underflows and NaNs per tensor. Reads the input once; writes nothing.
    static Result<void> measure(ConvertPlan& plan, const ProgressCallback& progress = {});
};

} // namespace ts
