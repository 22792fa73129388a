#pragma once

#include "analysis/CodeCounts.h"
#include "format/Dtype.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ts {

// Order keys: unsigned integers that sort like the floats they come from (-0 just below +0),
// for counting values by their leading bits (QuantileSearch).
std::uint32_t orderKey(float x);
std::uint64_t orderKey(double x);
float floatOfKey(std::uint32_t key);
double doubleOfKey(std::uint64_t key);

// Counts codes at about a cycle per element into dense 32-bit tables (16-bit codes into one, four
// codes per load; the 16-bit key prefixes of F32 into two interleaved ones, so that runs of one
// prefix do not wait on each other's increments), then hands the counts over as sparse CodeCounts.
// The tables are reused: one counter per thread (forThread()), 512 KiB for 16-bit codes, 1 KiB
// otherwise.
class CodeCounter {
public:
    // The calling thread's counter, emptied and set to `codes` distinct codes (16, 64, 256 or 65536).
    static CodeCounter& forThread(std::uint32_t codes);

    // Counts `n` elements of a coded dtype (decode::isCoded) starting at the first bit of `bytes`.
    void addCodes(Dtype dtype, const std::byte* bytes, std::size_t n);
    // Counts the top 16 bits of the order key of each finite value (NaN and Inf are skipped).
    void addKeyPrefixes(const float* p, std::size_t n);
    void addKeyPrefixes(const double* p, std::size_t n);
    std::uint64_t countOf(std::uint32_t code) const;
    // Whether any code in [from, to) was counted: one pass over that run of the tables.
    bool anyCounted(std::uint32_t from, std::uint32_t to) const;
    std::uint64_t total() const { return m_total; }
    // The counts so far, and an empty counter.
    CodeCounts take();

private:
    void reset(std::uint32_t codes);
    void flushIfNeeded(std::size_t more);

    std::uint32_t m_codes = 0;
    std::vector<std::uint32_t> m_tables; // 2 * m_codes: even and odd elements
    std::vector<std::uint64_t> m_wide;   // flushed counts, only past 2^31 elements
    std::uint64_t m_pending = 0;         // elements in m_tables since the last flush
    std::uint64_t m_total = 0;
};

} // namespace ts
