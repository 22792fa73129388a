#include "CheckpointOpening.h"
#include "CliOutput.h"
#include "CommandHelp.h"
#include "Commands.h"

#include "base/JsonWriter.h"
#include "checkpoint/Checkpoint.h"
#include "checkpoint/CheckpointJson.h"
#include "write/MetadataSave.h"
#include "write/SafetensorsWriter.h"
#include "write/SaveLock.h"
#include "write/SaveTarget.h"

#include <QFileInfo>

#include "base/TerminalText.h"
#include <chrono>
#include <optional>

namespace ts::cli {

int runMeta(const QStringList& args)
{
    QCommandLineParser parser;
    if (const auto answered = parseCommand(parser, QStringLiteral("meta"), args))
        return *answered;
    const QString usage = help::usageLine(QStringLiteral("meta"));
    if (parser.positionalArguments().size() != 1) {
        err(usage);
        return ExitUsage;
    }
    const QString path = parser.positionalArguments().front();
    const bool edits = parser.isSet(QStringLiteral("set")) || parser.isSet(QStringLiteral("unset")) ||
                       parser.isSet(QStringLiteral("clear")) || parser.isSet(QStringLiteral("no-metadata"));
    bool waitOk = false;
    const double waitSeconds = parser.value(QStringLiteral("wait")).toDouble(&waitOk);
    if (!waitOk || waitSeconds < 0 || waitSeconds > 86400) {
        err(QStringLiteral("tensorscope-cli: --wait must be a number of seconds"));
        return ExitUsage;
    }
    const auto wait = std::chrono::milliseconds(static_cast<qint64>(waitSeconds * 1000));
    // An edit of FILE itself is one read-modify-write: the lock is taken before the metadata is
    // read, so a concurrent save's change is read, not overwritten.
    std::optional<SaveLock> lock;
    if (edits && !parser.isSet(QStringLiteral("output")) && QFileInfo(path).isFile()) {
        const SaveTarget target = SaveTarget::inspect(path);
        if (auto r = target.check(parser.isSet(QStringLiteral("force"))); !r) {
            err(r.error());
            return exitFor(r.error());
        }
        auto acquired = SaveLock::acquire(target.resolved(), wait);
        if (!acquired) {
            err(acquired.error());
            return exitFor(acquired.error());
        }
        lock.emplace(std::move(acquired.value()));
    }
    // Reading never writes: a journal of an interrupted save is reported (InterruptedSave), and
    // only `tensorscope-cli recover` acts on it.
    int status = ExitOk;
    const auto opened = openForReading(path, true, &status);
    if (!opened)
        return status;
    const Checkpoint& model = *opened;
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
    if (!model.capabilities().editMetadata && model.parts().front().localPath.isEmpty()) {
        err(QStringLiteral("tensorscope-cli: %1 was read from a server and cannot be edited there; `convert "
                           "URL -o OUT --set KEY=VALUE` writes a local copy with the new metadata")
                .arg(terminalSafe(path)));
        return ExitUsage;
    }
    if (!model.capabilities().editMetadata) {
        err(QStringLiteral("tensorscope-cli: the metadata of %1 (%2) cannot be edited")
                .arg(terminalSafe(path), model.formatName()));
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
    const QString target =
        parser.isSet(QStringLiteral("output")) ? parser.value(QStringLiteral("output")) : path;
    MetadataSaveOptions options;
    options.headerSlack = slack;
    options.allowInPlace = !parser.isSet(QStringLiteral("no-in-place"));
    options.force = parser.isSet(QStringLiteral("force"));
    options.lockWait = wait;
    const auto saved = MetadataSave::save(*model.safetensorsFile(), metadata, target, options);
    if (!saved) {
        err(saved.error());
        return exitFor(saved.error());
    }
    const QString how =
        saved->method == SaveMethod::InPlace
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
