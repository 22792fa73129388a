#include "CheckpointOpening.h"
#include "CliOutput.h"
#include "CommandHelp.h"
#include "Commands.h"
#include "TerminalProgress.h"

#include "base/Format.h"
#include "base/JsonWriter.h"
#include "base/TerminalText.h"
#include "checkpoint/Checkpoint.h"
#include "checkpoint/CheckpointJson.h"
#include "convert/ConvertOptionsParser.h"
#include "convert/ConvertWriter.h"
#include "convert/Converter.h"

#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>

namespace ts::cli {
namespace {

QString countCell(const PlannedTensor& t, std::uint64_t n)
{
    return t.measured ? QString::number(n) : QStringLiteral("-");
}

void printReport(const ConvertPlan& plan)
{
    QList<QStringList> rows{{QStringLiteral("TENSOR"), QStringLiteral("DTYPE"), QStringLiteral("SHAPE"),
                             QStringLiteral("BYTES"), QStringLiteral("OVERFLOW"), QStringLiteral("UNDERFLOW"),
                             QStringLiteral("NAN"), QStringLiteral("INF"), QStringLiteral("NOTE")}};
    for (const PlannedTensor& t : plan.tensors) {
        QString note = t.note;
        if (t.name != t.sourceName)
            note = QStringLiteral("from \"%1\"").arg(t.sourceName) +
                   (note.isEmpty() ? QString() : QStringLiteral("; ") + note);
        const QString dtype =
            t.converts() ? dtypeName(t.from) + QStringLiteral("->") + dtypeName(t.to) : dtypeName(t.to);
        const QString bytes = t.converts() ? QStringLiteral("%1->%2").arg(t.bytesBefore()).arg(t.bytesAfter())
                                           : QString::number(t.bytesAfter());
        rows.append({t.name, dtype, TensorInfo{t.name, t.to, t.shape, 0, 0}.shapeString(), bytes,
                     countCell(t, t.counts.overflowed), countCell(t, t.counts.underflowed),
                     countCell(t, t.counts.nan), countCell(t, t.counts.inf), note});
    }
    out(formatTable(rows));
    const ConversionCounts total = plan.totalCounts();
    out(QStringLiteral("%1 tensors, %2 -> %3 bytes; %4 overflowed, %5 underflowed to zero, %6 NaN, %7 Inf")
            .arg(plan.tensors.size())
            .arg(plan.bytesBefore())
            .arg(plan.bytesAfter())
            .arg(total.overflowed)
            .arg(total.underflowed)
            .arg(total.nan)
            .arg(total.inf));
}

void writeReportJson(JsonWriter& json, const ConvertPlan& plan)
{
    json.key(QStringLiteral("tensors")).beginArray();
    for (const PlannedTensor& t : plan.tensors) {
        json.beginObject();
        json.key(QStringLiteral("name")).value(t.name);
        json.key(QStringLiteral("source")).value(t.sourceName);
        json.key(QStringLiteral("source_file")).value(t.sourceFile);
        json.key(QStringLiteral("from")).value(dtypeName(t.from));
        json.key(QStringLiteral("to")).value(dtypeName(t.to));
        json.key(QStringLiteral("shape")).beginArray();
        for (const std::uint64_t d : t.shape)
            json.value(d);
        json.endArray();
        json.key(QStringLiteral("bytes_before")).value(t.bytesBefore());
        json.key(QStringLiteral("bytes_after")).value(t.bytesAfter());
        json.key(QStringLiteral("converted")).value(t.converts());
        json.key(QStringLiteral("overflowed")).value(t.counts.overflowed);
        json.key(QStringLiteral("underflowed")).value(t.counts.underflowed);
        json.key(QStringLiteral("nan")).value(t.counts.nan);
        json.key(QStringLiteral("inf")).value(t.counts.inf);
        json.key(QStringLiteral("note")).value(t.note);
        json.endObject();
    }
    json.endArray();
    const ConversionCounts total = plan.totalCounts();
    json.key(QStringLiteral("bytes_before")).value(plan.bytesBefore());
    json.key(QStringLiteral("bytes_after")).value(plan.bytesAfter());
    json.key(QStringLiteral("overflowed")).value(total.overflowed);
    json.key(QStringLiteral("underflowed")).value(total.underflowed);
    json.key(QStringLiteral("nan")).value(total.nan);
    json.key(QStringLiteral("inf")).value(total.inf);
    json.key(QStringLiteral("metadata"));
    writeMetadataJson(json, plan.metadata);
}

// A "\rreport 42%" line on a terminal, a few times a second and once at the end; nothing when
// stderr is a pipe.
JobControl terminalProgress(const QString& what)
{
    if (!stderrIsTerminal())
        return {};
    return {CancelToken(), ProgressSink(
                               [what](const Progress& p) {
                                   const std::uint64_t done = p.bytesDone, total = p.bytesTotal;
                                   const int percent = total ? static_cast<int>(100 * done / total) : 100;
                                   std::fprintf(stderr, "\r%s %3d%%%s", qPrintable(what), percent,
                                                done == total ? "\n" : "");
                               },
                               std::chrono::milliseconds(200))};
}

// `message` quotes the user's arguments: escaped whole.
int usageError(const QString& message)
{
    err(QStringLiteral("tensorscope-cli: ") + terminalSafe(message));
    err(help::usageLine(QStringLiteral("convert")));
    return ExitUsage;
}

} // namespace

int runConvert(const QStringList& args)
{
    QCommandLineParser parser;
    if (const auto answered = parseCommand(parser, QStringLiteral("convert"), args))
        return *answered;
    const QStringList inputs = parser.positionalArguments();
    const bool dryRun = parser.isSet(QStringLiteral("dry-run"));
    if (inputs.isEmpty())
        return usageError(QStringLiteral("convert needs at least one input"));
    if (!parser.isSet(QStringLiteral("output")) && !dryRun)
        return usageError(QStringLiteral("convert needs -o OUT"));

    // Every option is read by the parser the Convert dialog uses too (convert/ConvertOptionsParser.h).
    const auto valueIfSet = [&parser](const QString& name) {
        return parser.isSet(name) ? std::optional<QString>(parser.value(name)) : std::nullopt;
    };
    auto parsed = parseConvertOptions(
        {valueIfSet(QStringLiteral("dtype")), parser.values(QStringLiteral("dtype-for")),
         parser.values(QStringLiteral("include")), parser.values(QStringLiteral("exclude")),
         parser.values(QStringLiteral("rename")), parser.values(QStringLiteral("set")),
         parser.values(QStringLiteral("unset")), valueIfSet(QStringLiteral("shard-size"))});
    if (!parsed)
        return usageError(parsed.error().message);
    ConvertOptions options = std::move(parsed.value());
    bool slackOk = false;
    options.headerSlack = parser.value(QStringLiteral("header-slack")).toULongLong(&slackOk);
    if (!slackOk || options.headerSlack > 64ull * 1024 * 1024)
        return usageError(QStringLiteral("--header-slack must be a byte count up to 67108864"));

    std::vector<std::shared_ptr<const Checkpoint>> models;
    CheckpointOpenOptions openOptions;
    openOptions.allowUnsafeStructure = parser.isSet(QStringLiteral("allow-unsafe-structure"));
    for (const QString& in : inputs) {
        int status = ExitOk;
        auto model = openForReading(in, true, &status, openOptions);
        if (!model)
            return status;
        // A refusal is a verdict on the file (a pickle that would run code), not a usage error.
        if (const CheckpointCapabilities c = model->capabilities();
            !c.convertFrom && !c.convertRefusal.isEmpty()) {
            err(QStringLiteral("tensorscope-cli: ") + terminalSafe(c.convertRefusal));
            return ExitInvalid;
        }
        models.push_back(std::move(model));
    }
    auto plan = Converter::plan(models, options);
    if (!plan) {
        err(plan.error());
        return ExitUsage; // the options cannot be carried out on these inputs
    }
    if (auto r = Converter::measure(plan.value(), terminalProgress(QStringLiteral("checking values"))); !r) {
        err(r.error());
        return exitFor(r.error());
    }
    const bool asJson = parser.isSet(QStringLiteral("json"));
    if (!asJson)
        printReport(plan.value());
    const ConversionCounts total = plan->totalCounts();
    if (total.overflowed > 0) {
        err(QStringLiteral("warning: %1 out of range of their new dtype and become Inf (or ±448 in F8_E4M3)")
                .arg(total.overflowed == 1
                         ? QStringLiteral("1 value is")
                         : formatNoun(total.overflowed, "value", "values") + QStringLiteral(" are")));
    }
    QStringList written;
    if (!dryRun) {
        auto files = ConvertWriter::write(plan.value(), parser.value(QStringLiteral("output")), options,
                                          terminalProgress(QStringLiteral("writing")));
        if (!files) {
            err(files.error());
            return exitFor(files.error());
        }
        written = files.value();
    }
    if (asJson) {
        JsonWriter json;
        json.beginObject();
        writeReportJson(json, plan.value());
        json.key(QStringLiteral("dry_run")).value(dryRun);
        json.key(QStringLiteral("written")).beginArray();
        for (const QString& f : written)
            json.value(f);
        json.endArray();
        json.endObject();
        outRaw(json.data() + '\n');
    } else {
        for (const QString& f : written)
            out(QStringLiteral("wrote %1").arg(terminalSafe(f)));
    }
    return ExitOk;
}

} // namespace ts::cli
