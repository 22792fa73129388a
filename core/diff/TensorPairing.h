#pragma once

#include "checkpoint/Checkpoint.h"
#include "diff/DiffReport.h"
#include "diff/RenameRules.h"

#include <QHash>

#include <cstdint>
#include <vector>

namespace ts::diff {

// Which tensor of A goes with which of B: by name first, then by the user's rename rules, then by
// suggestion for what is left (the same content hash, then the only pair of a shape). What no
// step pairs is removed (only in A) or added (only in B).
class TensorPairing {
public:
    // Name and rule pairs in A's order; the rest in `onlyA` / `onlyB`, in each model's order.
    TensorPairing(const Checkpoint& a, const Checkpoint& b, const RenameRules& rules);

    // Tensors of A and B not paired yet whose content hash is worth computing (some bytes, and a
    // tensor of the same dtype and byte size waiting on the other side).
    std::vector<int> hashCandidatesA() const;
    std::vector<int> hashCandidatesB() const;
    // Pairs tensors with equal hashes (and dtype and shape), in A's order; several tensors of one
    // content (zero-filled, tied) pair in the order of their names.
    void suggestByContent(const QHash<int, std::uint64_t>& hashA, const QHash<int, std::uint64_t>& hashB);
    // Pairs the tensors that are alone with their shape on both sides (empty tensors excepted).
    void suggestByShape();

    std::vector<TensorPair>& pairs() { return m_pairs; }
    const std::vector<int>& onlyA() const { return m_onlyA; }
    const std::vector<int>& onlyB() const { return m_onlyB; }

private:
    void take(std::vector<std::pair<int, int>> matched, PairedBy by);

    const Checkpoint& m_a;
    const Checkpoint& m_b;
    std::vector<TensorPair> m_pairs;
    std::vector<int> m_onlyA;
    std::vector<int> m_onlyB;
};

} // namespace ts::diff
