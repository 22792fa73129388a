#pragma once

#include "base/Result.h"
#include "io/ByteSource.h"
#include "pickle/PickleHeap.h"
#include "pickle/PickleLimits.h"
#include "pickle/TorchContents.h"

namespace ts::pickle {

// The zip layout of torch >= 1.6 (torch/serialization.py _load, caffe2/serialize/
// inline_container.cc): <root>/data.pkl is run with a persistent_load that maps
// ('storage', type, key, location, numel) to the stored member <root>/data/<key>, whose bytes
// stay where they are in the file. A zip holding constants.pkl is a TorchScript archive, which
// torch.load hands to torch.jit.load: identified, its tensors listed, nothing run.
class TorchZipReader {
public:
    TorchZipReader(const ByteSource& source, PickleHeap& heap, const PickleLimits& limits, TorchContents& out)
        : m_source(source), m_heap(heap), m_limits(limits), m_out(out)
    {
    }

    // Fails only when the file is no zip archive at all; everything else is a finding.
    Result<void> read();

    // A zip inside the checkpoint: its pickles scanned (torch.load never reads them).
    static void scanNested(const ByteSource& source, std::uint64_t base, PickleHeap& heap,
                           const PickleLimits& limits, PickleAudit& audit, const QString& where, int depth);

private:
    const ByteSource& m_source;
    PickleHeap& m_heap;
    PickleLimits m_limits; // a copy: callers pass temporaries (PickleLimits{})
    TorchContents& m_out;
};

} // namespace ts::pickle
