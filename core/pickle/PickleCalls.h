#pragma once

#include "pickle/PickleAudit.h"
#include "pickle/PickleHeap.h"
#include "pickle/PickleLimits.h"

namespace ts::pickle {

// What calling a value means when the callee is an allowed global: the tensor rebuild functions
// make Tensor values, OrderedDict a Dict, torch.Size a Tuple, _codecs.encode bytes, and so on,
// with their arguments checked. Any other callee (an unknown or dangerous global, an object)
// gives an opaque Object holding callee and arguments: nothing is ever run.
class PickleCalls {
public:
    PickleCalls(PickleHeap& heap, PickleAudit& audit, const PickleLimits& limits, QString where)
        : m_heap(heap), m_audit(audit), m_limits(limits), m_where(std::move(where))
    {
    }

    // REDUCE, INST and OBJ. kNoValue after a finding when Python would raise (a call of a str).
    ValueId call(ValueId callee, ValueId args, std::uint64_t offset);
    // NEWOBJ and NEWOBJ_EX: cls.__new__(cls, *args).
    ValueId newObject(ValueId cls, ValueId args, std::uint64_t offset);
    // BUILD: false after a finding when Python would raise.
    bool build(ValueId inst, ValueId state, std::uint64_t offset);

private:
    ValueId rebuildTensor(AllowedKind kind, const std::vector<ValueId>& args, std::uint64_t offset);
    ValueId asParameter(ValueId tensor, ValueId requiresGrad, std::uint64_t offset);
    ValueId opaque(ValueId callee, ValueId args, std::uint64_t offset);
    ValueId valueError(const QString& what, std::uint64_t offset);
    bool uintSequence(ValueId seq, std::vector<std::uint64_t>& out) const;
    const std::vector<ValueId>& argList(ValueId args) const;

    PickleHeap& m_heap;
    PickleAudit& m_audit;
    PickleLimits m_limits; // a copy: callers pass temporaries (PickleLimits{})
    QString m_where;
    std::vector<ValueId> m_noArgs;
};

} // namespace ts::pickle
