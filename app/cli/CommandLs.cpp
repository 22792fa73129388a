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

namespace ts::cli {
namespace {

constexpr qsizetype kFlushBytes = 1 << 16;
constexpr qsizetype kFlushChars = 1 << 15;

// Emptied but keeps its buffer (clear() would free it).
QString& clear(QString& s)
{
    s.truncate(0);
    return s;
}

void appendNumber(QString& out, std::uint64_t n)
{
    // Written from the end of a buffer, appended once: a character at a time was a tenth of `ls`.
    char digits[20];
    int first = 20;
    do {
        digits[--first] = static_cast<char>('0' + n % 10);
        n /= 10;
    } while (n > 0);
    out += QLatin1StringView(digits + first, 20 - first);
}

// formatGrouped()'s text, "1,234,567", without a string of its own.
void appendGrouped(QString& out, std::uint64_t n)
{
    const qsizetype start = out.size();
    appendNumber(out, n);
    for (qsizetype i = out.size() - 3; i > start; i -= 3)
        out.insert(i, QLatin1Char(','));
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

// The width of appendShape()'s text.
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
void appendShape(QString& out, const TensorInfo& t)
{
    if (t.shape.size() > kShapeDimsShown) {
        out += t.shapeString();
        return;
    }
    out += QLatin1Char('[');
    for (std::size_t i = 0; i < t.shape.size(); ++i) {
        if (i)
            out += QLatin1String(", ");
        appendNumber(out, t.shape[i]);
    }
    out += QLatin1Char(']');
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
    // One row's cells, rewritten in place for each tensor: formatted twice (measured, then written)
    // for every tensor, a row of fresh strings cost more than the whole parse.
    std::vector<QString> row(head.size());
    std::array<QString, kDtypeCount> dtypeNames; // dtypeName() makes a new string each call
    for (int i = 0; i < kDtypeCount; ++i)
        dtypeNames[static_cast<std::size_t>(i)] = dtypeName(static_cast<Dtype>(i));
    const auto format = [&](const CheckpointTensor& t) {
        row[0] = t.info.name;
        row[1] = dtypeNames[static_cast<std::size_t>(t.info.dtype)];
        appendShape(clear(row[2]), t.info);
        appendGrouped(clear(row[3]), t.info.elementCount());
        appendGrouped(clear(row[4]), t.info.byteSize());
        QString& offsets = clear(row[5]);
        offsets += QLatin1Char('[');
        appendNumber(offsets, t.info.begin);
        offsets += QLatin1String(", ");
        appendNumber(offsets, t.info.end);
        offsets += QLatin1Char(']');
        if (model.isSharded())
            row[6] = model.parts()[static_cast<std::size_t>(t.part)].name;
        return std::span<const QString>(row);
    };
    // Two passes, as formatTable() does over rows it holds: widths first, then the lines.
    TableColumns columns;
    columns.measure(head);
    for (std::size_t column = 1; column <= 5; ++column) // dtype, shape, params, bytes, offsets
        columns.markGenerated(column);
    // The generated cells' widths are counted, not formatted: ASCII digits and separators.
    const auto measure = [&](const CheckpointTensor& t) {
        columns.widen(0, terminalSafe(t.info.name).size());
        columns.widen(1, dtypeNames[static_cast<std::size_t>(t.info.dtype)].size());
        columns.widen(2, shapeWidth(t.info));
        columns.widen(3, groupedWidth(t.info.elementCount()));
        columns.widen(4, groupedWidth(t.info.byteSize()));
        columns.widen(5, 4 + digitCount(t.info.begin) + digitCount(t.info.end));
        if (model.isSharded())
            columns.widen(6, terminalSafe(model.parts()[static_cast<std::size_t>(t.part)].name).size());
    };
    for (const CheckpointTensor& t : model.tensors()) {
        if (shown(t))
            measure(t);
    }
    QString pending;
    columns.appendLine(pending, head);
    for (const CheckpointTensor& t : model.tensors()) {
        if (!shown(t))
            continue;
        pending += QLatin1Char('\n');
        columns.appendLine(pending, format(t));
        if (pending.size() > kFlushChars) {
            outRaw(pending.toUtf8());
            pending.truncate(0);
        }
    }
    pending += QLatin1Char('\n');
    outRaw(pending.toUtf8());
    return ExitOk;
}

} // namespace ts::cli
