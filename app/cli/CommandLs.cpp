#include "CheckpointOpening.h"
#include "CliOutput.h"
#include "CommandHelp.h"
#include "Commands.h"

#include "base/Format.h"
#include "base/Glob.h"
#include "base/JsonWriter.h"
#include "checkpoint/Checkpoint.h"
#include "checkpoint/CheckpointJson.h"

#include <QFileInfo>

namespace ts::cli {

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
    std::vector<const CheckpointTensor*> shown;
    for (const CheckpointTensor& t : model.tensors()) {
        if (!filtered || glob.match(t.info.name).hasMatch())
            shown.push_back(&t);
    }

    if (parser.isSet(QStringLiteral("json"))) {
        JsonWriter json;
        json.beginObject();
        json.key(QStringLiteral("file")).value(model.path());
        json.key(QStringLiteral("tensors")).beginArray();
        for (const CheckpointTensor* t : shown) {
            if (!model.isSharded()) {
                writeTensorJson(json, t->info);
                continue;
            }
            // Sharded: the same object plus the shard it lives in.
            JsonWriter one;
            writeTensorJson(one, t->info);
            QByteArray obj = one.data();
            obj.chop(1);
            JsonWriter shard;
            shard.value(model.parts()[static_cast<std::size_t>(t->part)].name);
            json.raw(obj + ",\"shard\":" + shard.data() + '}');
        }
        json.endArray();
        json.key(QStringLiteral("metadata"));
        writeMetadataJson(json, model.metadata());
        json.endObject();
        outRaw(json.data() + '\n');
        return ExitOk;
    }
    QList<QStringList> rows;
    QStringList head{QStringLiteral("NAME"),   QStringLiteral("DTYPE"), QStringLiteral("SHAPE"),
                     QStringLiteral("PARAMS"), QStringLiteral("BYTES"), QStringLiteral("OFFSETS")};
    if (model.isSharded())
        head << QStringLiteral("SHARD");
    rows << head;
    for (const CheckpointTensor* t : shown) {
        QStringList row{t->info.name,
                        dtypeName(t->info.dtype),
                        t->info.shapeString(),
                        formatGrouped(t->info.elementCount()),
                        formatGrouped(t->info.byteSize()),
                        QStringLiteral("[%1, %2]").arg(t->info.begin).arg(t->info.end)};
        if (model.isSharded())
            row << model.parts()[static_cast<std::size_t>(t->part)].name;
        rows << row;
    }
    out(formatTable(rows));
    return ExitOk;
}

} // namespace ts::cli
