// libFuzzer target: the header parser and validator over arbitrary bytes, through both entry points
// (bytes in memory and a ByteSource). Any crash, sanitizer report or timeout is a bug, and so is
// a verdict that Qt's JSON parser contradicts (see compareWithQt).
#include "format/HeaderParser.h"
#include "format/HeaderSchema.h"
#include "format/LayoutValidator.h"
#include "io/MemorySource.h"

#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <simdjson.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <vector>

namespace {

// One tensor entry as Qt's JSON parser reads it.
struct QtEntry {
    ts::Dtype dtype = ts::Dtype::F32;
    std::vector<std::uint64_t> shape;
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
};

// Integers are doubles to Qt: only those it holds exactly are modelled.
std::optional<std::uint64_t> exactSize(const QJsonValue& v)
{
    const double d = v.toDouble(-1);
    if (!v.isDouble() || d < 0 || d >= 9007199254740992.0 ||
        d != static_cast<double>(static_cast<std::uint64_t>(d)))
        return std::nullopt;
    return static_cast<std::uint64_t>(d);
}

std::optional<QtEntry> qtEntry(const QJsonValue& value)
{
    QJsonValue dtype, shape, offsets;
    if (value.isArray() && value.toArray().size() == 3) {
        dtype = value.toArray().at(0);
        shape = value.toArray().at(1);
        offsets = value.toArray().at(2);
    } else if (value.isObject()) {
        dtype = value.toObject().value(QLatin1String("dtype"));
        shape = value.toObject().value(QLatin1String("shape"));
        offsets = value.toObject().value(QLatin1String("data_offsets"));
    } else {
        return std::nullopt;
    }
    QString name;
    if (dtype.isString())
        name = dtype.toString();
    else if (dtype.isObject() && dtype.toObject().size() == 1)
        name = dtype.toObject().begin().key(); // {"F32": null}
    const auto known = ts::dtypeFromName(name);
    if (!known || !shape.isArray() || !offsets.isArray() || offsets.toArray().size() != 2)
        return std::nullopt;
    QtEntry entry;
    entry.dtype = *known;
    for (const QJsonValue& d : shape.toArray()) {
        const auto n = exactSize(d);
        if (!n)
            return std::nullopt;
        entry.shape.push_back(*n);
    }
    const auto begin = exactSize(offsets.toArray().at(0));
    const auto end = exactSize(offsets.toArray().at(1));
    if (!begin || !end)
        return std::nullopt;
    entry.begin = *begin;
    entry.end = *end;
    return entry;
}

// The tensors of a header as Qt reads them. Qt keeps the last of duplicate keys, as the
// reference's HashMap does, so this is an independent opinion on which declaration of a name
// survives. nullopt (no opinion) when Qt refuses the text, when an entry is in a form not
// modelled here, or when a name needed a replacement character (decoders may differ there).
std::optional<QHash<QString, QtEntry>> qtTensors(const char* json, std::size_t size)
{
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray::fromRawData(json, static_cast<qsizetype>(size)));
    if (!doc.isObject())
        return std::nullopt;
    const QJsonObject top = doc.object();
    QHash<QString, QtEntry> tensors;
    for (auto it = top.begin(); it != top.end(); ++it) {
        if (it.key() == QLatin1String("__metadata__"))
            continue;
        const auto entry = qtEntry(it.value());
        if (!entry || it.key().contains(QChar::ReplacementCharacter))
            return std::nullopt;
        tensors.insert(it.key(), *entry);
    }
    return tensors;
}

