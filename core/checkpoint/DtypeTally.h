#pragma once

#include "format/Dtype.h"
#include "format/TensorInfo.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ts {

// Per-dtype totals of a set of tensors.
struct DtypeTotals {
    Dtype dtype;
    std::uint64_t tensors = 0;
    std::uint64_t parameters = 0;
    std::uint64_t bytes = 0;
};

// Sums tensors by dtype in one pass, with no allocation per tensor: what `info` and the summary
// need of a model, without building its name tree.
class DtypeTally {
public:
    void add(const TensorInfo& info)
    {
        DtypeTotals& d = m_sums[static_cast<std::size_t>(info.dtype)];
        ++d.tensors;
        d.parameters += info.elementCount();
        d.bytes += info.byteSize();
    }
    // Only the dtypes present, in dtype order.
    std::vector<DtypeTotals> totals() const;

private:
    std::array<DtypeTotals, kDtypeCount> m_sums{};
};

} // namespace ts
