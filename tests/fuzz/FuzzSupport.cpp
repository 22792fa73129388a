#include "FuzzSupport.h"

#include "checkpoint/SafetensorsCheckpoint.h"
#include "format/HeaderSerializer.h"
#include "io/MemorySource.h"

#include <QDir>
#include <QFile>

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace ts::fuzz {
namespace {

// The largest divisor of n that is at most `want` (n = 0: any row count works, take `want`).
std::uint64_t divisorUpTo(std::uint64_t n, std::uint64_t want)
{
    if (n == 0)
        return want;
    for (std::uint64_t d = want; d > 1; --d) {
        if (n % d == 0)
            return d;
    }
    return 1;
}

struct TempOutput {
    QString path = QDir::tempPath() + QStringLiteral("/tensorscope-fuzz-%1.safetensors").arg(::getpid());
    ~TempOutput() { QFile::remove(path); }
};

} // namespace

void fail(const char* file, int line, const char* what)
{
    std::fprintf(stderr, "fuzz check failed at %s:%d: %s\n", file, line, what);
    std::abort();
}

std::shared_ptr<const Checkpoint> modelInMemory(std::vector<WriterTensor> tensors)
{
    const std::vector<TensorInfo> layout = SafetensorsWriter::planLayout(tensors);
    QByteArray file = serializeHeader(layout, std::nullopt);
    for (const WriterTensor& t : tensors) {
        QByteArray bytes(static_cast<qsizetype>(t.data.length), Qt::Uninitialized);
        const Result<void> read = t.data.source->read(
            t.data.offset, std::as_writable_bytes(std::span(bytes.data(), t.data.length)));
        FUZZ_CHECK(read.ok());
        file += bytes;
    }
    auto opened =
        SafetensorsFile::fromSource(std::make_shared<MemorySource>(file, QStringLiteral("fuzz.safetensors")));
    if (!opened)
        std::fprintf(stderr, "%s\n", qPrintable(opened.error().toString()));
    FUZZ_CHECK(opened.ok()); // the core must accept what its own writer lays out
    return SafetensorsCheckpoint::fromFile(std::move(opened.value()));
}

std::uint64_t elementsFitting(Dtype dtype, std::uint64_t bytes, std::uint64_t cap)
{
    const auto bits = static_cast<std::uint64_t>(dtypeBits(dtype));
    std::uint64_t n = std::min(bytes * 8 / bits, cap);
    while (n * bits % 8 != 0)
        --n;
    return n;
}

std::vector<std::uint64_t> shapeFor(std::uint64_t elements, int rank, std::uint8_t pick)
{
    switch (rank) {
    case 0:
        if (elements == 1)
            return {};
        return {elements};
    case 2: {
        const std::uint64_t rows = divisorUpTo(elements, 1 + pick % 16u);
        return {rows, elements == 0 ? 0 : elements / rows};
    }
    case 3: {
        const std::uint64_t planes = divisorUpTo(elements, 1 + (pick & 3u));
        const std::uint64_t rest = elements == 0 ? 0 : elements / planes;
        const std::uint64_t rows = divisorUpTo(rest, 1 + (pick >> 2) % 8u);
        return {planes, rows, rest == 0 ? 0 : rest / rows};
    }
    default:
        return {elements};
    }
}

QString tempOutputPath()
{
    static const TempOutput output;
    return output.path;
}

} // namespace ts::fuzz
