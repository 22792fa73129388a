#pragma once

#include "pickle/PickleAudit.h"
#include "pickle/PickleHeap.h"
#include "pickle/PickleLimits.h"

#include <QString>

#include <cstddef>
#include <span>
#include <unordered_map>
#include <vector>

namespace ts::pickle {

// One pickle stream to run: the bytes it may read (a stream ends at STOP, which the machine
// finds), where they are in the file, and whether torch.load runs it.
struct PickleSource {
    std::span<const std::byte> bytes;
    std::uint64_t base = 0; // absolute file offset of bytes[0]
    QString where;          // for messages: "data.pkl", "the main pickle"
    bool readByTorch = true;
};

// What torch's persistent_load does with a persistent id. Each layout has its own.
class PersistentLoader {
public:
    virtual ~PersistentLoader() = default;
    // Returns the value for `pid`, or kNoValue after adding a finding to stop the run.
    virtual ValueId load(PickleHeap& heap, ValueId pid, std::uint64_t offset, PickleAudit& audit) = 0;
};

struct PickleRun {
    ValueId result = kNoValue;
    bool completed = false; // reached STOP
    std::uint64_t end = 0;  // bytes consumed: just past STOP, or where it stopped
    int protocol = 0;       // the PROTO it declared (0 when none)
    // When it stopped early: what was built so far (the stack bottom up, entries of dicts still
    // waiting for their SETITEMS merged in), so a cut-off state dict still names its tensors.
    std::vector<ValueId> salvage;
    // Bytes values that look like pickles (pickle.loads of a payload held as bytes).
    std::vector<std::pair<ValueId, std::uint64_t>> nestedPickles;
};

// The pickle virtual machine, without its ability to run code: the opcodes of protocols 0 to 5
// build values in a PickleHeap; globals are classified and recorded (PickleAudit), never
// imported; allowed ones are interpreted (PickleCalls), every other call makes an opaque Object.
// Every fault Python's unpickler would raise stops the run with a finding that says where.
class PickleMachine {
public:
    PickleMachine(PickleHeap& heap, PickleAudit& audit, const PickleLimits& limits);

    // Runs from `start` (relative to source.bytes) to STOP. The memo is per run, as in Python.
    PickleRun run(const PickleSource& source, std::uint64_t start, PersistentLoader* loader);

private:
    class Run;
    PickleHeap& m_heap;
    PickleAudit& m_audit;
    PickleLimits m_limits; // a copy: callers pass temporaries (PickleLimits{})
};

// True when `bytes` starts like a pickle of protocol 2 to 5 (PROTO n) and ends with STOP.
bool looksLikePickle(std::span<const std::byte> bytes);

} // namespace ts::pickle
