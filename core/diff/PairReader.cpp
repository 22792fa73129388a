#include "diff/PairReader.h"

#include "analysis/DtypeDecoder.h"

#include <algorithm>
#include <cstring>

namespace ts::diff {

PairReader::PairReader(TensorLocation a, const TensorInfo& infoA, TensorLocation b, const TensorInfo& infoB)
    : m_readerA(std::move(a), infoA.dtype, infoA.name), m_readerB(std::move(b), infoB.dtype, infoB.name),
      m_doubles(!decode::decodesToFloat(infoA.dtype) || !decode::decodesToFloat(infoB.dtype))
{
}

bool PairReader::comparable(Dtype a, Dtype b)
{
    return a != Dtype::C64 && b != Dtype::C64;
}

Result<void> PairReader::forEach(std::uint64_t first, std::uint64_t count, const ReadControl& control,
                                 const std::function<void(const PairRun&)>& fn)
{
    const std::uint64_t end = first + count;
    for (std::uint64_t start = first; start < end; start += kChunk) {
        const std::uint64_t n = std::min(kChunk, end - start);
        const auto len = static_cast<std::size_t>(n);
        if (m_doubles)
            m_bDoubles.resize(std::max(m_bDoubles.size(), len));
        else
            m_bFloats.resize(std::max(m_bFloats.size(), len));
        // B's chunk into the buffer, widened to double when either side needs it.
        Result<void> readB = m_readerB.forEach(start, n, control, [&](const DecodedBlock& block) {
            const auto at = static_cast<std::size_t>(block.firstIndex - start);
            if (!m_doubles) {
                std::memcpy(m_bFloats.data() + at, block.floats, block.count * sizeof(float));
            } else if (block.doubles) {
                std::copy_n(block.doubles, block.count, m_bDoubles.data() + at);
            } else {
                std::copy_n(block.floats, block.count, m_bDoubles.data() + at);
            }
        });
        if (!readB)
            return readB;
        Result<void> readA = m_readerA.forEach(start, n, control, [&](const DecodedBlock& block) {
            const auto at = static_cast<std::size_t>(block.firstIndex - start);
            PairRun run;
            run.firstIndex = block.firstIndex;
            run.count = block.count;
            if (!m_doubles) {
                run.a = block.floats;
                run.b = m_bFloats.data() + at;
            } else {
                if (block.doubles) {
                    run.ad = block.doubles;
                } else {
                    m_aDoubles.resize(std::max(m_aDoubles.size(), block.count));
                    std::copy_n(block.floats, block.count, m_aDoubles.data());
                    run.ad = m_aDoubles.data();
                }
                run.bd = m_bDoubles.data() + at;
            }
            fn(run);
        });
        if (!readA)
            return readA;
    }
    return {};
}

} // namespace ts::diff
