#pragma once

#include "io/MemorySource.h"
#include "io/TensorLocation.h"
#include "write/SafetensorsWriter.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include <cstring>
#include <memory>
#include <vector>

namespace ts::test {

// A shared read-only fixture; empty when ../shared is missing (callers QFAIL with the message).
inline QString realFixture(const QString& name)
{
    const QString path = QStringLiteral(TS_SHARED_DIR "/fixtures/real/") + name;
    return QFile::exists(path) ? path : QString();
}

inline QString missingFixture(const QString& name)
{
    return QStringLiteral(
               "shared fixture missing: %1 (expected %2/fixtures/real/; the shared fixtures are not "
               "installed beside the project)")
        .arg(name, QStringLiteral(TS_SHARED_DIR));
}

template <typename T> QByteArray bytesOf(const std::vector<T>& values)
{
    QByteArray b(static_cast<qsizetype>(values.size() * sizeof(T)), Qt::Uninitialized);
    std::memcpy(b.data(), values.data(), values.size() * sizeof(T));
    return b;
}

inline TensorLocation memoryLocation(const QByteArray& bytes)
{
    return {std::make_shared<MemorySource>(bytes), 0, static_cast<std::uint64_t>(bytes.size())};
}

inline WriterTensor tensor(const QString& name, Dtype dtype, std::vector<std::uint64_t> shape,
                           const QByteArray& bytes)
{
    return {name, dtype, std::move(shape), memoryLocation(bytes)};
}

inline QJsonObject loadExpected()
{
    QFile f(QStringLiteral(TS_ANALYSIS_DATA "/expected_stats.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

} // namespace ts::test

namespace ts::test {

// QVERIFY2 evaluates its message even on success, so never call error() on a good Result there.
template <typename R> QString errText(const R& result)
{
    return result ? QString() : result.error().toString();
}

} // namespace ts::test
