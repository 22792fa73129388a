#pragma once

#include "pickle/PickleMachine.h"

namespace ts::pickle {

// Running the pickles of a checkpoint the way torch.load does, and looking into the ones it
// does not run: bytes after a STOP, members torch never reads, pickles held as bytes. Those are
// where a payload hides from a reader that stops where torch stops (or one that goes further
// than torch, which then disagrees with it about the file).
class PickleStreams {
public:
    PickleStreams(PickleHeap& heap, PickleAudit& audit, const PickleLimits& limits)
        : m_heap(heap), m_audit(audit), m_limits(limits)
    {
    }

    // One pickle torch runs; then the pickles held as bytes in it.
    PickleRun runRead(const PickleSource& source, std::uint64_t start, PersistentLoader* loader);
    // Every pickle in bytes torch does not run, one after another while they parse (as
    // picklescan reads a file), with persistent ids accepted as opaque values.
    void scanUnread(const PickleSource& source, std::uint64_t start, int depth = 0);
    // The bytes after a pickle torch runs, which torch never reads: reported, and scanned.
    void trailing(const PickleSource& source, std::uint64_t end, const QString& whatFollows);

private:
    void scanNested(const PickleRun& run, const PickleSource& source, int depth);

    PickleHeap& m_heap;
    PickleAudit& m_audit;
    PickleLimits m_limits; // a copy: callers pass temporaries (PickleLimits{})
};

// The persistent_load of a pickle no layout reads: any id becomes an opaque value.
class OpaquePersistentLoader final : public PersistentLoader {
public:
    ValueId load(PickleHeap& heap, ValueId pid, std::uint64_t offset, PickleAudit& audit) override;
};

} // namespace ts::pickle
