#pragma once

#include "pickle/PickleAudit.h"
#include "pickle/PickleHeap.h"
#include "pickle/PickleLimits.h"

#include <QString>

#include <unordered_map>
#include <vector>

namespace ts::pickle {

struct NamedTensor {
    QString name;
    ValueId value = kNoValue; // a Tensor, or a Storage saved on its own
};

// Names the tensors of an unpickled object graph by their path from the root, as the keys of a
// state dict name them: dict keys and list indices joined with '.' ("optimizer_states.0.state").
// A pickled nn.Module keeps its tensors in the _parameters, _buffers and _modules of its state;
// those three are left out of the names, so a whole saved model is named as its state_dict().
// The same tensor reached by two paths (tied weights) gets both names. Bounded: shared
// containers can make 2^40 paths out of a few kilobytes (PickleLimits::maxWalkSteps), and
// nesting is followed to maxWalkDepth.
class TensorNamer {
public:
    TensorNamer(const PickleHeap& heap, const PickleLimits& limits, PickleAudit& audit)
        : m_heap(heap), m_limits(limits), m_audit(audit), m_onPath(heap.size(), 0)
    {
    }

    // Appends the tensors under `root`, each name prefixed with `prefix` (may be empty).
    void name(ValueId root, const QString& prefix);
    const std::vector<NamedTensor>& tensors() const { return m_out; }

private:
    void visit(ValueId v, const QString& path, std::uint32_t depth);
    void visitDictItems(const std::vector<ValueId>& items, const QString& path, std::uint32_t depth,
                        bool module);
    QString keyText(ValueId key) const;
    void addTensor(ValueId v, const QString& path);
    bool stopped() const { return m_stopped; }

    const PickleHeap& m_heap;
    PickleLimits m_limits; // a copy: callers pass temporaries (PickleLimits{})
    PickleAudit& m_audit;
    static constexpr std::uint32_t kMaxVisitsPerContainer = 64;
    std::vector<char> m_onPath;
    std::unordered_map<ValueId, std::uint32_t> m_visits;
    bool m_sharingNoted = false;
    std::vector<NamedTensor> m_out;
    std::uint64_t m_steps = 0;
    bool m_stopped = false;
    bool m_depthNoted = false;
};

} // namespace ts::pickle
