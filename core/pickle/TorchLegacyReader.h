#pragma once

#include "base/Result.h"
#include "io/ByteSource.h"
#include "pickle/PickleHeap.h"
#include "pickle/PickleLimits.h"
#include "pickle/TorchContents.h"

namespace ts::pickle {

// The legacy layout of torch.save(..., _use_new_zipfile_serialization=False) and of torch before
// 1.6 (torch/serialization.py _legacy_save / _legacy_load): five pickles one after another (the
// magic number, the protocol version, sys_info, the object, the sorted storage keys), then each
// storage as an 8-byte element count and its bytes. torch.load runs all five pickles with the
// full unpickler, so a global in any of them runs; one public scanner reads only the first.
// A file whose first pickle is no magic number is read as a plain pickle.
class TorchLegacyReader {
public:
    TorchLegacyReader(const ByteSource& source, PickleHeap& heap, const PickleLimits& limits,
                      TorchContents& out)
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
