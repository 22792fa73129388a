#include "CheckpointOpening.h"
#include "CliOutput.h"
#include "CommandHelp.h"
#include "Commands.h"
#include "TableColumns.h"

#include "base/Format.h"
#include "base/Glob.h"
#include "base/JsonWriter.h"
#include "base/TerminalText.h"
#include "checkpoint/Checkpoint.h"
#include "checkpoint/CheckpointJson.h"

#include <QFileInfo>

#include <array>
#include <cstring>
#include <vector>

namespace ts::cli {
namespace {

constexpr qsizetype kFlushBytes = 1 << 16;

// The text writers below put a cell at `p` and return where it ends. A line is written into a
// buffer with room for the longest one (QByteArray::append went through insert() for every cell).

char* putNumber(char* p, std::uint64_t n)
{
    // Written from the end of a small buffer, then copied once.
    char digits[20];
    int first = 20;
    do {
        digits[--first] = static_cast<char>('0' + n % 10);
        n /= 10;
    } while (n > 0);
    std::memcpy(p, digits + first, static_cast<std::size_t>(20 - first));
    return p + (20 - first);
}

// formatGrouped()'s text, "1,234,567".
char* putGrouped(char* p, std::uint64_t n)
{
    char text[27];
    int first = 27;
    int inGroup = 0;
    do {
        if (inGroup == 3) {
            text[--first] = ',';
            inGroup = 0;
        }
        text[--first] = static_cast<char>('0' + n % 10);
        ++inGroup;
        n /= 10;
    } while (n > 0);
    std::memcpy(p, text + first, static_cast<std::size_t>(27 - first));
    return p + (27 - first);
}

char* putBytes(char* p, const QByteArray& bytes)
{
    std::memcpy(p, bytes.constData(), static_cast<std::size_t>(bytes.size()));
    return p + bytes.size();
}

// `text` in UTF-8. Nearly every name is ASCII: checked in one branch-free pass and narrowed in
// another (both vectorise); anything else goes through Qt's conversion.
char* putUtf8(char* p, QStringView text)
{
    const char16_t* chars = text.utf16();
    const qsizetype n = text.size();
    char16_t high = 0;
    for (qsizetype i = 0; i < n; ++i)
        high |= chars[i];
    if (high >= 0x80)
        return putBytes(p, text.toUtf8());
    for (qsizetype i = 0; i < n; ++i)
        p[i] = static_cast<char>(chars[i]);
    return p + n;
}

qsizetype digitCount(std::uint64_t n)
{
    qsizetype count = 1;
    while (n >= 10) {
        n /= 10;
        ++count;
    }
    return count;
}

qsizetype groupedWidth(std::uint64_t n)
{
    const qsizetype digits = digitCount(n);
    return digits + (digits - 1) / 3;
}

// The width of putShape()'s text, in characters.
qsizetype shapeWidth(const TensorInfo& t)
{
    if (t.shape.size() > kShapeDimsShown)
        return t.shapeString().size();
    qsizetype width = 2;
    for (std::size_t i = 0; i < t.shape.size(); ++i)
        width += digitCount(t.shape[i]) + (i ? 2 : 0);
    return width;
}

// formatShape()'s text; past kShapeDimsShown dims (rare) formatShape() itself.
char* putShape(char* p, const TensorInfo& t)
{
    if (t.shape.size() > kShapeDimsShown)
        return putUtf8(p, t.shapeString());
    *p++ = '[';
    for (std::size_t i = 0; i < t.shape.size(); ++i) {
        if (i) {
            *p++ = ',';
            *p++ = ' ';
        }
        p = putNumber(p, t.shape[i]);
    }
    *p++ = ']';
    return p;
}

} // namespace

int runLs(const QStringList& args)
{
    QCommandLineParser parser;
    if (const auto answered = parseCommand(parser, QStringLiteral("ls"), args))
        return *answered;
    const QString usage = help::usageLine(QStringLiteral("ls"));
    if (parser.positionalArguments().size() != 1) {
        err(usage);
        return ExitUsage;
    }
    int status = ExitOk;
    const auto opened = openForReading(parser.positionalArguments().front(), true, &status);
    if (!opened)
        return status;
    const Checkpoint& model = *opened;
    const bool filtered = parser.isSet(QStringLiteral("filter"));
    const QRegularExpression glob = globToRegularExpression(parser.value(QStringLiteral("filter")));
    // Listed as they are formatted, never held: a listing of 4 M tensors held whole took more
    // memory than the model's header (3.3 GB for 100 MB). The filter runs once per pass instead.
    const auto shown = [&](const CheckpointTensor& t) {
        return !filtered || glob.match(t.info.name).hasMatch();
    };

    if (parser.isSet(QStringLiteral("json"))) {
        JsonWriter json;
        json.beginObject();
        json.key(QStringLiteral("file")).value(model.path());
        json.key(QStringLiteral("tensors")).beginArray();
        for (const CheckpointTensor& t : model.tensors()) {
            if (!shown(t))
                continue;
            if (!model.isSharded()) {
                writeTensorJson(json, t.info);
            } else {
                // Sharded: the same object plus the shard it lives in.
                JsonWriter one;
                writeTensorJson(one, t.info);
                QByteArray obj = one.data();
                obj.chop(1);
                JsonWriter shard;
                shard.value(model.parts()[static_cast<std::size_t>(t.part)].name);
                json.raw(obj + ",\"shard\":" + shard.data() + '}');
            }
            if (json.data().size() > kFlushBytes)
                outRaw(json.take());
        }
        json.endArray();
        json.key(QStringLiteral("metadata"));
        writeMetadataJson(json, model.metadata());
        json.endObject();
        outRaw(json.take() + '\n');
        return ExitOk;
    }
    std::vector<QString> head{QStringLiteral("NAME"),   QStringLiteral("DTYPE"), QStringLiteral("SHAPE"),
                              QStringLiteral("PARAMS"), QStringLiteral("BYTES"), QStringLiteral("OFFSETS")};
    if (model.isSharded())
        head.push_back(QStringLiteral("SHARD"));
    // Two passes, as formatTable() does over rows it holds: widths first, then the lines.
    TableColumns columns;
    columns.measure(head);
    std::array<QByteArray, kDtypeCount> dtypeNames; // dtypeName() makes a new string each call
    for (int i = 0; i < kDtypeCount; ++i)
        dtypeNames[static_cast<std::size_t>(i)] = dtypeName(static_cast<Dtype>(i)).toLatin1();
    // The generated cells' widths are counted, not formatted: ASCII digits and separators.
    // The names' UTF-16 lengths bound their UTF-8 bytes (3 per unit at most), which their widths
    // in columns do not: combining marks take none.
    qsizetype nameUnits = 0;
    qsizetype shardUnits = 0;
    const auto measure = [&](const CheckpointTensor& t) {
        const QString name = terminalSafe(t.info.name);
        columns.widen(0, terminalWidth(name));
        nameUnits = std::max(nameUnits, name.size());
        columns.widen(1, dtypeNames[static_cast<std::size_t>(t.info.dtype)].size());
        columns.widen(2, shapeWidth(t.info));
        columns.widen(3, groupedWidth(t.info.elementCount()));
        columns.widen(4, groupedWidth(t.info.byteSize()));
        columns.widen(5, 4 + digitCount(t.info.begin) + digitCount(t.info.end));
        if (model.isSharded()) {
            const QString shard = terminalSafe(model.parts()[static_cast<std::size_t>(t.part)].name);
            columns.widen(6, terminalWidth(shard));
            shardUnits = std::max(shardUnits, shard.size());
        }
    };
    for (const CheckpointTensor& t : model.tensors()) {
        if (shown(t))
            measure(t);
    }
    // Each line written as UTF-8 bytes straight away: rows of QStrings, padded as text and then
    // converted, were most of what `ls` adds to the parse (1.44x validate on 100k tensors).
    // A line is at most 3 bytes of UTF-8 per UTF-16 unit of its cells (the generated ones are
    // ASCII, their width in columns their length) plus the padding, at most each width and two.
    qsizetype lineBytes = 64 + 3 * (nameUnits + shardUnits);
    for (std::size_t c = 0; c < head.size(); ++c)
        lineBytes += 3 * (columns.width(c) + 2);
    std::vector<char> buffer(static_cast<std::size_t>(kFlushBytes + lineBytes));
    char* const begin = buffer.data();
    char* p = putBytes(begin, columns.line(QStringList(head.begin(), head.end())).toUtf8());
    char* cellStart = p;
    const auto pad = [&](std::size_t column, qsizetype characters) {
        const qsizetype spaces = std::max<qsizetype>(0, columns.width(column) + 2 - characters);
        std::memset(p, ' ', static_cast<std::size_t>(spaces));
        p += spaces;
        cellStart = p;
    };
    for (const CheckpointTensor& t : model.tensors()) {
        if (!shown(t))
            continue;
        *p++ = '\n';
        const QString name = terminalSafe(t.info.name); // shared, not copied, when nothing needs escaping
        p = putUtf8(p, name);
        pad(0, terminalWidth(name));
        p = putBytes(p, dtypeNames[static_cast<std::size_t>(t.info.dtype)]);
        pad(1, p - cellStart);
        p = putShape(p, t.info);
        pad(2, t.info.shape.size() > kShapeDimsShown ? t.info.shapeString().size() : p - cellStart);
        p = putGrouped(p, t.info.elementCount());
        pad(3, p - cellStart);
        p = putGrouped(p, t.info.byteSize());
        pad(4, p - cellStart);
        *p++ = '[';
        p = putNumber(p, t.info.begin);
        *p++ = ',';
        *p++ = ' ';
        p = putNumber(p, t.info.end);
        *p++ = ']';
        if (model.isSharded()) {
            pad(5, p - cellStart);
            p = putUtf8(p, terminalSafe(model.parts()[static_cast<std::size_t>(t.part)].name));
        }
        if (p - begin > kFlushBytes) {
            outRaw(QByteArray::fromRawData(begin, p - begin));
            p = begin;
        }
    }
    *p++ = '\n';
    outRaw(QByteArray::fromRawData(begin, p - begin));
    return ExitOk;
}

} // namespace ts::cli
