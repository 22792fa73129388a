#pragma once

#include "base/JobControl.h"
#include "checkpoint/Checkpoint.h"
#include "checkpoint/NameTree.h"
#include "checkpoint/TensorNameFilter.h"

#include <cstdint>
#include <vector>

namespace ts {

// One pass of a name filter over a model's tree: which nodes stay visible (a tensor that matches,
// and every group above one), and how many tensors matched. The window runs it as a job, so a
// regular expression over a header of millions of names never blocks the UI thread; the tree view
// then looks a row up instead of matching it.
struct TreeFilterResult {
    const NameTree* tree = nullptr; // the tree `visible` indexes, for the stale-result check
    // Per node: kShown when shown, kShownChildren when one of its children is. The second answers a
    // tree view's "does this row have an expand arrow" without the view's proxy filtering the
    // children of every row it lays out (90,000 children of one group: 90,000 mappings).
    std::vector<std::uint8_t> visible;
    std::uint64_t matches = 0;
    bool cancelled = false;

    static constexpr std::uint8_t kShown = 1;
    static constexpr std::uint8_t kShownChildren = 2;
    bool shows(NameTree::Node node) const { return node < visible.size() && (visible[node] & kShown); }
    bool showsChildrenOf(NameTree::Node node) const
    {
        return node < visible.size() && (visible[node] & kShownChildren);
    }
};

// Progress counts names (its bytes fields hold name counts), reported at least every 16,384
// names; the cancel token is polled as often. A cancelled run returns what it has with
// `cancelled` set: not a result to show.
TreeFilterResult filterTree(const Checkpoint& model, const NameTree& tree, const TensorNameFilter& filter,
                            const JobControl& control = {});

} // namespace ts
