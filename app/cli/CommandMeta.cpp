#include "CliOutput.h"
#include "Commands.h"

#include "JsonWriter.h"
#include "MetadataSave.h"
#include "Model.h"
#include "ModelJson.h"
#include "SafetensorsWriter.h"
#include "SaveJournal.h"
#include "TerminalText.h"

namespace ts::cli {

int runMeta(const QStringList& args)
{
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print the metadata as a JSON object (null when absent).")});
    parser.addOption({QStringLiteral("set"), QStringLiteral("Set KEY to VALUE (repeatable)."), QStringLiteral("KEY=VALUE")});
    parser.addOption({QStringLiteral("unset"), QStringLiteral("Remove KEY (repeatable)."), QStringLiteral("KEY")});
    parser.addOption({QStringLiteral("clear"), QStringLiteral("Remove every key before applying --set.")});
    parser.addOption({QStringLiteral("no-metadata"), QStringLiteral("Write the file without a __metadata__ entry at all.")});
    parser.addOption({{QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("Write to OUT instead of FILE."), QStringLiteral("OUT")});
    parser.addOption({QStringLiteral("header-slack"), QStringLiteral("Pad the header with BYTES spaces for later in-place edits."),
                      QStringLiteral("BYTES"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("no-in-place"),
                      QStringLiteral("Always rewrite the whole file, even when the new header fits in the old one.")});
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A .safetensors file."));
    const QString usage = QStringLiteral(
        "usage: tensorscope-cli meta FILE [--set KEY=VALUE]... [--unset KEY]... [--clear] [--no-metadata] [-o OUT] "
        "[--header-slack BYTES] [--no-in-place] [--json]");
    if (!parseOrExplain(parser, args, usage))
        return ExitUsage;
    if (parser.positionalArguments().size() != 1) {
        err(usage);
        return ExitUsage;
    }
    const QString path = parser.positionalArguments().front();
    // A save interrupted by a crash is rolled back before anything reads the file.
    if (auto recovered = recoverInterruptedSave(path); !recovered) {
        err(recovered.error());
        return exitFor(recovered.error());
    } else if (recovered.value() == RecoveryOutcome::RolledBack) {
        err(QStringLiteral(
                "tensorscope-cli: %1: an interrupted metadata save was rolled back; the file is as it was "
                "before that save")
                .arg(terminalSafe(path)));
    }
    auto opened = Model::open(path);
    if (!opened) {
        err(opened.error());
        return exitFor(opened.error());
    }
    const Model& model = **opened;
    const bool edits = parser.isSet(QStringLiteral("set")) || parser.isSet(QStringLiteral("unset")) ||
                       parser.isSet(QStringLiteral("clear")) || parser.isSet(QStringLiteral("no-metadata"));
    if (!edits) {
        if (parser.isSet(QStringLiteral("json"))) {
            JsonWriter json;
            writeMetadataJson(json, model.metadata());
            outRaw(json.data() + '\n');
        } else if (!model.metadata()) {
            out(QStringLiteral("(no metadata)"));
        } else {
            for (const auto& [key, value] : model.metadata()->entries())
                out(terminalSafe(key) + QStringLiteral(" = ") + terminalSafe(value));
        }
        return ExitOk;
    }
    if (model.isSharded()) {
        err(QStringLiteral("tensorscope-cli: %1 is a sharded model; edit the metadata of each shard file")
                .arg(terminalSafe(path)));
        return ExitUsage;
    }
    bool slackOk = false;
    const qulonglong slack = parser.value(QStringLiteral("header-slack")).toULongLong(&slackOk);
    if (!slackOk || slack > 64ull * 1024 * 1024) {
        err(QStringLiteral("tensorscope-cli: --header-slack must be a byte count up to 67108864"));
        return ExitUsage;
    }
    std::optional<Metadata> metadata = model.metadata();
    if (parser.isSet(QStringLiteral("clear")) || !metadata)
        metadata = Metadata{};
    for (const QString& key : parser.values(QStringLiteral("unset")))
        metadata->remove(key);
    for (const QString& assignment : parser.values(QStringLiteral("set"))) {
        const qsizetype eq = assignment.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            err(QStringLiteral("tensorscope-cli: --set expects KEY=VALUE, got \"%1\"")
                    .arg(terminalSafe(assignment)));
            return ExitUsage;
        }
        metadata->set(assignment.left(eq), assignment.mid(eq + 1));
    }
    if (parser.isSet(QStringLiteral("no-metadata")))
        metadata.reset();
    const QString target = parser.isSet(QStringLiteral("output")) ? parser.value(QStringLiteral("output")) : path;
    MetadataSaveOptions options;
    options.headerSlack = slack;
    options.allowInPlace = !parser.isSet(QStringLiteral("no-in-place"));
    const auto saved = MetadataSave::save(*model.shards().front(), metadata, target, options);
    if (!saved) {
        err(saved.error());
        return exitFor(saved.error());
    }
    const QString how = saved->method == SaveMethod::InPlace
                            ? QStringLiteral("in place: only the header was rewritten, %1 bytes written with the journal")
                                  .arg(saved->bytesWritten)
                            : QStringLiteral("full rewrite: %1").arg(saved->whyNotInPlace);
    if (parser.isSet(QStringLiteral("json"))) {
        JsonWriter json;
        writeMetadataJson(json, metadata);
        outRaw(json.data() + '\n');
        err(QStringLiteral("wrote %1 (%2)")
                .arg(terminalSafe(target), terminalSafe(how))); // stderr keeps stdout one JSON value
    } else {
        out(QStringLiteral("wrote %1 (%2)").arg(terminalSafe(target), terminalSafe(how)));
    }
    return ExitOk;
}

} // namespace ts::cli
