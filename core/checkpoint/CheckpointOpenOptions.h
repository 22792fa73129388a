#pragma once

namespace ts {

// What the opener of a checkpoint asks beyond reading it.
struct CheckpointOpenOptions {
    // A PyTorch checkpoint whose only problems are structural (bytes after a STOP, a CRC torch
    // does not check, a storage cut short, ...) may still be converted (convert
    // --allow-unsafe-structure). One that would run code never is.
    bool allowUnsafeStructure = false;
};

} // namespace ts
