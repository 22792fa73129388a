#include "checkpoint/DtypeTally.h"

namespace ts {

std::vector<DtypeTotals> DtypeTally::totals() const
{
    std::vector<DtypeTotals> out;
    for (int i = 0; i < kDtypeCount; ++i) {
        DtypeTotals d = m_sums[static_cast<std::size_t>(i)];
        if (d.tensors > 0) {
            d.dtype = static_cast<Dtype>(i);
            out.push_back(d);
        }
    }
    return out;
}

} // namespace ts
