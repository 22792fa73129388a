#pragma once

#include "format/Dtype.h"

#include <cstdint>
#include <vector>

namespace ts {

// Every code of a coded dtype (decode::isCoded: 16 bits or fewer), decoded once: its value, and
// the orders that statistics, quantiles and absmax positions are read off code counts in. Built
// on first use per dtype (about 5 ms for a 16-bit dtype), shared by every thread afterwards.
class CodeTable {
public:
    static const CodeTable& of(Dtype dtype);

    Dtype dtype() const { return m_dtype; }
    std::uint32_t size() const { return static_cast<std::uint32_t>(m_values.size()); }
    float value(std::uint32_t code) const { return m_values[code]; }
    const std::vector<float>& values() const { return m_values; }
    // Codes that decode to NaN or Inf.
    const std::vector<std::uint32_t>& specials() const { return m_specials; }
    // The finite codes by ascending value (ties by code), and each code's place in that order
    // (size() for NaN and Inf codes).
    const std::vector<std::uint32_t>& byValue() const { return m_byValue; }
    std::uint32_t rankOf(std::uint32_t code) const { return m_rank[code]; }
    // The finite codes by descending magnitude (ties by code).
    const std::vector<std::uint32_t>& byMagnitude() const { return m_byMagnitude; }

private:
    explicit CodeTable(Dtype dtype);

    Dtype m_dtype;
    std::vector<float> m_values;
    std::vector<std::uint32_t> m_specials;
    std::vector<std::uint32_t> m_byValue;
    std::vector<std::uint32_t> m_rank;
    std::vector<std::uint32_t> m_byMagnitude;
};

} // namespace ts
