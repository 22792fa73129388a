#pragma once

#include "checkpoint/Checkpoint.h"
#include "format/Dtype.h"
#include "format/Metadata.h"
#include "io/TensorLocation.h"
#include "write/SafetensorsWriter.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

// Files a test makes, reads or copies.
namespace ts::test {

// A tensor for a test file: raw little-endian bytes.
struct TestTensor {
    QString name;
    Dtype dtype = Dtype::F32;
    std::vector<std::uint64_t> shape;
    QByteArray bytes;
};

template <typename T> QByteArray bytesOf(const std::vector<T>& values)
{
    QByteArray bytes(static_cast<qsizetype>(values.size() * sizeof(T)), Qt::Uninitialized);
    if (!values.empty())
        std::memcpy(bytes.data(), values.data(), values.size() * sizeof(T));
    return bytes;
}

// `bytes` as a tensor's location, in memory.
TensorLocation memoryLocation(const QByteArray& bytes, const QString& name = QString());
WriterTensor memoryTensor(const QString& name, Dtype dtype, std::vector<std::uint64_t> shape,
                          const QByteArray& bytes);

// Writes a .safetensors file with ts::SafetensorsWriter (the reference layout); false, with the
// error printed, when it cannot.
bool writeSafetensors(const QString& path, const std::vector<TestTensor>& tensors,
                      const std::optional<Metadata>& metadata = std::nullopt, std::uint64_t headerSlack = 0);

// Checkpoint::open, or nullptr with the error printed (for QVERIFY(model)).
std::shared_ptr<const Checkpoint> openCheckpoint(const QString& path);

bool writeFile(const QString& path, const QByteArray& bytes);
QByteArray readFile(const QString& path);   // empty when it cannot be read
QByteArray sha256(const QByteArray& bytes); // hex
QByteArray fileSha256(const QString& path); // hex; empty when it cannot be read

// A writable copy of the real fixture file `name` in `dir`, named `as` (default: `name`); its path,
// or empty when it cannot be made (missingFixture() says why when the fixture is absent).
QString copyFixture(const QString& name, const QString& dir, const QString& as = QString());
// Writable copies of every file of the real fixture folder `name` (a sharded model) in `dir`.
bool copyFixtureFiles(const QString& name, const QString& dir);

// Deterministic small weights in [-scale/2, scale/2): a linear congruential generator, not a
// <random> distribution, whose output differs between standard libraries.
std::vector<float> smallWeights(std::size_t n, float scale);

} // namespace ts::test
