#include "checkpoint/TreeFilter.h"

#include <algorithm>

namespace ts {

TreeFilterResult filterTree(const Checkpoint& model, const NameTree& tree, const TensorNameFilter& filter,
                            const JobControl& control)
{
    TreeFilterResult result;
    result.tree = &tree;
    result.visible.assign(tree.nodeCount(), 0);
    const auto& tensors = model.tensors();
    const std::size_t n = tensors.size();
    constexpr std::size_t kStride = 16384;
    control.progress.begin(n);
    for (std::size_t start = 0; start < n; start += kStride) {
        if (control.cancel.isCancelled()) {
            result.cancelled = true;
            return result;
        }
        const std::size_t end = std::min(n, start + kStride);
        for (std::size_t i = start; i < end; ++i) {
            if (!filter.accepts(tensors[i].info))
                continue;
            ++result.matches;
            // Up to the first node already shown: each node is marked once, so the whole pass is
            // linear in names plus nodes however deep the tree.
            for (NameTree::Node node = tree.nodeForTensor(static_cast<int>(i));
                 node != NameTree::kNone && !(result.visible[node] & TreeFilterResult::kShown);
                 node = tree.parent(node)) {
                result.visible[node] |= TreeFilterResult::kShown;
                if (node != NameTree::kRoot)
                    result.visible[tree.parent(node)] |= TreeFilterResult::kShownChildren;
            }
        }
        control.progress.add(end - start);
    }
    control.progress.flush();
    return result;
}

} // namespace ts
