#pragma once

#include "base/Result.h"
#include "io/ByteSource.h"
#include "pickle/PickleHeap.h"
#include "pickle/PickleLimits.h"
#include "pickle/TorchContents.h"

namespace ts::pickle {

// The tar layout of the first torch releases, which torch.load still reads first of all
// (torch/serialization.py legacy_load): 'storages' holds a pickled count, then per storage a
// pickled (key, location, type), an 8-byte element count and the bytes, then pickled views;
// 'tensors' a pickled count, then per tensor a pickled (key, storage key, type) followed by its
// rank, sizes, strides and offset as raw integers; 'pickle' the object, whose persistent ids
// are tensor or storage keys. Every one of those pickles runs with the full unpickler.
class TorchTarReader {
public:
    TorchTarReader(const ByteSource& source, PickleHeap& heap, const PickleLimits& limits, TorchContents& out)
        : m_source(source), m_heap(heap), m_limits(limits), m_out(out)
    {
    }

    Result<void> read();

private:
    const ByteSource& m_source;
    PickleHeap& m_heap;
    PickleLimits m_limits; // a copy: callers pass temporaries (PickleLimits{})
    TorchContents& m_out;
};

} // namespace ts::pickle
