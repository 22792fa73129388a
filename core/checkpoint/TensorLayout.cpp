#include "checkpoint/TensorLayout.h"

namespace ts {

bool sameTensorLayout(const Checkpoint& a, const Checkpoint& b)
{
    const CheckpointTensors& ta = a.tensors();
    const CheckpointTensors& tb = b.tensors();
    if (ta.size() != tb.size() || a.parts().size() != b.parts().size())
        return false;
    for (std::size_t i = 0; i < ta.size(); ++i) {
        const TensorInfo& x = ta[i].info;
        const TensorInfo& y = tb[i].info;
        if (ta[i].part != tb[i].part || x.dtype != y.dtype || x.begin != y.begin || x.end != y.end ||
            x.shape != y.shape || x.name != y.name)
            return false;
    }
    return true;
}

} // namespace ts