// The reference's layout rules over Qt's entries: sizes match shapes, ranges tile the buffer.
bool layoutValid(const QHash<QString, QtEntry>& tensors, std::uint64_t fileSize, std::uint64_t dataOffset)
{
    std::vector<QtEntry> sorted(tensors.begin(), tensors.end());
    std::sort(sorted.begin(), sorted.end(), [](const QtEntry& a, const QtEntry& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    std::uint64_t at = 0;
    for (const QtEntry& t : sorted) {
        const auto count = ts::checkedElementCount(t.shape);
        std::uint64_t bits = 0;
        if (t.begin != at || t.end < t.begin || !count ||
            __builtin_mul_overflow(*count, static_cast<std::uint64_t>(ts::dtypeBits(t.dtype)), &bits) ||
            bits % 8 != 0 || t.end - t.begin != bits / 8)
            return false;
        at = t.end;
    }
    return dataOffset + at == fileSize;
}

// Our verdict against Qt's reading: an accepted header holds exactly Qt's names, each as its last
// declaration says; a header rejected for its layout must really break a layout rule. This is
// what catches a duplicate name that damages another entry (one before the first duplicate once
// lost its shape: valid files were refused, invalid ones accepted).
void compareWithQt(const ts::Result<ts::Header>& verdict, const char* bytes, std::size_t size)
{
    if (size < 8)
        return;
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
        n = (n << 8) | static_cast<unsigned char>(bytes[i]);
    if (n > size - 8)
        return;
    const auto qt = qtTensors(bytes + 8, static_cast<std::size_t>(n));
    if (!qt)
        return;
    if (verdict.ok()) {
        if (static_cast<std::size_t>(qt->size()) != verdict->tensors.size())
            std::abort();
        for (const ts::TensorInfo& t : verdict->tensors) {
            const auto want = qt->constFind(t.name);
            if (want == qt->constEnd() || want->dtype != t.dtype || want->shape != t.shape ||
                want->begin != t.begin || want->end != t.end)
                std::abort();
        }
        return;
    }
    switch (verdict.error().code) {
    case ts::ErrorCode::InvalidOffset:
    case ts::ErrorCode::ValidationOverflow:
    case ts::ErrorCode::MisalignedSlice:
    case ts::ErrorCode::TensorInvalidInfo:
    case ts::ErrorCode::MetadataIncompleteBuffer:
        if (layoutValid(*qt, size, 8 + n))
            std::abort();
        break;
    default:
        break; // refused before the layout: Qt's opinion of the schema is not the reference's
    }
}

} // namespace

// The one-pass HeaderScanner reads plain headers in front of the simdjson DOM reader and hands
// it anything unusual: wherever it answers, the answer must be the DOM reader's, word for word
// (tensors, metadata, warnings; for an error, its code and sentence).
void compareScannerWithDom(const char* bytes, std::size_t size)
{
    if (size < 8)
        return;
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
        n = (n << 8) | static_cast<unsigned char>(bytes[i]);
    // The parser refuses invalid UTF-8 before either reader sees the text (HeaderParser.cpp).
    if (n > size - 8 || !simdjson::validate_utf8(bytes + 8, static_cast<std::size_t>(n)))
        return;
    std::vector<char> json(bytes + 8, bytes + 8 + n);
    json.resize(n + simdjson::SIMDJSON_PADDING, ' ');
    const QString file = QStringLiteral("fuzz.safetensors");
    const auto fast = ts::readHeaderSchema(json.data(), n, json.size(), file);
    const auto dom = ts::readHeaderSchemaWithDom(json.data(), n, json.size(), file);
    if (fast.ok() != dom.ok())
        std::abort();
    if (!fast.ok()) {
        if (fast.error().code != dom.error().code || fast.error().message != dom.error().message)
            std::abort();
        return;
    }
    const ts::Header& a = *fast;
    const ts::Header& b = *dom;
    if (a.tensors.size() != b.tensors.size() || a.metadata != b.metadata ||
        a.warnings.size() != b.warnings.size())
        std::abort();
    for (std::size_t i = 0; i < a.tensors.size(); ++i) {
        const ts::TensorInfo& x = a.tensors[i];
        const ts::TensorInfo& y = b.tensors[i];
        if (x.name != y.name || x.dtype != y.dtype || x.shape != y.shape || x.begin != y.begin ||
            x.end != y.end)
            std::abort();
    }
    for (std::size_t i = 0; i < a.warnings.size(); ++i) {
        if (a.warnings[i].code != b.warnings[i].code || a.warnings[i].message != b.warnings[i].message)
            std::abort();
    }
}

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
    compareWithQt(viaSource, bytes, size);
    compareScannerWithDom(bytes, size);
    return 0;
}
