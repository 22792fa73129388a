// tensorscope-cli recover: the explicit act that applies or deletes what an interrupted save left
// beside a model. Every read command only reports these (InterruptedSave, LeftoverTemporary).
#include "CliOutput.h"
#include "CommandHelp.h"
#include "Commands.h"

#include "base/Format.h"
#include "base/JsonWriter.h"
#include "base/TerminalText.h"
#include "format/ShardIndex.h"
#include "write/AtomicFile.h"
#include "write/SaveJournal.h"

#include <QDir>
#include <QFileInfo>

namespace ts::cli {
namespace {

// The model files the user named: FILE itself, the shards an index lists, or a folder's
// .safetensors files. Journals of any other file are never looked at.
Result<QStringList> namedFiles(const QString& path)
{
    const QFileInfo info(path);
    if (info.isDir()) {
        QStringList files;
        const QDir dir(path);
        for (const QString& name : dir.entryList({QStringLiteral("*.safetensors")}, QDir::Files, QDir::Name))
            files << dir.filePath(name);
        return files;
    }
    if (info.isFile() && path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
        auto index = ShardIndex::load(path);
        if (!index)
            return index.error();
        QStringList files;
        for (const QString& shard : index->shardFiles)
            files << info.dir().filePath(shard);
        return files;
    }
    if (!info.exists())
        return makeError(ErrorCode::IoError, path, QStringLiteral("the file does not exist"));
    return QStringList{path};
}

struct Outcome {
    QString file;
    QString journalState; // SaveJournal::stateName
    QString action;       // restored, deleted journal, left alone, refused, ...
    QString detail;
    QStringList removedLeftovers;
    bool failed = false;
};

Outcome recoverOne(const QString& file, bool discard, bool removeLeftovers)
{
    Outcome o;
    o.file = file;
    const JournalInspection j = SaveJournal::inspect(file);
    o.journalState = SaveJournal::stateName(j.state);
    o.detail = j.detail;
    if (!j.exists()) {
        o.action = QStringLiteral("no journal");
    } else if (discard) {
        auto r = SaveJournal::remove(j.file);
        o.action = r ? QStringLiteral("deleted the journal; the file was not touched") : r.error().toString();
        o.failed = !r;
    } else {
        auto r = SaveJournal::restore(file);
        if (!r) {
            o.action = QStringLiteral("refused: ") + r.error().message;
            o.failed = true;
        } else if (r->restorable()) {
            o.action =
                QStringLiteral("restored the header from before the interrupted save; deleted the journal");
        } else {
            o.action = QStringLiteral("the file was already as before the save; deleted the journal");
        }
    }
    if (removeLeftovers) {
        for (const auto& [path, size] : AtomicFile::staleTemporaries(file))
            o.removedLeftovers << QStringLiteral("%1 (%2)").arg(QFileInfo(path).fileName(),
                                                                formatBytes(size));
        AtomicFile::removeStaleTemporaries(file);
    }
    return o;
}

} // namespace

int runRecover(const QStringList& args)
{
    QCommandLineParser parser;
    if (const auto answered = parseCommand(parser, QStringLiteral("recover"), args))
        return *answered;
    const QString usage = help::usageLine(QStringLiteral("recover"));
    if (parser.positionalArguments().size() != 1) {
        err(usage);
        return ExitUsage;
    }
    auto files = namedFiles(parser.positionalArguments().front());
    if (!files) {
        err(files.error());
        return exitFor(files.error());
    }
    int status = ExitOk;
    for (const QString& file : *files) {
        const Outcome o = recoverOne(file, parser.isSet(QStringLiteral("discard")),
                                     parser.isSet(QStringLiteral("remove-leftovers")));
        if (o.failed)
            status = ExitInvalid;
        if (parser.isSet(QStringLiteral("json"))) {
            JsonWriter json;
            json.beginObject();
            json.key(QStringLiteral("file")).value(o.file);
            json.key(QStringLiteral("journal")).value(o.journalState);
            json.key(QStringLiteral("ok")).value(!o.failed);
            json.key(QStringLiteral("action")).value(o.action);
            json.key(QStringLiteral("detail")).value(o.detail);
            json.key(QStringLiteral("removed_leftovers")).beginArray();
            for (const QString& l : o.removedLeftovers)
                json.value(l);
            json.endArray();
            json.endObject();
            outRaw(json.data() + '\n');
            continue;
        }
        const QString shown = terminalSafe(o.file);
        if (!o.detail.isEmpty())
            out(QStringLiteral("%1: %2").arg(shown, terminalSafe(o.detail)));
        out(QStringLiteral("%1: %2").arg(shown, terminalSafe(o.action)));
        for (const QString& l : o.removedLeftovers)
            out(QStringLiteral("%1: removed %2").arg(shown, terminalSafe(l)));
    }
    return status;
}

} // namespace ts::cli
