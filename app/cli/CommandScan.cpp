#include "CheckpointOpening.h"
#include "CliOutput.h"
#include "CommandHelp.h"
#include "Commands.h"
#include "TerminalProgress.h"
#include "ThreadsOption.h"

#include "analysis/ModelScanner.h"
#include "analysis/ScanJson.h"
#include "base/Format.h"
#include "base/JsonWriter.h"
#include "base/TerminalText.h"
#include "checkpoint/Checkpoint.h"
#include "checkpoint/CheckpointJson.h"

namespace ts::cli {
namespace {

void printText(const Checkpoint& model, const ScanResult& result, bool nanInfOnly)
{
    int errors = 0, warnings = 0;
    for (const Diagnostic& d : result.findings) {
        errors += d.severity == Severity::Error;
        warnings += d.severity == Severity::Warning;
        out(QStringLiteral("%1 [%2] %3").arg(severityName(d.severity), d.code, terminalSafe(d.message)));
    }
    if (!result.findings.empty())
        out(QString());
    const double rate = result.seconds > 0 ? static_cast<double>(result.bytes) / result.seconds : 0;
    const auto notes = static_cast<std::uint64_t>(result.findings.size()) - errors - warnings;
    out(QStringLiteral("%1 %2, %3 in %4 s (%5/s): %6, %7, %8.")
            .arg(nanInfOnly ? QStringLiteral("Checked for NaN/Inf") : QStringLiteral("Scanned"),
                 formatNoun(result.tensors.size(), "tensor", "tensors"), formatBytes(result.bytes),
                 QString::number(result.seconds, 'f', 2), formatBytes(static_cast<std::uint64_t>(rate)),
                 formatNoun(errors, "error", "errors"), formatNoun(warnings, "warning", "warnings"),
                 formatNoun(notes, "note", "notes")));
    (void)model;
}

} // namespace

int runScan(const QStringList& args)
{
    QCommandLineParser parser;
    if (const auto answered = parseCommand(parser, QStringLiteral("scan"), args))
        return *answered;
    const QString usage = help::usageLine(QStringLiteral("scan"));
    if (parser.positionalArguments().size() != 1) {
        err(usage);
        return ExitUsage;
    }
    ScanOptions options;
    options.nanInfOnly = parser.isSet(QStringLiteral("nan-inf-only"));
    options.quantiles = parser.isSet(QStringLiteral("quantiles")) && !options.nanInfOnly;
    if (const auto bad = readThreadsOption(parser, options.threads))
        return *bad;
    int status = ExitOk;
    const auto model = openForReading(parser.positionalArguments().front(), true, &status);
    if (!model)
        return status;
    ModelScanner scanner(model, options);
    showScanProgress(scanner);
    auto result = scanner.run();
    clearScanProgress();
    if (!result) {
        err(result.error());
        return exitFor(result.error());
    }
    if (parser.isSet(QStringLiteral("json")))
        outRaw(scanResultJson(*model, *result, options.nanInfOnly));
    else
        printText(*model, *result, options.nanInfOnly);
    for (const Diagnostic& d : result->findings) {
        if (d.severity == Severity::Error)
            return ExitInvalid;
    }
    return ExitOk;
}

} // namespace ts::cli
