#pragma once

#include "base/JobControl.h"
#include "base/Result.h"
#include "checkpoint/Checkpoint.h"
#include "convert/ConvertOptions.h"
#include "convert/ConvertPlan.h"

#include <memory>
#include <vector>

namespace ts {

// Decides what a conversion does (selection, renaming, dtypes, metadata) and measures what it
// would do to the values before anything is written. Writing is ConvertWriter's job.
class Converter {
public:
    // Several inputs (files or sharded models) merge into one tensor list; a tensor name found
    // twice is an error naming both places.
    static Result<ConvertPlan> plan(const std::vector<std::shared_ptr<const Checkpoint>>& inputs,
                                    const ConvertOptions& options);

    // The report pass: runs every conversion into a scratch buffer to count overflows,
    // underflows and NaNs per tensor. Reads the input once; writes nothing. Progress counts the
    // input bytes of the converted tensors; a cancel stops it between chunks of a few MB.
    static Result<void> measure(ConvertPlan& plan, const JobControl& control = {});
};

} // namespace ts
