#include "checkpoint/CheckpointTensors.h"

#include <algorithm>

namespace ts {

void CheckpointTensors::addPart(std::shared_ptr<const std::vector<TensorInfo>> tensors,
                                std::uint64_t dataStart)
{
    const std::size_t count = tensors->size();
    m_parts.push_back(Part{std::move(tensors), m_size, dataStart});
    m_size += count;
}

int CheckpointTensors::partOf(std::size_t i) const
{
    if (m_parts.size() == 1)
        return 0;
    // The last part whose first tensor is at or before i; empty parts share a `first` with the
    // part after them, and upper_bound steps past them.
    const auto it = std::upper_bound(m_parts.begin(), m_parts.end(), i,
                                     [](std::size_t index, const Part& p) { return index < p.first; });
    return static_cast<int>(it - m_parts.begin()) - 1;
}

} // namespace ts
