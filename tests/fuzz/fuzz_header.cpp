// libFuzzer target: the header parser and validator over arbitrary bytes, through both entry points
// (bytes in memory and a ByteSource). Any crash, sanitizer report or timeout is a bug.
#include "HeaderParser.h"
#include "MemorySource.h"

#include <QByteArray>

#include <simdjson.h>

#include <cstdlib>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto* bytes = reinterpret_cast<const char*>(data);
    const QString name = QStringLiteral("fuzz.safetensors");

    // 1. In-memory entry point, over an exact-size copy: simdjson wants padding after the text, and
    //    ASan catches any read past `available` if the parser forgets to copy.
    std::vector<char> exact(bytes, bytes + size);
    auto direct = ts::parseHeaderBytes(exact.data(), exact.size(), size, name);

    // 2. Through a ByteSource, as a file opened from disk would go.
    const ts::MemorySource source(QByteArray(bytes, static_cast<qsizetype>(size)), name);
    auto viaSource = ts::parseHeader(source);

    // Both entry points must agree on the verdict and, when it is an error, on the code.
    if (direct.ok() != viaSource.ok())
        std::abort();
    if (!direct.ok() && direct.error().code != viaSource.error().code)
        std::abort();
    if (viaSource.ok()) {
        const ts::Header& h = *viaSource;
        // A valid header's tensors tile the data buffer exactly.
        std::uint64_t at = 0;
        for (const ts::TensorInfo& t : h.tensors) {
            if (t.begin != at || t.end < t.begin)
                std::abort();
            at = t.end;
        }
        if (h.dataOffset() + at != size)
            std::abort();
        (void)ts::readRawHeader(source, 4096);
    }
    return 0;
}
