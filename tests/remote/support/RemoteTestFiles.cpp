#include "RemoteTestFiles.h"

#include "format/HeaderSerializer.h"
#include "format/WriterOrder.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace ts::test {

bool RemoteTestFiles::copyFixture(const QString& name, const QString& dir)
{
    const QString from = QStringLiteral(TS_SHARED_DIR "/fixtures/real/") + name;
    const QFileInfo info(from);
    if (info.isFile())
        return QFile::copy(from, QDir(dir).filePath(name));
    if (!info.isDir())
        return false;
    QDir(dir).mkpath(name);
    for (const QFileInfo& f : QDir(from).entryInfoList(QDir::Files)) {
        if (!QFile::copy(f.filePath(), QDir(dir).filePath(name + QLatin1Char('/') + f.fileName())))
            return false;
    }
    return true;
}

std::uint64_t RemoteTestFiles::writeWideModel(const QString& path, int tensors)
{
    std::vector<TensorInfo> infos;
    for (int i = 0; i < tensors; ++i) {
        TensorInfo t;
        t.name = QStringLiteral("model.layers.%1.block.%2.weight").arg(i / 8).arg(i % 8);
        t.dtype = Dtype::F32;
        t.shape = {4, 4};
        infos.push_back(t);
    }
    std::sort(infos.begin(), infos.end(),
              [](const TensorInfo& a, const TensorInfo& b) { return writerOrderLess(a, b); });
    std::uint64_t offset = 0;
    for (TensorInfo& t : infos) {
        t.begin = offset;
        t.end = offset + 64;
        offset = t.end;
    }
    const QByteArray header = serializeHeader(infos, std::nullopt);
    QByteArray data(static_cast<qsizetype>(offset), Qt::Uninitialized);
    for (qsizetype i = 0; i < data.size() / 4; ++i) {
        const float v = static_cast<float>(i % 97) * 0.25f - 12.0f;
        std::memcpy(data.data() + 4 * i, &v, 4);
    }
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(header) != header.size() ||
        f.write(data) != data.size())
        return 0;
    std::uint64_t n = 0;
    std::memcpy(&n, header.constData(), 8);
    return n;
}

bool RemoteTestFiles::writeHugeHeaderPrefix(const QString& path, std::uint64_t declared,
                                            std::uint64_t fileBytes)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    char prefix[8];
    std::memcpy(prefix, &declared, 8);
    QByteArray start(prefix, 8);
    start += QByteArray("{\"a\":{\"dtype\":\"F32\"") + QByteArray(4096, ' ');
    return f.write(start) == start.size() && f.resize(static_cast<qint64>(fileBytes));
}

bool RemoteTestFiles::writeSingleTensor(const QString& path, std::uint64_t elements, std::uint64_t nanAt)
{
    return writeShapedTensor(path, {elements}, nanAt);
}

bool RemoteTestFiles::writeShapedTensor(const QString& path, const std::vector<std::uint64_t>& shape,
                                        std::uint64_t nanAt)
{
    std::uint64_t elements = 1;
    for (std::uint64_t d : shape)
        elements *= d;
    TensorInfo t;
    t.name = QStringLiteral("weight");
    t.dtype = Dtype::F32;
    t.shape = shape;
    t.begin = 0;
    t.end = elements * 4;
    const QByteArray header = serializeHeader({t}, std::nullopt);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(header) != header.size())
        return false;
    constexpr std::uint64_t chunk = 1 << 20;
    std::vector<float> values(chunk);
    for (std::uint64_t first = 0; first < elements; first += chunk) {
        const std::uint64_t n = std::min(chunk, elements - first);
        for (std::uint64_t i = 0; i < n; ++i)
            values[i] = static_cast<float>((first + i) % 2000) * 0.5f;
        if (nanAt >= first && nanAt < first + n)
            values[nanAt - first] = std::numeric_limits<float>::quiet_NaN();
        const auto bytes = static_cast<qint64>(n * 4);
        if (f.write(reinterpret_cast<const char*>(values.data()), bytes) != bytes)
            return false;
    }
    return true;
}

} // namespace ts::test
