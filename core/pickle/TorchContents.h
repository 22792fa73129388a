#pragma once

#include "pickle/PickleAudit.h"
#include "pickle/TorchDtype.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <string>
#include <vector>

namespace ts::pickle {

enum class TorchLayout : std::uint8_t {
    Zip,         // torch >= 1.6: <root>/data.pkl and <root>/data/<key>
    Legacy,      // stacked pickles, then the raw storages
    Tar,         // the first releases: sys_info, pickle, tensors, storages in a tar
    TorchScript, // a zip with constants.pkl: torch.load hands it to torch.jit.load
    Pickle,      // a pickle of something else: no tensor bytes
};

QString torchLayoutName(TorchLayout layout); // "PyTorch zip", ...

// One tensor whose bytes could be found: what it is and where its storage is in the file.
struct TorchTensor {
    QString name;
    Dtype dtype = Dtype::F32;
    int elementSize = 4;
    std::vector<std::uint64_t> shape;
    std::vector<std::uint64_t> stride; // elements
    std::uint64_t storageOffset = 0;   // elements
    std::uint64_t storageBegin = 0;    // absolute file offset of the storage's first byte
    std::uint64_t storageBytes = 0;    // the storage's bytes, all present in the file
    bool bigEndian = false;            // stored byte-swapped (byteorder "big")
    bool complexHalves = false;        // C64: each half swapped on its own
    bool parameter = false;
    QString storageKey;

    std::uint64_t elementCount() const;
    bool contiguous() const; // row-major with no gaps: one range of the file
    std::uint64_t firstByte() const
    {
        return storageBegin + storageOffset * static_cast<std::uint64_t>(elementSize);
    }
    std::uint64_t byteSize() const { return elementCount() * static_cast<std::uint64_t>(elementSize); }
};

// A pickle of the checkpoint, for the disassembly on the Header page.
struct PickleStream {
    QString label;            // "data.pkl"
    std::uint64_t offset = 0; // absolute offset in the file
    std::uint64_t length = 0;
    std::string inflated; // the bytes, when the member was compressed (offset is then the member's)
};

// Everything reading a PyTorch checkpoint found, whatever stopped it.
struct TorchContents {
    TorchLayout layout = TorchLayout::Zip;
    std::vector<TorchTensor> tensors; // in the order of the object tree
    PickleAudit audit;
    std::vector<PickleStream> pickles; // the ones torch.load runs, first the main one
    std::uint64_t pickleBytes = 0;     // their total size: what the checkpoint's "header" is
    std::uint64_t storageBytes = 0;    // bytes of the storages the tensors use
    QStringList members;               // zip or tar members, for TorchScript archives and messages
};

} // namespace ts::pickle
