#pragma once

// Writes small real .safetensors files for the visual tests with ts::SafetensorsWriter.

#include "io/MemorySource.h"
#include "write/SafetensorsWriter.h"

#include <QByteArray>
#include <QString>

#include <cstring>
#include <memory>
#include <vector>

struct TestTensor {
    QString name;
    ts::Dtype dtype;
    std::vector<std::uint64_t> shape;
    QByteArray bytes;
};

template <typename T> QByteArray bytesOf(const std::vector<T>& values)
{
    QByteArray out(static_cast<qsizetype>(values.size() * sizeof(T)), Qt::Uninitialized);
    std::memcpy(out.data(), values.data(), values.size() * sizeof(T));
    return out;
}

inline bool writeTestFile(const QString& path, const std::vector<TestTensor>& tensors)
{
    std::vector<ts::WriterTensor> out;
    for (const TestTensor& t : tensors) {
        auto source = std::make_shared<ts::MemorySource>(t.bytes);
        out.push_back({t.name, t.dtype, t.shape,
                       ts::TensorLocation{source, 0, static_cast<std::uint64_t>(t.bytes.size())}});
    }
    return ts::SafetensorsWriter::write(path, std::move(out), std::nullopt).ok();
}

// Deterministic small weights: a linear congruential generator, no <random> distribution whose
// output differs between standard libraries.
inline std::vector<float> smallWeights(std::size_t n, float scale)
{
    std::vector<float> v(n);
    std::uint32_t state = 12345;
    for (float& x : v) {
        state = state * 1664525u + 1013904223u;
        x = scale * (static_cast<float>(state >> 8) / static_cast<float>(1u << 24) - 0.5f);
    }
    return v;
}
