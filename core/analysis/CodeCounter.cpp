#include "analysis/CodeCounter.h"

#include "analysis/SimdKernels.h"
#include "codec/DtypeDecoder.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace ts {

std::uint32_t orderKey(float x)
{
    const auto u = std::bit_cast<std::uint32_t>(x);
    return u & 0x80000000u ? ~u : u | 0x80000000u;
}

std::uint64_t orderKey(double x)
{
    const auto u = std::bit_cast<std::uint64_t>(x);
    return u >> 63 ? ~u : u | (std::uint64_t{1} << 63);
}

float floatOfKey(std::uint32_t key)
{
    return std::bit_cast<float>(key & 0x80000000u ? key & 0x7fffffffu : ~key);
}

double doubleOfKey(std::uint64_t key)
{
    return std::bit_cast<double>(key >> 63 ? key & ~(std::uint64_t{1} << 63) : ~key);
}

CodeCounter& CodeCounter::forThread(std::uint32_t codes)
{
    thread_local CodeCounter counter;
    counter.reset(codes);
    return counter;
}

void CodeCounter::reset(std::uint32_t codes)
{
    if (m_codes != codes || m_total != 0 || !m_wide.empty()) {
        m_codes = codes;
        m_tables.assign(2 * static_cast<std::size_t>(codes), 0);
        m_wide.clear();
    }
    m_pending = 0;
    m_total = 0;
}

// 32-bit counters: emptied into 64-bit ones before any could wrap (a whole tensor of more than
// 2^31 elements counted at once; a scan's chunks never come near).
void CodeCounter::flushIfNeeded(std::size_t more)
{
    m_total += more;
    m_pending += more;
    if (m_pending < (std::uint64_t{1} << 31))
        return;
    m_wide.resize(m_codes, 0);
    for (std::uint32_t c = 0; c < m_codes; ++c) {
        m_wide[c] += std::uint64_t{m_tables[c]} + m_tables[m_codes + c];
        m_tables[c] = m_tables[m_codes + c] = 0;
    }
    m_pending = more;
}

void CodeCounter::addCodes(Dtype dtype, const std::byte* bytes, std::size_t n)
{
    flushIfNeeded(n);
    if (dtypeBits(dtype) != 16) {
        decode::countCodes(dtype, bytes, n, m_tables.data());
        return;
    }
    // One table, four codes per 64-bit load. The loop is bound by its loads, a code and a counter
    // per element, now a quarter of a code; one table touches one cache line per code, not two.
    // Against a 16-bit load per code into two alternating tables (still used for key prefixes
    // below) this counted 1.3x and more on F16 and BF16 weights, 2x on a run of one code, and
    // the benchmark's in-L1 count 1.4-1.7x, on the AMD EPYC (Zen) of tests/bench. Runs stay fast
    // there because the CPU forwards a store to the next load of its address at once; a CPU that
    // does not may count a long run of one code (an all-zero tensor) slower than two tables did.
    // tests/bench/analysis/RESULTS.md has the numbers.
    static_assert(std::endian::native == std::endian::little, "codes are read four at a time");
    std::uint32_t* table = m_tables.data();
    // The input is prefetched 2 KiB ahead: the hardware prefetcher alone left this loop waiting
    // on memory (see codec/HalfLanes-inl.h, PrefetchAhead).
    std::size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __builtin_prefetch(bytes + 2 * i + 2048);
        for (std::size_t j = i; j < i + 32; j += 4) {
            std::uint64_t four;
            std::memcpy(&four, bytes + 2 * j, 8);
            ++table[four & 0xffff];
            ++table[(four >> 16) & 0xffff];
            ++table[(four >> 32) & 0xffff];
            ++table[four >> 48];
        }
    }
    for (; i < n; ++i) {
        std::uint16_t code;
        std::memcpy(&code, bytes + 2 * i, 2);
        ++table[code];
    }
}

void CodeCounter::addKeyPrefixes(const float* p, std::size_t n)
{
    flushIfNeeded(n);
    // Every value is counted, NaN and Inf too: their prefixes hold nothing finite (below 0x0080 or
    // above 0xff7f), and QuantileSearch leaves those out. The prefixes of a block are made in
    // vectors first, then counted: a key per element made and counted in one scalar loop cost
    // 1.8 ns per value, three times the first pass's statistics (tests/bench/analysis/RESULTS.md).
    constexpr std::size_t kStep = 1024;
    std::uint32_t prefixes[kStep];
    std::uint32_t* even = m_tables.data();
    std::uint32_t* odd = even + m_codes;
    for (std::size_t start = 0; start < n; start += kStep) {
        const std::size_t k = std::min(kStep, n - start);
        simd::keyPrefixes(p + start, k, prefixes);
        std::size_t i = 0;
        for (; i + 2 <= k; i += 2) {
            ++even[prefixes[i]];
            ++odd[prefixes[i + 1]];
        }
        if (i < k)
            ++even[prefixes[i]];
    }
}

void CodeCounter::addKeyPrefixes(const double* p, std::size_t n)
{
    flushIfNeeded(n);
    std::uint32_t* even = m_tables.data();
    for (std::size_t i = 0; i < n; ++i)
        ++even[orderKey(p[i]) >> 48];
}

std::uint64_t CodeCounter::countOf(std::uint32_t code) const
{
    return std::uint64_t{m_tables[code]} + m_tables[m_codes + code] + (m_wide.empty() ? 0 : m_wide[code]);
}

bool CodeCounter::anyCounted(std::uint32_t from, std::uint32_t to) const
{
    to = std::min(to, m_codes);
    from = std::min(from, to);
    const std::uint32_t* even = m_tables.data();
    const std::uint32_t* odd = even + m_codes;
    // OR-ed without an early exit, two counters of each table per 64-bit load and four loads per
    // step (GCC 12 at -O2 left the plain loop scalar: 5% of a BF16 `stats` run).
    std::uint64_t any = 0;
    std::uint32_t c = from;
    for (; c < to && c % 2 != 0; ++c)
        any |= even[c] | odd[c];
    const auto pair = [](const std::uint32_t* at) {
        std::uint64_t v;
        std::memcpy(&v, at, 8);
        return v;
    };
    for (; c + 4 <= to; c += 4)
        any |= pair(even + c) | pair(even + c + 2) | pair(odd + c) | pair(odd + c + 2);
    for (; c < to; ++c)
        any |= even[c] | odd[c];
    if (any != 0)
        return true;
    return !m_wide.empty() &&
           std::any_of(m_wide.begin() + from, m_wide.begin() + to, [](std::uint64_t n) { return n != 0; });
}

CodeCounts CodeCounter::take()
{
    std::vector<CodeCount> entries;
    std::uint32_t* even = m_tables.data();
    std::uint32_t* odd = even + m_codes;
    // Most of a 65,536-entry table is empty for real weights: pairs of empty counters are skipped
    // at once, and only counters that were used are zeroed again.
    const bool wide = !m_wide.empty();
    for (std::uint32_t c = 0; c < m_codes; c += 2) {
        std::uint64_t e, o;
        std::memcpy(&e, even + c, 8);
        std::memcpy(&o, odd + c, 8);
        if ((e | o) == 0 && !wide)
            continue;
        for (std::uint32_t k = c; k < c + 2 && k < m_codes; ++k) {
            if (const std::uint64_t count = countOf(k))
                entries.push_back({k, count});
            even[k] = odd[k] = 0;
        }
    }
    m_wide.clear();
    m_pending = 0;
    m_total = 0;
    return CodeCounts(std::move(entries));
}

} // namespace ts
