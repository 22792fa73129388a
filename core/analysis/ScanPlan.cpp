#include "analysis/ScanPlan.h"

#include "analysis/NanInfCounter.h"
#include "analysis/ScanFolds.h"
#include "analysis/TensorAnalyzer.h"
#include "analysis/TensorBlockReader.h"
#include "analysis/ValueAccumulator.h"

#include <algorithm>

namespace ts {
namespace {

// Small tensors join one batch until it holds about `chunkBytes`; the caller closes the last.
class Batcher {
public:
    explicit Batcher(std::uint64_t chunkBytes) : m_chunkBytes(chunkBytes) {}

    void add(ScanSegment segment, std::uint64_t bytes, std::vector<ScanItem>& items)
    {
        m_batch.segments.push_back(segment);
        m_batch.bytes += bytes;
        if (m_batch.bytes >= m_chunkBytes)
            close(items);
    }
    void close(std::vector<ScanItem>& items)
    {
        if (!m_batch.segments.empty())
            items.push_back(std::move(m_batch));
        m_batch = {};
    }

private:
    std::uint64_t m_chunkBytes;
    ScanItem m_batch;
};

// A big tensor's chunks: whole ValueAccumulator blocks of about `chunkBytes` each.
void addChunks(ScanTarget& target, std::size_t index, std::uint64_t chunkBytes, std::vector<ScanItem>& items)
{
    const Dtype dtype = target.info->dtype;
    const std::uint64_t elements = target.info->elementCount();
    const std::uint64_t block = ValueAccumulator::kBlock;
    const std::uint64_t perChunk = std::max<std::uint64_t>(
        block, chunkBytes * 8 / static_cast<std::uint64_t>(dtypeBits(dtype)) / block * block);
    for (std::uint64_t first = 0; first < elements; first += perChunk) {
        const std::uint64_t count = std::min(perChunk, elements - first);
        items.push_back({{{index, target.parts++, first, count}}, TensorBlockReader::bytesFor(dtype, count)});
    }
}

std::vector<int> selectedTensors(const Checkpoint& model, const ScanOptions& options)
{
    if (!options.tensors.empty())
        return options.tensors;
    std::vector<int> all(model.tensors().size());
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = static_cast<int>(i);
    return all;
}

} // namespace

Result<ScanPlan> ScanPlan::make(const Checkpoint& model, const ScanOptions& options)
{
    ScanPlan plan;
    plan.firstPass = options.nanInfOnly ? ScanPass::NanInf : ScanPass::Statistics;
    plan.quantiles = options.quantiles && !options.nanInfOnly;
    const std::uint64_t chunkBytes =
        std::max<std::uint64_t>(options.chunkBytes, TensorBlockReader::kReadBytes);
    Batcher batch(chunkBytes);
    const std::vector<int> selected = selectedTensors(model, options);
    plan.targets.reserve(selected.size()); // grown by doubling, 6 MB at the peak of a 100k-tensor check
    for (const int index : selected) {
        if (index < 0 || index >= static_cast<int>(model.tensors().size()))
            return makeError(ErrorCode::InvalidArgument, model.path(),
                             QStringLiteral("tensor index %1 is out of range").arg(index));
        ScanTarget target{model.location(index), &model.tensors()[static_cast<std::size_t>(index)].info, 0};
        if (auto ok = TensorAnalyzer(target.location, *target.info).check(); !ok)
            return ok.error();
        const Dtype dtype = target.info->dtype;
        const std::uint64_t bytes = TensorBlockReader::bytesFor(dtype, target.info->elementCount());
        // The NaN/Inf check reads nothing of a dtype without NaN/Inf codes: only read bytes count.
        if (!options.nanInfOnly || NanInfCounter(dtype).dtypeHasSpecials())
            plan.bytes += bytes;
        plan.laterBytes += bytes * static_cast<std::uint64_t>(
                                       ScanFolds::laterPasses(dtype, options.histogramBins, plan.quantiles));
        const std::size_t t = plan.targets.size();
        if (bytes < chunkBytes) {
            target.parts = 1;
            batch.add({t, 0, 0, target.info->elementCount()}, bytes, plan.items);
        } else {
            addChunks(target, t, chunkBytes, plan.items);
        }
        plan.targets.push_back(target);
    }
    batch.close(plan.items);

    if (options.nanInfOnly && options.histogramBins > 0)
        return makeError(ErrorCode::InvalidArgument, model.path(),
                         QStringLiteral("the NaN/Inf-only check computes no histograms"));
    return plan;
}

} // namespace ts
