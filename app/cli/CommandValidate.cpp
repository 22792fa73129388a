#include "CheckpointOpening.h"
#include "CliOutput.h"
#include "CommandHelp.h"
#include "Commands.h"

#include "base/Format.h"
#include "base/JsonWriter.h"
#include "base/TerminalText.h"
#include "checkpoint/Checkpoint.h"
#include "checkpoint/CheckpointJson.h"

namespace ts::cli {
namespace {

struct Verdict {
    QString file;
    std::shared_ptr<const Checkpoint> model; // set when valid
    std::optional<Error> error;
};

void printJson(const Verdict& v)
{
    JsonWriter json;
    json.beginObject();
    json.key(QStringLiteral("file")).value(v.file);
    json.key(QStringLiteral("ok")).value(!v.error.has_value());
    json.key(QStringLiteral("error"));
    if (v.error)
        json.value(errorCodeName(v.error->code));
    else
        json.null();
    json.key(QStringLiteral("message")).value(v.error ? v.error->message : QStringLiteral("valid"));
    if (v.error) {
        json.key(QStringLiteral("tensor"));
        if (v.error->tensor.isNull())
            json.null();
        else
            json.value(v.error->tensor);
        json.key(QStringLiteral("offset"));
        if (v.error->offset)
            json.value(*v.error->offset);
        else
            json.null();
    }
    json.key(QStringLiteral("warnings"));
    writeDiagnosticsJson(json, v.model ? v.model->warnings() : std::vector<Diagnostic>{});
    if (v.model) {
        json.key(QStringLiteral("tensors")).beginArray();
        for (const CheckpointTensor& t : v.model->tensors())
            writeTensorJson(json, t.info);
        json.endArray();
        json.key(QStringLiteral("metadata"));
        writeMetadataJson(json, v.model->metadata());
    }
    json.endObject();
    outRaw(json.data() + '\n');
}

void printText(const Verdict& v)
{
    if (v.error) {
        out(QStringLiteral("INVALID  ") + terminalSafe(v.error->toString()));
        if (const QString note = journalNote(v.file, *v.error); !note.isEmpty())
            out(QStringLiteral("         ") + terminalSafe(note));
        return;
    }
    out(QStringLiteral("OK       %1  (%2, %3)")
            .arg(terminalSafe(v.file), formatNoun(v.model->tensors().size(), "tensor", "tensors"),
                 formatNoun(v.model->warnings().size(), "warning", "warnings")));
    for (const Diagnostic& d : v.model->warnings())
        out(QStringLiteral("         %1 [%2] %3")
                .arg(severityName(d.severity), d.code, terminalSafe(d.message)));
}

} // namespace

int runValidate(const QStringList& args)
{
    QCommandLineParser parser;
    if (const auto answered = parseCommand(parser, QStringLiteral("validate"), args))
        return *answered;
    const QString usage = help::usageLine(QStringLiteral("validate"));
    if (parser.positionalArguments().isEmpty()) {
        err(usage);
        return ExitUsage;
    }
    const bool asJson = parser.isSet(QStringLiteral("json"));
    int status = ExitOk;
    for (const QString& file : parser.positionalArguments()) {
        Verdict v{file, nullptr, std::nullopt};
        auto model = Checkpoint::open(file);
        if (model)
            v.model = std::move(model.value());
        else {
            v.error = model.error();
            status = std::max(status, exitFor(model.error()));
        }
        if (asJson)
            printJson(v);
        else
            printText(v);
    }
    return status;
}

} // namespace ts::cli
