#pragma once

// Shared by the fuzz targets that need a whole model rather than raw header bytes: a model built
// in memory with the core's own writer layout, and a check that says which invariant broke.
#include "checkpoint/Checkpoint.h"
#include "write/SafetensorsWriter.h"

#include "TestFiles.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace ts::fuzz {

// libFuzzer only sees the abort; the message tells a person replaying the input what broke.
[[noreturn]] void fail(const char* file, int line, const char* what);
#define FUZZ_CHECK(cond)                                                                                     \
    do {                                                                                                     \
        if (!(cond))                                                                                         \
            ::ts::fuzz::fail(__FILE__, __LINE__, #cond);                                                     \
    } while (0)

// A tensor whose bytes live in memory (tests/support, shared with the suites).
using ::ts::test::memoryTensor;

// The file SafetensorsWriter::write would produce for `tensors` (its layout and its header
// serializer), opened from memory through SafetensorsFile::fromSource as a Checkpoint. Aborts if the
// core refuses what its own writer laid out.
std::shared_ptr<const Checkpoint> modelInMemory(std::vector<WriterTensor> tensors);

// Whole elements of `dtype` that fit in `bytes` bytes and make a whole number of bytes (F4 pairs,
// F6 quads), at most `cap`.
std::uint64_t elementsFitting(Dtype dtype, std::uint64_t bytes, std::uint64_t cap);

// A shape of rank 0 to 3 with exactly `elements` elements where possible; rows and planes come
// from `pick`. Rank 0 needs one element; a rank the count cannot fill falls back to [elements].
std::vector<std::uint64_t> shapeFor(std::uint64_t elements, int rank, std::uint8_t pick);

// One output file per process, removed when the process exits normally.
QString tempOutputPath();

} // namespace ts::fuzz
