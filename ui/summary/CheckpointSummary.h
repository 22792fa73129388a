#pragma once

#include "checkpoint/Checkpoint.h"
#include "checkpoint/NameTree.h"
#include "format/Dtype.h"

#include <QString>

#include <vector>

namespace ts::ui {

// A top-level module ("model", "lm_head") and its share of the parameters.
struct ModuleShare {
    QString name;
    std::uint64_t tensors = 0;
    std::uint64_t parameters = 0;
    std::uint64_t bytes = 0;
    double share = 0; // of all parameters, 0..1
};

// The numbers of the summary page, computed once per load.
struct CheckpointSummary {
    QString name;
    QString path;
    std::uint64_t fileBytes = 0;
    std::uint64_t tensorCount = 0;
    std::uint64_t parameters = 0;
    std::uint64_t tensorBytes = 0;
    std::uint64_t headerBytes = 0;
    int shards = 0;
    int metadataKeys = 0;
    std::vector<DtypeTotals> dtypes;  // in dtype order
    std::vector<ModuleShare> modules; // largest first
};

// Top-level modules listed one by one; the rest share one row.
inline constexpr std::size_t kMaxModulesShown = 200;

CheckpointSummary summarize(const Checkpoint& model, const NameTree& tree);

} // namespace ts::ui
