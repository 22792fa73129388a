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
    std::vector<std::pair<NameTree::Node, std::size_t>> order;
    const int count = tree.childCount(NameTree::kRoot);
    order.reserve(static_cast<std::size_t>(count));
    for (int row = 0; row < count; ++row)
        order.emplace_back(tree.child(NameTree::kRoot, row), order.size());
    const std::size_t shown = std::min(order.size(), kMaxModulesShown);
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown), order.end(),
                      [&tree](const auto& a, const auto& b) {
                          if (tree.parameters(a.first) != tree.parameters(b.first))
                              return tree.parameters(a.first) > tree.parameters(b.first);
                          return a.second < b.second;
                      });
    std::vector<NameTree::Node> children;
    children.reserve(order.size());
    for (const auto& [node, position] : order)
        children.push_back(node);
    auto shareOf = [&s](std::uint64_t parameters) {
        return s.parameters > 0 ? static_cast<double>(parameters) / static_cast<double>(s.parameters) : 0.0;
    };
    for (std::size_t i = 0; i < shown; ++i) {
        const NameTree::Node child = children[i];
        s.modules.push_back(ModuleShare{tree.segment(child).toString(), tree.tensorCount(child),
                                        tree.parameters(child), tree.bytes(child),
                                        shareOf(tree.parameters(child))});
    }
    if (children.size() > shown) {
        ModuleShare rest{QStringLiteral("(%1 more modules)").arg(children.size() - shown), 0, 0, 0, 0.0};
        for (std::size_t i = shown; i < children.size(); ++i) {
            rest.tensors += tree.tensorCount(children[i]);
            rest.parameters += tree.parameters(children[i]);
            rest.bytes += tree.bytes(children[i]);
        }
        rest.share = shareOf(rest.parameters);
        s.modules.push_back(std::move(rest));
    }
    return s;
}

} // namespace ts::ui
