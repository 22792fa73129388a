#include "CheckpointOpening.h"
#include "CliOutput.h"
#include "CommandHelp.h"
#include "Commands.h"

#include "base/Format.h"
#include "base/JsonWriter.h"
#include "base/TerminalText.h"
#include "checkpoint/Checkpoint.h"
#include "checkpoint/CheckpointJson.h"
#include "checkpoint/DtypeTally.h"

#include <QFileInfo>

namespace ts::cli {
namespace {

QString kindName(Checkpoint::Kind kind)
{
    switch (kind) {
    case Checkpoint::Kind::SingleFile:
        return QStringLiteral("file");
    case Checkpoint::Kind::IndexedShards:
        return QStringLiteral("index");
    case Checkpoint::Kind::FolderOfShards:
        return QStringLiteral("folder");
    }
    return {};
}

void printJson(const Checkpoint& model, const std::vector<DtypeTotals>& byDtype)
{
    JsonWriter json;
    json.beginObject();
    json.key(QStringLiteral("file")).value(model.path());
    json.key(QStringLiteral("kind")).value(kindName(model.kind()));
    json.key(QStringLiteral("shards")).beginArray();
    for (const CheckpointPart& part : model.parts()) {
        json.beginObject();
        json.key(QStringLiteral("file")).value(part.location);
        json.key(QStringLiteral("size")).value(part.size());
        json.key(QStringLiteral("header_bytes")).value(part.headerBytes);
        json.key(QStringLiteral("tensors")).value(static_cast<std::uint64_t>(part.tensorCount));
        json.endObject();
    }
    json.endArray();
    json.key(QStringLiteral("size")).value(model.totalFileBytes());
    json.key(QStringLiteral("header_bytes")).value(model.headerBytes());
    json.key(QStringLiteral("tensor_count")).value(static_cast<std::uint64_t>(model.tensors().size()));
    json.key(QStringLiteral("parameters")).value(model.totalParameters());
    json.key(QStringLiteral("tensor_bytes")).value(model.totalTensorBytes());
    json.key(QStringLiteral("dtypes")).beginArray();
    for (const DtypeTotals& d : byDtype) {
        json.beginObject();
        json.key(QStringLiteral("dtype")).value(dtypeName(d.dtype));
        json.key(QStringLiteral("tensors")).value(d.tensors);
        json.key(QStringLiteral("parameters")).value(d.parameters);
        json.key(QStringLiteral("bytes")).value(d.bytes);
        json.endObject();
    }
    json.endArray();
    json.key(QStringLiteral("metadata"));
    writeMetadataJson(json, model.metadata());
    json.key(QStringLiteral("warnings"));
    writeDiagnosticsJson(json, model.warnings());
    json.endObject();
    outRaw(json.data() + '\n');
}

void printText(const Checkpoint& model, const std::vector<DtypeTotals>& byDtype)
{
    QList<QStringList> rows;
    rows << QStringList{QStringLiteral("File:"), model.path()};
    if (model.isSharded())
        rows << QStringList{QStringLiteral("Shards:"), QString::number(model.parts().size())};
    rows << QStringList{QStringLiteral("Size:"),
                        QStringLiteral("%1 (%2 bytes)")
                            .arg(formatBytes(model.totalFileBytes()), formatGrouped(model.totalFileBytes()))};
    rows << QStringList{QStringLiteral("Header:"),
                        QStringLiteral("%1 bytes").arg(formatGrouped(model.headerBytes()))};
    rows << QStringList{QStringLiteral("Tensors:"), formatGrouped(model.tensors().size())};
    rows << QStringList{QStringLiteral("Parameters:"),
                        QStringLiteral("%1 (%2)").arg(formatCount(model.totalParameters()),
                                                      formatGrouped(model.totalParameters()))};
    out(formatTable(rows));
    out(QStringLiteral("\nBy dtype:"));
    QList<QStringList> dtypes;
    dtypes << QStringList{QStringLiteral("  dtype"), QStringLiteral("tensors"), QStringLiteral("parameters"),
                          QStringLiteral("bytes")};
    for (const DtypeTotals& d : byDtype) {
        dtypes << QStringList{QStringLiteral("  ") + dtypeName(d.dtype), formatGrouped(d.tensors),
                              formatCount(d.parameters), formatBytes(d.bytes)};
    }
    out(formatTable(dtypes));
    const auto& metadata = model.metadata();
    if (!metadata) {
        out(QStringLiteral("\nMetadata: none"));
    } else {
        out(QStringLiteral("\nMetadata: %1").arg(formatNoun(metadata->size(), "key", "keys")));
        for (const auto& [key, value] : metadata->entries()) {
            QString shown = value;
            if (shown.size() > 200)
                shown = shown.left(200) + QStringLiteral("… (%1 chars)").arg(value.size());
            out(QStringLiteral("  %1 = %2").arg(terminalSafe(key), terminalSafe(shown)));
        }
    }
    if (model.warnings().empty()) {
        out(QStringLiteral("\nWarnings: none"));
    } else {
        out(QStringLiteral("\nWarnings: %1").arg(model.warnings().size()));
        for (const Diagnostic& d : model.warnings())
            out(QStringLiteral("  %1 [%2] %3")
                    .arg(severityName(d.severity), d.code, terminalSafe(d.message)));
    }
}

} // namespace

int runInfo(const QStringList& args)
{
    QCommandLineParser parser;
    if (const auto answered = parseCommand(parser, QStringLiteral("info"), args))
        return *answered;
    const QString usage = help::usageLine(QStringLiteral("info"));
    if (parser.positionalArguments().size() != 1) {
        err(usage);
        return ExitUsage;
    }
    int status = ExitOk;
    const auto model = openForReading(parser.positionalArguments().front(), false, &status);
    if (!model)
        return status;
    // The totals without the name tree: at 4 M tensors the tree cost more than the parse.
    DtypeTally tally;
    for (const CheckpointTensor& t : model->tensors())
        tally.add(t.info);
    if (parser.isSet(QStringLiteral("json")))
        printJson(*model, tally.totals());
    else
        printText(*model, tally.totals());
    return ExitOk;
}

} // namespace ts::cli
