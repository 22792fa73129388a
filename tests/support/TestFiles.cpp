#include "TestFiles.h"

#include "Fixtures.h"

#include "io/MemorySource.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>

namespace ts::test {

TensorLocation memoryLocation(const QByteArray& bytes, const QString& name)
{
    auto source = name.isEmpty() ? std::make_shared<const MemorySource>(bytes)
                                 : std::make_shared<const MemorySource>(bytes, name);
    return {std::move(source), 0, static_cast<std::uint64_t>(bytes.size())};
}

WriterTensor memoryTensor(const QString& name, Dtype dtype, std::vector<std::uint64_t> shape,
                          const QByteArray& bytes)
{
    return {name, dtype, std::move(shape), memoryLocation(bytes, name)};
}

bool writeSafetensors(const QString& path, const std::vector<TestTensor>& tensors,
                      const std::optional<Metadata>& metadata, std::uint64_t headerSlack)
{
    std::vector<WriterTensor> list;
    for (const TestTensor& t : tensors)
        list.push_back(memoryTensor(t.name, t.dtype, t.shape, t.bytes));
    WriteOptions options;
    options.headerSlack = headerSlack;
    const auto written = SafetensorsWriter::write(path, std::move(list), metadata, options);
    if (!written)
        qWarning("%s", qPrintable(written.error().toString()));
    return written.ok();
}

std::shared_ptr<const Checkpoint> openCheckpoint(const QString& path)
{
    auto opened = Checkpoint::open(path);
    if (!opened)
        qWarning("%s", qPrintable(opened.error().toString()));
    return opened ? opened.value() : nullptr;
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size() && f.flush();
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray sha256(const QByteArray& bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

QByteArray fileSha256(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&f); // in chunks: some test files are hundreds of MB
    return hash.result().toHex();
}

namespace {

// The shared fixtures are read-only, and so is a copy of one: tests that copy want to write.
bool copyWritable(const QString& from, const QString& to)
{
    QFile::remove(to);
    return QFile::copy(from, to) && QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner |
                                                                  QFile::ReadGroup | QFile::ReadOther);
}

} // namespace

QString copyFixture(const QString& name, const QString& dir, const QString& as)
{
    const QString to = QDir(dir).filePath(as.isEmpty() ? name : as);
    return copyWritable(realFixture(name), to) ? to : QString();
}

bool copyFixtureFiles(const QString& name, const QString& dir)
{
    const QDir from(realFixture(name));
    const QStringList files = from.entryList(QDir::Files);
    if (files.isEmpty())
        return false;
    for (const QString& file : files) {
        if (!copyWritable(from.filePath(file), QDir(dir).filePath(file)))
            return false;
    }
    return true;
}

std::vector<float> smallWeights(std::size_t n, float scale)
{
    std::vector<float> v(n);
    std::uint32_t state = 12345;
    for (float& x : v) {
        state = state * 1664525u + 1013904223u;
        x = scale * (static_cast<float>(state >> 8) / static_cast<float>(1u << 24) - 0.5f);
    }
    return v;
}

} // namespace ts::test
