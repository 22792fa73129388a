#include "CliOutput.h"
#include "CommandHelp.h"
#include "Commands.h"

#include "base/Format.h"
#include "base/JsonWriter.h"
#include "base/TerminalText.h"
#include "checkpoint/CheckpointJson.h"
#include "checkpoint/PyTorchCheckpoint.h"

#include <QFileInfo>

namespace ts::cli {
namespace {

QString verdictOf(const PyTorchCheckpoint& c)
{
    if (c.runsCode())
        return QStringLiteral("dangerous");
    if (c.hasStructuralProblems())
        return QStringLiteral("unsafe-structure");
    for (const pickle::GlobalUse& g : c.globals()) {
        if (g.verdict.cls == pickle::GlobalClass::Unknown)
            return QStringLiteral("unknown-globals");
    }
    return QStringLiteral("clean");
}

QString verdictSentence(const PyTorchCheckpoint& c)
{
    const QString v = verdictOf(c);
    if (v == QLatin1String("dangerous"))
        return QStringLiteral(
            "DANGEROUS: loading it with torch.load would run code (see the findings below)");
    if (v == QLatin1String("unsafe-structure"))
        return QStringLiteral(
            "no dangerous global, but built so that readers may disagree about what it holds");
    if (v == QLatin1String("unknown-globals"))
        return QStringLiteral("no dangerous global; it names globals torch's weights_only loader refuses");
    return QStringLiteral("clean: only globals torch's weights_only loader allows, no structural oddity");
}

void printJson(const PyTorchCheckpoint& c)
{
    JsonWriter json;
    json.beginObject();
    json.key(QStringLiteral("file")).value(c.path());
    json.key(QStringLiteral("format")).value(c.formatName());
    json.key(QStringLiteral("verdict")).value(verdictOf(c));
    json.key(QStringLiteral("runs_code")).value(c.runsCode());
    json.key(QStringLiteral("structural_problems")).value(c.hasStructuralProblems());
    json.key(QStringLiteral("convertible")).value(c.capabilities().convertFrom);
    json.key(QStringLiteral("tensors")).value(static_cast<std::uint64_t>(c.tensors().size()));
    json.key(QStringLiteral("globals")).beginArray();
    for (const pickle::GlobalUse& g : c.globals()) {
        json.beginObject();
        json.key(QStringLiteral("module")).value(QString::fromStdString(g.module));
        json.key(QStringLiteral("name")).value(QString::fromStdString(g.name));
        json.key(QStringLiteral("resolved")).value(QString::fromStdString(g.verdict.resolved));
        json.key(QStringLiteral("class")).value(pickle::globalClassName(g.verdict.cls));
        json.key(QStringLiteral("count")).value(g.count);
        json.key(QStringLiteral("first_offset")).value(g.firstOffset);
        json.key(QStringLiteral("where")).value(g.where);
        json.key(QStringLiteral("read_by_torch")).value(g.readByTorch);
        json.key(QStringLiteral("why"));
        if (g.verdict.why.isEmpty())
            json.null();
        else
            json.value(g.verdict.why);
        json.endObject();
    }
    json.endArray();
    json.key(QStringLiteral("findings"));
    writeDiagnosticsJson(json, c.warnings());
    json.endObject();
    outRaw(json.data() + '\n');
}

void printText(const PyTorchCheckpoint& c)
{
    out(QStringLiteral("%1: %2, %3")
            .arg(terminalSafe(c.path()), c.formatName(),
                 formatNoun(c.tensors().size(), "tensor", "tensors")));
    out(QStringLiteral("Verdict: %1").arg(verdictSentence(c)));
    out(QStringLiteral("\nGlobals: %1").arg(c.globals().size()));
    QList<QStringList> rows;
    for (pickle::GlobalClass cls :
         {pickle::GlobalClass::Dangerous, pickle::GlobalClass::Unknown, pickle::GlobalClass::Allowed}) {
        for (const pickle::GlobalUse& g : c.globals()) {
            if (g.verdict.cls != cls)
                continue;
            rows << QStringList{QStringLiteral("  ") + pickle::globalClassName(cls),
                                QString::fromStdString(g.verdict.resolved),
                                QStringLiteral("%1x").arg(g.count),
                                QStringLiteral("byte %1").arg(g.firstOffset),
                                g.where +
                                    (g.readByTorch ? QString() : QStringLiteral(" (not run by torch.load)")),
                                g.verdict.why};
        }
    }
    if (!rows.isEmpty())
        out(formatTable(rows));
    int shown = 0;
    for (const Diagnostic& d : c.warnings()) {
        if (d.code.startsWith(QLatin1String("PickleGlobal")) ||
            d.code == QLatin1String("PickleUnknownGlobal") ||
            d.code == QLatin1String("PickleDangerousGlobal"))
            continue;
        if (shown++ == 0)
            out(QStringLiteral("\nFindings:"));
        out(QStringLiteral("  %1 [%2] %3").arg(severityName(d.severity), d.code, terminalSafe(d.message)));
    }
    if (shown == 0)
        out(QStringLiteral("\nFindings: none"));
}

} // namespace

int runAuditPickle(const QStringList& args)
{
    QCommandLineParser parser;
    if (const auto answered = parseCommand(parser, QStringLiteral("audit-pickle"), args))
        return *answered;
    if (parser.positionalArguments().size() != 1) {
        err(help::usageLine(QStringLiteral("audit-pickle")));
        return ExitUsage;
    }
    const QString path = parser.positionalArguments().front();
    if (!QFileInfo(path).isFile()) {
        err(QStringLiteral("%1: not a file").arg(terminalSafe(path)));
        return ExitUsage;
    }
    if (!PyTorchCheckpoint::recognizes(path)) {
        // A safetensors file (or anything else) holds no pickle: nothing in it would run.
        out(QStringLiteral("%1: not a pickle checkpoint; it holds no code to run").arg(terminalSafe(path)));
        return ExitOk;
    }
    auto opened = PyTorchCheckpoint::open(path);
    if (!opened) {
        err(opened.error());
        return exitFor(opened.error());
    }
    const auto* c = static_cast<const PyTorchCheckpoint*>(opened.value().get());
    if (parser.isSet(QStringLiteral("json")))
        printJson(*c);
    else
        printText(*c);
    return c->runsCode() ? ExitInvalid : ExitOk;
}

} // namespace ts::cli
