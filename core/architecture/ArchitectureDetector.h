#pragma once

#include "architecture/AdapterDetector.h"
#include "architecture/Architecture.h"
#include "format/Metadata.h"
#include "format/TensorInfo.h"

#include <optional>
#include <vector>

namespace ts {

class Checkpoint;

// Reads what a checkpoint is from its tensor names and shapes alone: which family (the
// detectors in this folder), the configuration the shapes give (layers, widths, heads where a
// per-head tensor says, vocabulary, experts), the parts of a pipeline stored together, and what
// the names show to be missing. Nothing here reads config.json: ConfigCheck compares the two.
class ArchitectureDetector {
public:
    // Reads only the few scalar tensors an adapter's alphas are (bytes, through the checkpoint's sources).
    static Architecture detect(const Checkpoint& checkpoint);
    static Architecture detect(const std::vector<const TensorInfo*>& tensors,
                               const std::optional<Metadata>& metadata,
                               const AdapterDetector::ScalarReader& readScalar = {});
    // The same over names already indexed (see NameShapes).
    static Architecture detect(const NameShapes& names, const std::optional<Metadata>& metadata,
                               const AdapterDetector::ScalarReader& readScalar = {});
};

} // namespace ts
