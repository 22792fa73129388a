#include "diff/PairReader.h"

#include "codec/DtypeDecoder.h"

#include <algorithm>
#include <cstring>
#include <variant>

namespace ts::diff {

namespace {

// The block's values in the form comparable() pairs: floats or doubles (never complex).
const float* floatsOf(const DecodedBlock& block)
{
    const auto* f = std::get_if<DecodedBlock::Floats>(&block.values);
    return f ? f->values : nullptr;
}

const double* doublesOf(const DecodedBlock& block)
{
    const auto* d = std::get_if<DecodedBlock::Doubles>(&block.values);
    return d ? d->values : nullptr;
}

} // namespace

PairReader::PairReader(TensorLocation a, const TensorInfo& infoA, TensorLocation b, const TensorInfo& infoB)
    : m_readerA(std::move(a), infoA.dtype, infoA.name), m_readerB(b, infoB.dtype, infoB.name),
      m_b(std::move(b)), m_nameB(infoB.name),
      m_doubles(!decode::decodesToFloat(infoA.dtype) || !decode::decodesToFloat(infoB.dtype)),
      m_inPlace(!m_doubles && infoB.dtype == Dtype::F32)
{
}

bool PairReader::comparable(Dtype a, Dtype b)
{
    return a != Dtype::C64 && b != Dtype::C64;
}

Result<void> PairReader::forEach(std::uint64_t first, std::uint64_t count, const JobControl& control,
                                 const std::function<void(const PairRun&)>& fn)
{
    const std::uint64_t end = first + count;
    for (std::uint64_t start = first; start < end; start += kChunk) {
        const std::uint64_t n = std::min(kChunk, end - start);
        const auto len = static_cast<std::size_t>(n);
        if (m_doubles)
            m_bDoubles.resize(std::max(m_bDoubles.size(), len));
        else if (!m_inPlace)
            m_bFloats.resize(std::max(m_bFloats.size(), len));
        // B's chunk: F32 blocks are used where the reader left them (the mapping, or its read
        // buffer, which holds the whole chunk: one chunk is less than one read piece), anything
        // decoded is copied out of the reader's block buffer, widened to double when either side
        // needs it.
        const float* inPlace = nullptr;
        bool contiguous = m_inPlace;
        Result<void> readB = m_readerB.forEach(start, n, control, [&](const DecodedBlock& block) {
            const auto at = static_cast<std::size_t>(block.firstIndex - start);
            if (m_inPlace && contiguous) {
                if (at == 0)
                    inPlace = floatsOf(block);
                contiguous = inPlace && floatsOf(block) == inPlace + at;
                if (contiguous)
                    return;
                // Not one run after all: copy what was kept in place, then continue by copying.
                m_bFloats.resize(std::max(m_bFloats.size(), len));
                if (at > 0)
                    std::memcpy(m_bFloats.data(), inPlace, at * sizeof(float));
            }
            if (!m_doubles) {
                std::memcpy(m_bFloats.data() + at, floatsOf(block), block.count * sizeof(float));
            } else if (const double* d = doublesOf(block)) {
                std::copy_n(d, block.count, m_bDoubles.data() + at);
            } else {
                std::copy_n(floatsOf(block), block.count, m_bDoubles.data() + at);
            }
        });
        if (!readB)
            return readB;
        const float* bFloats = m_inPlace && contiguous ? inPlace : m_bFloats.data();
        Result<void> readA = m_readerA.forEach(start, n, control, [&](const DecodedBlock& block) {
            const auto at = static_cast<std::size_t>(block.firstIndex - start);
            PairRun run;
            run.firstIndex = block.firstIndex;
            run.count = block.count;
            if (!m_doubles) {
                run.a = floatsOf(block);
                run.b = bFloats + at;
            } else {
                if (const double* d = doublesOf(block)) {
                    run.ad = d;
                } else {
                    m_aDoubles.resize(std::max(m_aDoubles.size(), block.count));
                    std::copy_n(floatsOf(block), block.count, m_aDoubles.data());
                    run.ad = m_aDoubles.data();
                }
                run.bd = m_bDoubles.data() + at;
            }
            fn(run);
        });
        if (!readA)
            return readA;
        // B's view was checked before its values were used here: a file that shrank since then
        // read zeros, which must not count as values.
        if (m_inPlace && contiguous) {
            const std::uint64_t from = m_b.offset + TensorBlockReader::bytesFor(Dtype::F32, start);
            if (Result<void> intact = m_b.source->checkView(from, n * 4); !intact)
                return makeError(
                    intact.error().code, m_b.source->displayName(),
                    QStringLiteral("cannot read tensor \"%1\": %2").arg(m_nameB, intact.error().message),
                    m_nameB, from);
        }
    }
    return {};
}

} // namespace ts::diff
