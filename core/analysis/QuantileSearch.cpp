#include "analysis/QuantileSearch.h"

#include "analysis/CodeCounter.h"
#include "analysis/SimdKernels.h"

#include <algorithm>

namespace ts {

QuantileSearch::QuantileSearch(const CodeCounts& prefixes, int keyBits)
    : m_keyBits(keyBits), m_pending(Quantiles::kLevels.size())
{
    // Prefixes that hold only NaN and Inf keys (CodeCounter::addKeyPrefixes counts every value).
    const std::uint32_t lowest = keyBits == 32 ? 0x0080 : 0x0010;
    const std::uint32_t highest = keyBits == 32 ? 0xff7f : 0xffef;
    std::vector<CodeCount> finite;
    for (const CodeCount& e : prefixes.entries()) {
        if (e.code >= lowest && e.code <= highest) {
            finite.push_back(e);
            m_finite += e.count;
        }
    }
    if (m_finite == 0)
        return;
    std::size_t at = 0;
    std::uint64_t below = 0;
    for (std::size_t l = 0; l < Quantiles::kLevels.size(); ++l) {
        const std::uint64_t want = Quantiles::rank(m_finite, Quantiles::kLevels[l]);
        while (below + finite[at].count <= want) {
            below += finite[at].count;
            ++at;
        }
        if (m_targets.empty() || m_targets.back() != finite[at].code)
            m_targets.push_back(finite[at].code);
        m_pending[l] = {m_targets.size() - 1, want - below};
    }
    m_targets32.assign(m_targets.begin(), m_targets.end());
}

std::optional<Quantiles> QuantileSearch::result() const
{
    if (m_finite == 0 || !m_found)
        return std::nullopt;
    Quantiles q;
    for (std::size_t l = 0; l < q.values.size(); ++l)
        q.values[l] = m_keyBits == 32 ? static_cast<double>(floatOfKey(static_cast<std::uint32_t>(m_keys[l])))
                                      : doubleOfKey(m_keys[l]);
    return q;
}

void QuantileSearch::collect(const float* p, std::size_t n, Matches& out) const
{
    if (done())
        return;
    const std::size_t at = out.entries.size();
    out.entries.resize(at + n);
    const std::size_t found =
        simd::matchKeyPrefixes(p, n, m_targets32.data(), m_targets32.size(), out.entries.data() + at);
    out.entries.resize(at + found);
}

void QuantileSearch::collect(const double* p, std::size_t n, Matches& out) const
{
    if (done())
        return;
    const int shift = 64 - m_knownBits;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t key = orderKey(p[i]);
        const std::uint64_t prefix = key >> shift;
        for (std::size_t t = 0; t < m_targets.size(); ++t) {
            if (m_targets[t] == prefix) {
                const auto digit = static_cast<std::uint32_t>((key >> (shift - 16)) & 0xffff);
                out.entries.push_back(static_cast<std::uint32_t>(t << 16) | digit);
                break;
            }
        }
    }
}

void QuantileSearch::add(const Matches& matches)
{
    if (m_digits.empty())
        m_digits.resize(m_targets.size());
    for (const std::uint32_t e : matches.entries) {
        std::vector<std::uint64_t>& table = m_digits[e >> 16];
        if (table.empty())
            table.assign(65536, 0);
        ++table[e & 0xffff];
    }
}

void QuantileSearch::finishPass()
{
    if (done())
        return;
    m_digits.resize(m_targets.size());
    std::vector<std::uint64_t> keys(m_pending.size());
    for (std::size_t l = 0; l < m_pending.size(); ++l) {
        const std::vector<std::uint64_t>& table = m_digits[m_pending[l].target];
        std::uint64_t below = 0;
        std::uint32_t digit = 0;
        // The bucket holds the rank (the first pass counted it), so the walk ends inside the table.
        while (digit < 65535 && (table.empty() || below + table[digit] <= m_pending[l].rank)) {
            below += table.empty() ? 0 : table[digit];
            ++digit;
        }
        keys[l] = (m_targets[m_pending[l].target] << 16) | digit;
        m_pending[l].rank -= below;
    }
    m_digits.clear();
    m_knownBits += 16;
    m_targets.clear();
    for (std::size_t l = 0; l < keys.size(); ++l) {
        if (m_targets.empty() || m_targets.back() != keys[l])
            m_targets.push_back(keys[l]);
        m_pending[l].target = m_targets.size() - 1;
    }
    m_targets32.clear();
    if (m_knownBits == m_keyBits) {
        m_keys = std::move(keys);
        m_found = true;
    }
}

} // namespace ts
