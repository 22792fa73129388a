#include "diff/CheckpointDiff.h"

#include "analysis/TensorAnalyzer.h"
#include "analysis/ValueAccumulator.h"
#include "base/Format.h"
#include "diff/ByteRanges.h"
#include "diff/DiffKernels.h"
#include "diff/DiffWorkers.h"
#include "diff/LowRankEstimator.h"
#include "diff/PairReader.h"
#include "diff/TensorPairing.h"

#include <QHash>

#include <algorithm>
#include <chrono>
#include <mutex>

namespace ts::diff {
namespace {

using Clock = std::chrono::steady_clock;

// Bytes [from, from + length) of pair `pair`, compared directly.
struct ByteSegment {
    std::size_t pair = 0;
    std::uint64_t from = 0;
    std::uint64_t length = 0;
};

// Elements [first, first + count) of pair `pair`, the `part`-th piece of it.
struct ValueSegment {
    std::size_t pair = 0;
    std::size_t part = 0;
    std::uint64_t first = 0;
    std::uint64_t count = 0;
};

// What one worker takes at a time: a piece of a big tensor or a batch of small ones, about
// chunkBytes of reading.
template <typename Segment> struct Batch {
    std::vector<Segment> segments;
    std::uint64_t bytes = 0;
};

template <typename Segment>
void addSegment(std::vector<Batch<Segment>>& items, Batch<Segment>& open, Segment s, std::uint64_t bytes,
                std::uint64_t chunkBytes)
{
    if (bytes >= chunkBytes) {
        items.push_back({{s}, bytes});
        return;
    }
    open.segments.push_back(s);
    open.bytes += bytes;
    if (open.bytes >= chunkBytes) {
        items.push_back(std::move(open));
        open = {};
    }
}

QString shapeSentence(const TensorInfo& a, const TensorInfo& b)
{
    return QStringLiteral("shape %1 in A against %2 in B: %3 against %4, not compared")
        .arg(a.shapeString(), b.shapeString(), formatNoun(a.elementCount(), "value", "values"),
             formatGrouped(b.elementCount()));
}

} // namespace

CheckpointDiff::CheckpointDiff(std::shared_ptr<const Checkpoint> a, std::shared_ptr<const Checkpoint> b,
                               DiffOptions options)
    : m_a(std::move(a)), m_b(std::move(b)), m_options(std::move(options))
{
}

void CheckpointDiff::setProgressCallback(ProgressCallback callback, int intervalMs)
{
    m_progress = std::move(callback);
    m_intervalMs = std::max(1, intervalMs);
}

void CheckpointDiff::cancel()
{
    m_token.cancel();
}

Result<DiffReport> CheckpointDiff::run()
{
    const Clock::time_point start = Clock::now();
    DiffReport report;
    report.a = m_a;
    report.b = m_b;
    report.renameRules = m_options.rename.describe();
    const Checkpoint& A = *m_a;
    const Checkpoint& B = *m_b;

    std::atomic<std::uint64_t> bytesDone{0};
    std::atomic<std::uint64_t> bytesRead{0};
    std::atomic<std::uint64_t> phaseTotal{0};
    DiffPhase phase = DiffPhase::Identical;
    // Every add() reported (interval 0), turned back into the deltas the phases count.
    std::atomic<std::uint64_t> lastSeen{0};
    JobControl control;
    control.cancel = m_token;
    control.progress = ProgressSink(
        [&](const Progress& p) {
            const std::uint64_t n = p.bytesDone - lastSeen.exchange(p.bytesDone, std::memory_order_relaxed);
            bytesDone.fetch_add(n, std::memory_order_relaxed);
            bytesRead.fetch_add(n, std::memory_order_relaxed);
        },
        std::chrono::milliseconds(0));
    const auto tick = [&] {
        if (!m_progress)
            return;
        DiffProgress p;
        p.phase = phase;
        p.bytesTotal = phaseTotal.load(std::memory_order_relaxed);
        p.bytesDone = std::min(p.bytesTotal, bytesDone.load(std::memory_order_relaxed));
        p.elapsedSeconds = std::chrono::duration<double>(Clock::now() - start).count();
        m_progress(p);
    };
    const auto beginPhase = [&](DiffPhase next, std::uint64_t total) {
        phase = next;
        bytesDone.store(0);
        phaseTotal.store(total);
        tick();
    };
    DiffWorkers workers(m_options.threads, m_token);
    const std::uint64_t chunkBytes =
        std::max<std::uint64_t>(m_options.chunkBytes, TensorBlockReader::kReadBytes);

    // A hostile header may claim more bytes than its part holds: refuse before reading anything.
    const auto checkTensor = [](const Checkpoint& c, int i) -> Result<void> {
        return TensorAnalyzer(c.location(i), c.tensors()[static_cast<std::size_t>(i)].info).check();
    };
    TensorPairing pairing(A, B, m_options.rename);
    std::vector<TensorPair>& pairs = pairing.pairs();
    for (const TensorPair& p : pairs) {
        if (auto ok = checkTensor(A, p.a); !ok)
            return ok.error();
        if (auto ok = checkTensor(B, p.b); !ok)
            return ok.error();
    }
    const auto info = [](const Checkpoint& c, int i) -> const TensorInfo& {
        return c.tensors()[static_cast<std::size_t>(i)].info;
    };

    // Phase 1: identical bytes, and the content hashes of what is not paired yet.
    std::vector<Batch<ByteSegment>> compareItems;
    Batch<ByteSegment> open;
    std::uint64_t identicalTotal = 0;
    std::vector<char> candidate(pairs.size(), 0);
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        const TensorInfo& ta = info(A, pairs[k].a);
        const TensorInfo& tb = info(B, pairs[k].b);
        if (ta.dtype != tb.dtype || ta.byteSize() != tb.byteSize())
            continue;
        candidate[k] = 1;
        const std::uint64_t bytes = ta.byteSize();
        identicalTotal += 2 * bytes;
        for (std::uint64_t from = 0; from < bytes || (bytes == 0 && from == 0); from += chunkBytes) {
            const std::uint64_t n = std::min(chunkBytes, bytes - from);
            addSegment(compareItems, open, ByteSegment{k, from, n}, 2 * n, 2 * chunkBytes);
            if (bytes == 0)
                break;
        }
    }
    if (!open.segments.empty())
        compareItems.push_back(std::move(open));
    std::vector<std::pair<bool, int>> hashTasks; // (in B, tensor)
    if (m_options.suggest) {
        for (int i : pairing.hashCandidatesA())
            hashTasks.emplace_back(false, i);
        for (int j : pairing.hashCandidatesB())
            hashTasks.emplace_back(true, j);
    }
    for (const auto& [inB, t] : hashTasks) {
        if (auto ok = checkTensor(inB ? B : A, t); !ok)
            return ok.error();
        identicalTotal += info(inB ? B : A, t).byteSize();
    }
    const std::unique_ptr<std::atomic<bool>[]> differs(new std::atomic<bool>[pairs.size() + 1]);
    for (std::size_t k = 0; k < pairs.size(); ++k)
        differs[k].store(false);
    std::mutex hashMutex;
    QHash<int, std::uint64_t> hashA, hashB;
    beginPhase(DiffPhase::Identical, identicalTotal);
    Result<void> identical = workers.run(
        compareItems.size() + hashTasks.size(),
        [&](std::size_t i) -> Result<void> {
            if (i >= compareItems.size()) {
                const auto [inB, t] = hashTasks[i - compareItems.size()];
                const Checkpoint& c = inB ? B : A;
                Result<std::uint64_t> h = contentHash(c.location(t), info(c, t).name, control);
                if (!h)
                    return h.error();
                std::lock_guard lock(hashMutex);
                (inB ? hashB : hashA).insert(t, *h);
                return {};
            }
            for (const ByteSegment& s : compareItems[i].segments) {
                if (differs[s.pair].load(std::memory_order_relaxed))
                    continue; // another piece of it already differs
                const TensorPair& p = pairs[s.pair];
                Result<bool> same = sameBytes(A.location(p.a), info(A, p.a).name, B.location(p.b),
                                              info(B, p.b).name, s.from, s.length, control);
                if (!same)
                    return same.error();
                if (!*same)
                    differs[s.pair].store(true);
            }
            return {};
        },
        tick, m_intervalMs);
    if (!identical)
        return identical.error();
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        if (!candidate[k] || differs[k].load())
            continue;
        if (info(A, pairs[k].a).shape == info(B, pairs[k].b).shape) {
            pairs[k].status = PairStatus::Identical;
            pairs[k].verdict = {ChangeKind::Identical, QStringLiteral("identical bytes")};
        } else {
            pairs[k].status = PairStatus::Changed;
            pairs[k].verdict = {
                ChangeKind::SameValues,
                QStringLiteral("the same bytes, reshaped from %1 to %2")
                    .arg(info(A, pairs[k].a).shapeString(), info(B, pairs[k].b).shapeString())};
        }
    }
    if (m_options.suggest) {
        const std::size_t before = pairs.size();
        pairing.suggestByContent(hashA, hashB);
        for (std::size_t k = before; k < pairs.size(); ++k) {
            pairs[k].status = PairStatus::Identical;
            pairs[k].verdict = {ChangeKind::Identical, QStringLiteral("identical bytes under another name")};
        }
        const std::size_t beforeShape = pairs.size();
        pairing.suggestByShape();
        for (std::size_t k = beforeShape; k < pairs.size(); ++k) {
            if (auto ok = checkTensor(A, pairs[k].a); !ok)
                return ok.error();
            if (auto ok = checkTensor(B, pairs[k].b); !ok)
                return ok.error();
        }
    }

    // Phase 2: the values of every pair whose bytes differ and whose values can be compared.
    std::vector<Batch<ValueSegment>> valueItems;
    Batch<ValueSegment> openValues;
    std::vector<std::vector<ChangeMetrics>> parts(pairs.size());
    std::uint64_t valuesTotal = 0;
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        TensorPair& p = pairs[k];
        if (p.status == PairStatus::Identical || p.verdict.kind == ChangeKind::SameValues)
            continue;
        const TensorInfo& ta = info(A, p.a);
        const TensorInfo& tb = info(B, p.b);
        p.status = PairStatus::Changed;
        if (ta.elementCount() != tb.elementCount()) {
            p.status = PairStatus::NotCompared;
            p.note = shapeSentence(ta, tb);
            p.verdict = {ChangeKind::NotCompared, p.note};
            continue;
        }
        if (!PairReader::comparable(ta.dtype, tb.dtype)) {
            p.note = ta.dtype == tb.dtype
                         ? QStringLiteral("the bytes differ; complex (C64) values are not compared")
                         : QStringLiteral("%1 against %2: complex (C64) values are not compared")
                               .arg(dtypeName(ta.dtype), dtypeName(tb.dtype));
            p.verdict = {ChangeKind::NotCompared, p.note};
            if (ta.dtype != tb.dtype)
                p.status = PairStatus::NotCompared;
            continue;
        }
        const std::uint64_t elements = ta.elementCount();
        const auto bits = static_cast<std::uint64_t>(std::max(dtypeBits(ta.dtype), dtypeBits(tb.dtype)));
        const std::uint64_t block = ValueAccumulator::kBlock;
        const std::uint64_t perChunk = std::max<std::uint64_t>(block, chunkBytes * 8 / bits / block * block);
        const std::uint64_t bytes = ta.byteSize() + tb.byteSize();
        valuesTotal += bytes;
        std::size_t part = 0;
        for (std::uint64_t first = 0; first < elements || (elements == 0 && first == 0); first += perChunk) {
            const std::uint64_t count = std::min(perChunk, elements - first);
            const std::uint64_t segmentBytes =
                TensorBlockReader::bytesFor(ta.dtype, count) + TensorBlockReader::bytesFor(tb.dtype, count);
            addSegment(valueItems, openValues, ValueSegment{k, part++, first, count}, segmentBytes,
                       chunkBytes);
            if (elements == 0)
                break;
        }
        parts[k].assign(part, ChangeMetrics::empty());
    }
    if (!openValues.segments.empty())
        valueItems.push_back(std::move(openValues));
    beginPhase(DiffPhase::Values, valuesTotal);
    Result<void> values = workers.run(
        valueItems.size(),
        [&](std::size_t i) -> Result<void> {
            for (const ValueSegment& s : valueItems[i].segments) {
                const TensorPair& p = pairs[s.pair];
                PairReader reader(A.location(p.a), info(A, p.a), B.location(p.b), info(B, p.b));
                ChangeMetrics m = ChangeMetrics::empty();
                PairSummary block;
                Result<void> ok = reader.forEach(s.first, s.count, control, [&](const PairRun& run) {
                    if (run.a)
                        summarizeFloatPairs(run.a, run.b, run.count, m.maxAbsDiff, block);
                    else {
                        block = {};
                        summarizePairScalar(run.ad, run.bd, run.count, block);
                    }
                    m.add(block, run.firstIndex, run.count);
                });
                if (!ok)
                    return ok;
                parts[s.pair][s.part] = m; // each part is written by one worker only
            }
            return {};
        },
        tick, m_intervalMs);
    if (!values)
        return values.error();
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        if (parts[k].empty())
            continue;
        ChangeMetrics m = ChangeMetrics::empty();
        for (const ChangeMetrics& part : parts[k])
            m.mergeFollowing(part);
        pairs[k].verdict =
            classifyChange(m, info(A, pairs[k].a).dtype, info(B, pairs[k].b).dtype, std::nullopt);
        pairs[k].metrics = std::move(m);
    }

    // Phase 3, on request: the rank of each changed matrix whose verdict does not already say
    // what the change is (rounding, scaling and sparse edits have no rank worth the passes).
    if (m_options.rank) {
        std::vector<std::size_t> ranked;
        std::uint64_t rankTotal = 0;
        for (std::size_t k = 0; k < pairs.size(); ++k) {
            TensorPair& p = pairs[k];
            if (!p.metrics)
                continue;
            const ChangeKind kind = p.verdict.kind;
            if (kind == ChangeKind::Rounding || kind == ChangeKind::Scaled || kind == ChangeKind::Sparse ||
                kind == ChangeKind::SameValues) {
                p.rankNote = QStringLiteral("not estimated: the change is already explained (%1)")
                                 .arg(changeKindName(kind));
                continue;
            }
            if (const auto why = LowRankEstimator::unsupported(info(A, p.a))) {
                p.rankNote = *why;
                continue;
            }
            ranked.push_back(k);
            rankTotal += 2 * (info(A, p.a).byteSize() + info(B, p.b).byteSize());
        }
        beginPhase(DiffPhase::Rank, rankTotal);
        std::vector<std::optional<RankEstimate>> estimates(ranked.size());
        Result<void> ranks = workers.run(
            ranked.size(),
            [&](std::size_t i) -> Result<void> {
                Result<RankEstimate> r = estimateRank(report, pairs[ranked[i]], control);
                if (!r) {
                    if (r.error().code == ErrorCode::LimitExceeded) {
                        pairs[ranked[i]].rankNote = r.error().message; // too large: said, not fatal
                        return {};
                    }
                    return r.error();
                }
                estimates[i] = std::move(*r);
                return {};
            },
            tick, m_intervalMs);
        if (!ranks)
            return ranks.error();
        for (std::size_t i = 0; i < ranked.size(); ++i) {
            TensorPair& p = pairs[ranked[i]];
            if (!estimates[i])
                continue;
            p.rank = std::move(estimates[i]);
            p.verdict = classifyChange(*p.metrics, info(A, p.a).dtype, info(B, p.b).dtype, p.rank);
        }
    }

    report.pairs = std::move(pairs);
    report.removed = pairing.onlyA();
    report.added = pairing.onlyB();
    report.metadata = diffMetadata(A.metadata(), B.metadata());
    const bool anyByName = std::any_of(report.pairs.begin(), report.pairs.end(),
                                       [](const TensorPair& p) { return !p.suggested(); });
    if (report.pairs.empty() && (!A.tensors().empty() || !B.tensors().empty())) {
        report.notes << QStringLiteral("A and B have no tensor in common: no name, rename rule, content or "
                                       "shape pairs any of A's %1 with B's %2")
                            .arg(formatNoun(A.tensors().size(), "tensor", "tensors"),
                                 formatNoun(B.tensors().size(), "tensor", "tensors"));
    } else if (!anyByName && !report.pairs.empty()) {
        report.notes << QStringLiteral(
            "A and B share no tensor name: every pair is a suggestion by content or "
            "shape (give --rename rules to pair them by name)");
    }
    report.bytesRead = bytesRead.load();
    report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return report;
}

Result<RankEstimate> CheckpointDiff::estimateRank(const DiffReport& report, const TensorPair& pair,
                                                  const JobControl& control)
{
    LowRankEstimator estimator(report.a->location(pair.a), report.infoA(pair), report.b->location(pair.b),
                               report.infoB(pair));
    return estimator.run(control);
}

} // namespace ts::diff
