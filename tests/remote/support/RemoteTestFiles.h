#pragma once

#include <QString>

#include <cstdint>
#include <vector>

namespace ts::test {

// Files the remote tests serve, written at run time into the served folder.
namespace RemoteTestFiles {

// Copies a real fixture (../shared/fixtures/real/NAME, a file or a folder) into `dir`; false
// when the fixture is missing.
bool copyFixture(const QString& name, const QString& dir);
// A valid F32 model of `tensors` small tensors with values, in the reference writer's layout:
// its header is far past the 100 KiB probe with a few thousand tensors. Returns the header's
// length (the prefix's value), or 0 on failure.
std::uint64_t writeWideModel(const QString& path, int tensors);
// A file whose prefix announces a `declared`-byte header, `fileBytes` long (sparse): what a
// hostile server would make a careless reader download.
bool writeHugeHeaderPrefix(const QString& path, std::uint64_t declared, std::uint64_t fileBytes);
// One F32 tensor "weight" of `elements` values i * 0.5 (mod 1000), plus a planted NaN at
// element `nanAt` when it is below `elements`.
bool writeSingleTensor(const QString& path, std::uint64_t elements, std::uint64_t nanAt);
// The same values with a shape.
bool writeShapedTensor(const QString& path, const std::vector<std::uint64_t>& shape, std::uint64_t nanAt);

} // namespace RemoteTestFiles

} // namespace ts::test
