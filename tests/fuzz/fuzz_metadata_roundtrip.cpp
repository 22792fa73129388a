// libFuzzer target: open a file from the input; when it is valid, edit its metadata with keys and
// values derived from the input, save it with SafetensorsWriter::rewriteMetadata, re-open the
// result and check that the tensors, their bytes and the metadata are exactly what they should be.
#include "format/SafetensorsFile.h"
#include "io/MemorySource.h"
#include "write/SafetensorsWriter.h"

#include <QByteArray>
#include <QDir>
#include <QFile>

#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace {

// Up to `n` input bytes from `pos` decoded as UTF-8 (invalid sequences become U+FFFD), so the
// writer sees quotes, backslashes, control characters and non-ASCII text.
QString textFrom(const std::uint8_t* data, std::size_t size, std::size_t pos, std::size_t n)
{
    if (size == 0)
        return {};
    pos %= size;
    n = std::min(n, size - pos);
    return QString::fromUtf8(reinterpret_cast<const char*>(data + pos), static_cast<qsizetype>(n));
}

// One output file per process, removed when the process exits normally.
struct TempOutput {
    QString path = QDir::tempPath() + QStringLiteral("/tensorscope-fuzz-%1.safetensors").arg(::getpid());
    ~TempOutput() { QFile::remove(path); }
};

QString tempPath()
{
    static const TempOutput output;
    return output.path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    auto opened =
        ts::SafetensorsFile::fromSource(std::make_shared<ts::MemorySource>(bytes, QStringLiteral("in")));
    if (!opened)
        return 0;
    const ts::SafetensorsFile& file = **opened;

    // Edits chosen by the input's last bytes (the header's padding in most seeds).
    const std::uint8_t ctl = data[size - 1];
    const std::uint8_t arg = size > 1 ? data[size - 2] : 0;
    std::optional<ts::Metadata> metadata = file.header().metadata;
    if (ctl & 1)
        metadata.reset();
    if (ctl & 2) {
        if (!metadata)
            metadata = ts::Metadata{};
        metadata->set(textFrom(data, size, arg * 7u, (ctl >> 4) + 1u), textFrom(data, size, arg * 13u, ctl));
    }
    if ((ctl & 4) && metadata && !metadata->isEmpty())
        metadata->remove(metadata->entries()[arg % metadata->entries().size()].first);
    if ((ctl & 8) && metadata)
        metadata->set(QStringLiteral("__metadata__"),
                      QStringLiteral("\"\\\n") + QChar(0) + QStringLiteral("\u00e9"));
    ts::WriteOptions options;
    options.headerSlack = (ctl & 0x80) ? arg : 0;

    const QString out = tempPath();
    auto written = ts::SafetensorsWriter::rewriteMetadata(file, metadata, out, options);
    if (!written) {
        // The only acceptable failure for a small valid file is a header over the size limit.
        if (written.error().code != ts::ErrorCode::HeaderTooLarge)
            std::abort();
        return 0;
    }
    auto reread = ts::SafetensorsFile::open(out);
    if (!reread)
        std::abort(); // we wrote a file we cannot read back
    const ts::Header& a = file.header();
    const ts::Header& b = (*reread)->header();
    if (a.tensors.size() != b.tensors.size())
        std::abort();
    if (b.metadata != metadata)
        std::abort();
    for (std::size_t i = 0; i < a.tensors.size(); ++i) {
        const ts::TensorInfo& x = a.tensors[i];
        const ts::TensorInfo& y = b.tensors[i];
        if (x.name != y.name || x.dtype != y.dtype || x.shape != y.shape || x.begin != y.begin ||
            x.end != y.end)
            std::abort();
    }
    // The data buffer is carried over byte for byte.
    QFile f(out);
    if (!f.open(QIODevice::ReadOnly))
        std::abort();
    const QByteArray all = f.readAll();
    const auto oldData = bytes.mid(static_cast<qsizetype>(a.dataOffset()));
    const auto newData = all.mid(static_cast<qsizetype>(b.dataOffset()));
    if (oldData != newData)
        std::abort();
    return 0;
}
