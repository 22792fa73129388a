#include "pickle/PickleStreams.h"

namespace ts::pickle {
namespace {

constexpr int kMaxUnreadPickles = 64;

} // namespace

ValueId OpaquePersistentLoader::load(PickleHeap& heap, ValueId pid, std::uint64_t offset, PickleAudit& audit)
{
    (void)audit;
    ObjectRec o;
    o.args = pid;
    o.offset = offset;
    return heap.object(o);
}

PickleRun PickleStreams::runRead(const PickleSource& source, std::uint64_t start, PersistentLoader* loader)
{
    PickleMachine machine(m_heap, m_audit, m_limits);
    PickleRun run = machine.run(source, start, loader);
    scanNested(run, source, 0);
    return run;
}

void PickleStreams::scanNested(const PickleRun& run, const PickleSource& source, int depth)
{
    for (const auto& [value, offset] : run.nestedPickles) {
        const std::string& bytes = m_heap.text(value);
        m_audit.add(
            QStringLiteral("PickleNestedPickle"), Severity::Warning,
            QStringLiteral("%1 holds a pickle of %2 bytes as a bytes value at byte %3: a call such as "
                           "pickle.loads would run it; its globals are listed here")
                .arg(source.where)
                .arg(bytes.size())
                .arg(offset),
            offset);
        PickleSource inner;
        inner.bytes = std::as_bytes(std::span(bytes.data(), bytes.size()));
        inner.base = offset;
        inner.where = QStringLiteral("the pickle held as bytes at byte %1").arg(offset);
        inner.readByTorch = false;
        scanUnread(inner, 0, depth + 1);
    }
}

void PickleStreams::scanUnread(const PickleSource& source, std::uint64_t start, int depth)
{
    if (depth > m_limits.maxNesting)
        return;
    OpaquePersistentLoader opaque;
    std::uint64_t pos = start;
    for (int i = 0; i < kMaxUnreadPickles && pos < source.bytes.size() && !m_heap.exhausted(); ++i) {
        // A throwaway audit would hide what was found: findings go to the real one, but faults of
        // bytes that are no pickle at all are not worth a line each.
        PickleAudit scratch;
        PickleMachine machine(m_heap, scratch, m_limits);
        const PickleRun run = machine.run(source, pos, &opaque);
        for (const GlobalUse& g : scratch.globals())
            m_audit.noteGlobal(g.module, g.name, g.verdict, g.firstOffset, g.where, false, g.count);
        scanNested(run, source, depth);
        if (!run.completed || run.end <= pos)
            break;
        pos = run.end;
    }
}

void PickleStreams::trailing(const PickleSource& source, std::uint64_t end, const QString& whatFollows)
{
    if (end >= source.bytes.size())
        return;
    const std::uint64_t extra = source.bytes.size() - end;
    m_audit.add(
        QStringLiteral("PickleTrailingBytes"), Severity::Warning,
        QStringLiteral("%1 bytes follow %2 at byte %3: torch.load never reads them, a reader that goes on "
                       "past STOP (as scanners do) may see another pickle there")
            .arg(extra)
            .arg(whatFollows)
            .arg(source.base + end),
        source.base + end);
    PickleSource rest = source;
    rest.readByTorch = false;
    rest.where = QStringLiteral("the bytes after %1").arg(whatFollows);
    scanUnread(rest, end);
}

} // namespace ts::pickle
