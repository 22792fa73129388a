#pragma once

#include "format/Dtype.h"
#include "format/Metadata.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace ts::test {

// A tensor for a test file: raw little-endian bytes.
struct RawTensor {
    QString name;
    Dtype dtype = Dtype::F32;
    std::vector<std::uint64_t> shape;
    QByteArray bytes;
};

// Writes a file with SafetensorsWriter (reference layout); QFAILs through the returned bool.
bool writeModel(const QString& path, const std::vector<RawTensor>& tensors,
                const std::optional<Metadata>& metadata, std::uint64_t headerSlack = 0);
QByteArray readAll(const QString& path);
QByteArray sha256(const QByteArray& bytes);

struct ProcessResult {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};
ProcessResult runCli(const QStringList& args);
// The tensorscope-cli binary the tests run (for tests that drive the process themselves).
QString cliPath();
// Runs a script from tests/convert with Debian's python3 (which has numpy).
ProcessResult runPython(const QString& script, const QStringList& args);
bool havePythonNumpy();

template <typename T> QByteArray bytesOf(const std::vector<T>& values)
{
    return QByteArray(reinterpret_cast<const char*>(values.data()),
                      static_cast<qsizetype>(values.size() * sizeof(T)));
}

} // namespace ts::test
