// libFuzzer target: PyTorch pickle checkpoints (core/pickle). The input is read twice: as a
// checkpoint file (zip, tar or stacked pickles, by its first bytes, as torch.load decides) and as
// a bare pickle stream run by the machine, then disassembled. Beyond crashes and sanitizer
// reports, a bug is: a finding whose byte offset lies past the input; a tensor whose bytes are
// not inside the input, whose size disagrees with its shape, or whose gathered view cannot be
// read; a checkpoint that would run code and still says it can be converted; a heap past its
// budget.
#include "checkpoint/PyTorchCheckpoint.h"
#include "io/MemorySource.h"
#include "pickle/PickleDisassembly.h"
#include "pickle/PickleStreams.h"

#include <cstdlib>

namespace {

// Small enough that an input asking for gigabytes is refused quickly, large enough for any seed.
ts::pickle::PickleLimits fuzzLimits()
{
    ts::pickle::PickleLimits l;
    l.maxHeapBytes = 64u << 20;
    l.maxStack = 1u << 20;
    l.maxMemo = 1u << 20;
    l.maxWalkSteps = 1u << 20;
    l.maxTensors = 1u << 16;
    return l;
}

void checkCheckpoint(const QByteArray& bytes)
{
    const auto size = static_cast<std::uint64_t>(bytes.size());
    auto source = std::make_shared<ts::MemorySource>(bytes, QStringLiteral("fuzz.pt"));
    auto opened = ts::PyTorchCheckpoint::fromSource(source, QStringLiteral("fuzz.pt"), {}, {}, fuzzLimits());
    if (!opened)
        return;
    const ts::PyTorchCheckpoint& c = **opened;
    for (const ts::Diagnostic& d : c.warnings()) {
        if (d.offset && *d.offset > size)
            std::abort();
        if (d.message.isEmpty())
            std::abort();
    }
    if (c.runsCode() && c.capabilities().convertFrom)
        std::abort();
    for (int i = 0; i < static_cast<int>(c.tensors().size()); ++i) {
        const ts::TensorInfo& info = c.tensors()[static_cast<std::size_t>(i)].info;
        const ts::TensorLocation where = c.location(i);
        std::uint64_t elements = 1;
        for (std::uint64_t d : info.shape) {
            if (__builtin_mul_overflow(elements, d, &elements))
                std::abort(); // the resolver checks every shape
        }
        if (where.length != elements * static_cast<std::uint64_t>(ts::dtypeBits(info.dtype) / 8))
            std::abort();
        if (where.source.get() == source.get()) {
            if (where.offset > size || where.length > size - where.offset)
                std::abort();
        }
        std::vector<std::byte> buf(static_cast<std::size_t>(std::min<std::uint64_t>(where.length, 1u << 20)));
        if (!where.source->read(where.offset, buf))
            std::abort();
    }
    (void)c.rawHeader(1u << 16);
}

void checkStream(const QByteArray& bytes)
{
    const ts::pickle::PickleLimits limits = fuzzLimits();
    ts::pickle::PickleHeap heap(limits.maxHeapBytes);
    ts::pickle::PickleAudit audit;
    ts::pickle::PickleStreams streams(heap, audit, limits);
    ts::pickle::PickleSource src;
    src.bytes = std::as_bytes(std::span(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    src.where = QStringLiteral("fuzz.pkl");
    ts::pickle::OpaquePersistentLoader loader;
    const ts::pickle::PickleRun run = streams.runRead(src, 0, &loader);
    if (run.end > static_cast<std::uint64_t>(bytes.size()) || heap.bytesUsed() > limits.maxHeapBytes)
        std::abort();
    if (run.completed)
        streams.trailing(src, run.end, QStringLiteral("STOP"));
    (void)ts::pickle::disassemble(src.bytes, 0, 1u << 16);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    checkCheckpoint(bytes);
    checkStream(bytes);
    return 0;
}
