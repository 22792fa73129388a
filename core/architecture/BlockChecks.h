#pragma once

#include "architecture/NameShapes.h"
#include "base/Diagnostic.h"

#include <QStringList>

#include <vector>

namespace ts {

// What the names of one run of numbered blocks show without any config: a block missing from
// the run (layers 0-31 without 17: a merge or a conversion dropped it), and a block without a
// tensor that every other block has. Only `tails` are compared (a model's attention and norms),
// because MoE and hybrid models legitimately vary the rest from block to block.
class BlockChecks {
public:
    static std::vector<Diagnostic> check(const NameShapes& names, const BlockRun& run,
                                         const QStringList& tails);
};

} // namespace ts
