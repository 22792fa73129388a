#pragma once

#include "pickle/PickleAudit.h"
#include "pickle/PickleHeap.h"
#include "pickle/TensorNamer.h"
#include "pickle/TorchContents.h"

#include <functional>

namespace ts::pickle {

// Where a storage's bytes are, as a layout found them.
struct StorageBytes {
    bool found = false;
    std::uint64_t begin = 0; // absolute file offset
    std::uint64_t bytes = 0; // bytes present in the file from begin
    bool bigEndian = false;
    QString problem; // why it was not found ("data/3 is not in the archive")
};

using StorageLookup = std::function<StorageBytes(const StorageRec&)>;

// Turns named tensors into TorchTensors with their bytes located: checks each against its
// storage (the view must lie inside the storage torch would allocate, and those bytes inside
// the file), leaves out what cannot be shown or converted with a finding that says why, and
// gives a name met twice a "#2" suffix.
void resolveTensors(const PickleHeap& heap, const std::vector<NamedTensor>& named,
                    const StorageLookup& lookup, PickleAudit& audit, std::vector<TorchTensor>& out);

} // namespace ts::pickle
