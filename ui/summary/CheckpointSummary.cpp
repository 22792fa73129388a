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
    s.dtypes = tree.root().byDtype;
    // The table shows the largest modules and one row for the rest: a header of a million
    // top-level names would otherwise make a million rows (and their header sections) nobody reads.
    // Largest first; equal ones in tree order (the position breaks ties, so the order is stable).
    std::vector<std::pair<const NameTreeNode*, std::size_t>> order;
    order.reserve(tree.root().children.size());
    for (const auto& child : tree.root().children)
        order.emplace_back(child.get(), order.size());
    const std::size_t shown = std::min(order.size(), kMaxModulesShown);
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown), order.end(),
                      [](const auto& a, const auto& b) {
                          if (a.first->parameters != b.first->parameters)
                              return a.first->parameters > b.first->parameters;
                          return a.second < b.second;
                      });
    std::vector<const NameTreeNode*> children;
    children.reserve(order.size());
    for (const auto& [node, position] : order)
        children.push_back(node);
    auto shareOf = [&s](std::uint64_t parameters) {
        return s.parameters > 0 ? static_cast<double>(parameters) / static_cast<double>(s.parameters) : 0.0;
    };
    for (std::size_t i = 0; i < shown; ++i) {
        const NameTreeNode* child = children[i];
        s.modules.push_back(ModuleShare{child->segment, child->tensorCount, child->parameters, child->bytes,
                                        shareOf(child->parameters)});
    }
    if (children.size() > shown) {
        ModuleShare rest{QStringLiteral("(%1 more modules)").arg(children.size() - shown), 0, 0, 0, 0.0};
        for (std::size_t i = shown; i < children.size(); ++i) {
            rest.tensors += children[i]->tensorCount;
            rest.parameters += children[i]->parameters;
            rest.bytes += children[i]->bytes;
        }
        rest.share = shareOf(rest.parameters);
        s.modules.push_back(std::move(rest));
    }
    return s;
}

} // namespace ts::ui
