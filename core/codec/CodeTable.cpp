#include "codec/CodeTable.h"

#include "codec/DtypeDecoder.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <mutex>
#include <numeric>

namespace ts {

const CodeTable& CodeTable::of(Dtype dtype)
{
    static std::array<std::once_flag, kDtypeCount> once;
    static std::array<std::unique_ptr<const CodeTable>, kDtypeCount> tables;
    const auto d = static_cast<std::size_t>(dtype);
    std::call_once(once[d], [&] { tables[d].reset(new CodeTable(dtype)); });
    return *tables[d];
}

CodeTable::CodeTable(Dtype dtype) : m_dtype(dtype)
{
    const auto n = static_cast<std::uint32_t>(decode::codeCount(dtype));
    m_values.resize(n);
    const bool wide = dtypeBits(dtype) == 16;
    for (std::uint32_t c = 0; c < n; ++c) {
        const auto lo = static_cast<std::byte>(c & 0xff), hi = static_cast<std::byte>(c >> 8);
        const std::byte bytes[2] = {lo, hi};
        m_values[c] =
            wide ? static_cast<float>(decode::element(dtype, bytes, 0)) : decode::codeValues(dtype)[c];
    }
    for (std::uint32_t c = 0; c < n; ++c) {
        if (std::isfinite(m_values[c]))
            m_byValue.push_back(c);
        else
            m_specials.push_back(c);
    }
    m_byMagnitude = m_byValue;
    std::stable_sort(m_byValue.begin(), m_byValue.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return m_values[a] < m_values[b]; });
    std::stable_sort(m_byMagnitude.begin(), m_byMagnitude.end(), [&](std::uint32_t a, std::uint32_t b) {
        return std::fabs(m_values[a]) > std::fabs(m_values[b]);
    });
    m_rank.assign(n, n);
    for (std::uint32_t r = 0; r < m_byValue.size(); ++r)
        m_rank[m_byValue[r]] = r;
}

} // namespace ts
