#include "ModelSummary.h"

#include <algorithm>

namespace ts::ui {

ModelSummary summarize(const Model& model, const NameTree& tree)
{
    ModelSummary s;
    s.name = model.displayName();
    s.path = model.path();
    s.fileBytes = model.totalFileBytes();
    s.tensorCount = model.tensors().size();
    s.parameters = model.totalParameters();
    s.tensorBytes = model.totalTensorBytes();
    s.headerBytes = model.headerBytes();
    s.shards = static_cast<int>(model.shards().size());
    s.metadataKeys = model.metadata() ? model.metadata()->size() : 0;
    s.dtypes = tree.root().byDtype;
    for (const auto& child : tree.root().children) {
        ModuleShare m{child->segment, child->tensorCount, child->parameters, child->bytes, 0.0};
        if (s.parameters > 0)
            m.share = static_cast<double>(child->parameters) / static_cast<double>(s.parameters);
        s.modules.push_back(std::move(m));
    }
    std::stable_sort(s.modules.begin(), s.modules.end(),
                     [](const ModuleShare& a, const ModuleShare& b) { return a.parameters > b.parameters; });
    return s;
}

} // namespace ts::ui
