#include "summary/CheckpointSummary.h"

#include <algorithm>

namespace ts::ui {

CheckpointSummary summarize(const Checkpoint& model, const NameTree& tree)
{
    CheckpointSummary s;
    s.name = model.displayName();
    s.path = model.path();
    s.fileBytes = model.totalFileBytes();
    s.tensorCount = model.tensors().size();
    s.parameters = model.totalParameters();
    s.tensorBytes = model.totalTensorBytes();
    s.headerBytes = model.headerBytes();
    s.shards = static_cast<int>(model.parts().size());
    s.metadataKeys = model.metadata() ? model.metadata()->size() : 0;
    s.dtypes = tree.byDtype(NameTree::kRoot);
    // The table shows the largest modules and one row for the rest: a header of a million
    // top-level names would otherwise make a million rows (and their header sections) nobody reads.
    // Largest first; equal ones in tree order (the position breaks ties, so the order is stable).
    // Kept in a heap of the shown few, not a sorted copy of every child (67 MB for 4 M names).
    using Ranked = std::pair<NameTree::Node, int>; // node, row
    const auto better = [&tree](const Ranked& a, const Ranked& b) {
        if (tree.parameters(a.first) != tree.parameters(b.first))
            return tree.parameters(a.first) > tree.parameters(b.first);
        return a.second < b.second;
    };
    const int count = tree.childCount(NameTree::kRoot);
    const std::size_t shown = std::min(static_cast<std::size_t>(count), kMaxModulesShown);
    std::vector<Ranked> best; // a heap whose front is the least of the kept
    best.reserve(shown + 1);
    for (int row = 0; row < count; ++row) {
        const Ranked r{tree.child(NameTree::kRoot, row), row};
        if (best.size() == shown && !better(r, best.front()))
            continue;
        best.push_back(r);
        std::push_heap(best.begin(), best.end(), better);
        if (best.size() > shown) {
            std::pop_heap(best.begin(), best.end(), better);
            best.pop_back();
        }
    }
    std::sort(best.begin(), best.end(), better);
    auto shareOf = [&s](std::uint64_t parameters) {
        return s.parameters > 0 ? static_cast<double>(parameters) / static_cast<double>(s.parameters) : 0.0;
    };
    ModuleShare rest{QStringLiteral("(%1 more modules)").arg(static_cast<std::size_t>(count) - shown),
                     tree.tensorCount(NameTree::kRoot), tree.parameters(NameTree::kRoot),
                     tree.bytes(NameTree::kRoot), 0.0};
    for (const auto& [child, row] : best) {
        s.modules.push_back(ModuleShare{tree.segment(child).toString(), tree.tensorCount(child),
                                        tree.parameters(child), tree.bytes(child),
                                        shareOf(tree.parameters(child))});
        rest.tensors -= tree.tensorCount(child);
        rest.parameters -= tree.parameters(child);
        rest.bytes -= tree.bytes(child);
    }
    if (static_cast<std::size_t>(count) > shown) {
        rest.share = shareOf(rest.parameters);
        s.modules.push_back(std::move(rest));
    }
    return s;
}

} // namespace ts::ui
