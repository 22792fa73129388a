#pragma once
// Files the comparison suites write from the real fixtures: copies with planted changes, renames,
// conversions. Every write goes through the project's own writer, so the files are laid out as the
// reference writer lays them out.

#include "checkpoint/Checkpoint.h"
#include "convert/ConvertWriter.h"
#include "convert/Converter.h"
#include "io/MemorySource.h"
#include "write/SafetensorsWriter.h"

#include <QByteArray>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTest>

#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <vector>

namespace ts::difftest {

inline QString fixture(const QString& name)
{
    return QStringLiteral(TS_SHARED_DIR "/fixtures/real/") + name;
}

#define REQUIRE_DIFF_FIXTURE(path)                                                                           \
    do {                                                                                                     \
        if (!QFileInfo::exists(path))                                                                        \
            QFAIL(                                                                                           \
                qPrintable(QStringLiteral("the shared fixtures are missing: %1 (expected ../shared beside "  \
                                          "the project)")                                                    \
                               .arg(path)));                                                                 \
    } while (false)

inline std::shared_ptr<const Checkpoint> open(const QString& path)
{
    Result<std::shared_ptr<const Checkpoint>> c = Checkpoint::open(path);
    if (!c)
        qWarning("cannot open %s: %s", qPrintable(path), qPrintable(c.error().toString()));
    return c ? c.value() : nullptr;
}

// The bytes of tensor `i`, read through its location.
inline QByteArray bytesOf(const Checkpoint& c, int i)
{
    const TensorLocation at = c.location(i);
    QByteArray bytes(static_cast<qsizetype>(at.length), Qt::Uninitialized);
    const Result<void> r = at.source->read(
        at.offset, std::span<std::byte>(reinterpret_cast<std::byte*>(bytes.data()), at.length));
    if (!r)
        qWarning("read failed: %s", qPrintable(r.error().toString()));
    return bytes;
}

inline WriterTensor memoryTensor(const QString& name, Dtype dtype, std::vector<std::uint64_t> shape,
                                 const QByteArray& bytes)
{
    return {name,
            dtype,
            std::move(shape),
            {std::make_shared<MemorySource>(bytes), 0, static_cast<std::uint64_t>(bytes.size())}};
}

// Rewrites `from` as `to`, each tensor passed through `edit` (name, dtype, shape and bytes may
// change; an empty name drops the tensor). The metadata is kept unless `metadata` is given.
using TensorEdit =
    std::function<void(QString& name, Dtype& dtype, std::vector<std::uint64_t>& shape, QByteArray& bytes)>;
inline bool rewrite(const QString& from, const QString& to, const TensorEdit& edit,
                    std::optional<std::optional<Metadata>> metadata = std::nullopt)
{
    const auto c = open(from);
    if (!c)
        return false;
    std::vector<WriterTensor> tensors;
    for (int i = 0; i < static_cast<int>(c->tensors().size()); ++i) {
        const TensorInfo& t = c->tensors()[static_cast<std::size_t>(i)].info;
        QString name = t.name;
        Dtype dtype = t.dtype;
        std::vector<std::uint64_t> shape = t.shape.toVector();
        QByteArray bytes = bytesOf(*c, i);
        if (edit)
            edit(name, dtype, shape, bytes);
        if (!name.isEmpty())
            tensors.push_back(memoryTensor(name, dtype, shape, bytes));
    }
    const Result<void> r =
        SafetensorsWriter::write(to, std::move(tensors), metadata ? *metadata : c->metadata());
    if (!r)
        qWarning("write failed: %s", qPrintable(r.error().toString()));
    return r.ok();
}

// `from` converted by the project's converter (a dtype change, or shards merged into one file).
inline bool convert(const QString& from, const QString& to, std::optional<Dtype> dtype)
{
    const auto c = open(from);
    if (!c)
        return false;
    ConvertOptions options;
    options.dtype = dtype;
    Result<ConvertPlan> plan = Converter::plan({c}, options);
    if (!plan)
        return false;
    const Result<QStringList> written = ConvertWriter::write(*plan, to, options);
    if (!written)
        qWarning("convert failed: %s", qPrintable(written.error().toString()));
    return written.ok();
}

inline QByteArray floatBytes(const std::vector<float>& v)
{
    QByteArray b(static_cast<qsizetype>(v.size() * sizeof(float)), Qt::Uninitialized);
    std::memcpy(b.data(), v.data(), b.size());
    return b;
}

inline std::vector<float> floats(const QByteArray& b)
{
    std::vector<float> v(static_cast<std::size_t>(b.size()) / sizeof(float));
    std::memcpy(v.data(), b.constData(), v.size() * sizeof(float));
    return v;
}

inline std::vector<float> gaussian(std::size_t n, float sigma, std::uint64_t seed)
{
    std::mt19937_64 random(seed);
    std::normal_distribution<float> g(0.0f, sigma);
    std::vector<float> v(n);
    for (float& x : v)
        x = g(random);
    return v;
}

// A model of F32 matrices from memory, written to `path`.
inline bool writeMatrices(const QString& path,
                          const std::vector<std::pair<QString, std::vector<float>>>& tensors,
                          std::uint64_t rows, std::uint64_t cols)
{
    std::vector<WriterTensor> out;
    for (const auto& [name, values] : tensors)
        out.push_back(memoryTensor(name, Dtype::F32, {rows, cols}, floatBytes(values)));
    return SafetensorsWriter::write(path, std::move(out), std::nullopt).ok();
}

} // namespace ts::difftest
