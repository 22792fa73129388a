#include "CheckpointOpening.h"
#include "CliOutput.h"
#include "CommandHelp.h"
#include "Commands.h"
#include "TerminalProgress.h"
#include "ThreadsOption.h"

#include "analysis/ProgressText.h"
#include "architecture/ModelProfile.h"
#include "base/Format.h"
#include "base/TerminalText.h"
#include "checkpoint/Checkpoint.h"
#include "report/ReportBuilder.h"
#include "report/ReportOutput.h"
#include "write/InputFiles.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <atomic>
#include <cstdio>
#include <memory>

namespace ts::cli {
namespace {

// The phase and its bar on stderr, redrawn in place, only for a person watching. The phase is
// set on run()'s thread before the sink hears of that phase's bytes, and the sink's listener
// runs on a worker: hence the atomic.
void showProgress(ReportBuilder& builder, std::shared_ptr<std::atomic<ReportPhase>> phase)
{
    if (!stderrIsTerminal())
        return;
    builder.setPhaseListener([phase](ReportPhase p) { phase->store(p); });
    builder.setControl({CancelToken(), ProgressSink([phase](const Progress& p) {
                            const QString label = phase->load() == ReportPhase::Hashing
                                                      ? QStringLiteral("Hashing files  ")
                                                      : QStringLiteral("Scanning tensors  ");
                            const QByteArray line = '\r' + (label + progressLine(p, 24)).toUtf8() + "\x1b[K";
                            std::fwrite(line.constData(), 1, static_cast<std::size_t>(line.size()), stderr);
                            std::fflush(stderr);
                        })});
}

} // namespace

int runReport(const QStringList& args)
{
    QCommandLineParser parser;
    if (const auto answered = parseCommand(parser, QStringLiteral("report"), args))
        return *answered;
    const QString usage = help::usageLine(QStringLiteral("report"));
    if (parser.positionalArguments().size() != 1 || !parser.isSet(QStringLiteral("output"))) {
        err(usage);
        return ExitUsage;
    }
    const QString path = parser.positionalArguments().front();
    const QString target = parser.value(QStringLiteral("output"));
    const std::optional<ReportFormat> format = ReportOutput::formatFor(target);
    if (!format) {
        err(QStringLiteral("tensorscope-cli: %1: the report must end in .html, .json or .md")
                .arg(terminalSafe(target)));
        return ExitUsage;
    }
    // The main report, then the other formats asked for, beside it under the same name.
    std::vector<std::pair<QString, ReportFormat>> outputs = {{target, *format}};
    if (parser.isSet(QStringLiteral("json")) && *format != ReportFormat::Json)
        outputs.emplace_back(ReportOutput::sibling(target, ReportFormat::Json), ReportFormat::Json);
    if (parser.isSet(QStringLiteral("md")) && *format != ReportFormat::Markdown)
        outputs.emplace_back(ReportOutput::sibling(target, ReportFormat::Markdown), ReportFormat::Markdown);
    ReportOptions options;
    options.hash = !parser.isSet(QStringLiteral("no-hash"));
    options.scan = !parser.isSet(QStringLiteral("no-scan"));
    options.tool = QStringLiteral("Tensorscope ") + QCoreApplication::applicationVersion();
    if (const auto bad = readThreadsOption(parser, options.threads))
        return *bad;
    int status = ExitOk;
    const auto model = openForReading(path, true, &status);
    if (!model)
        return status;

    // Refused before anything is read: a report over one of the model's files, or over a file
    // that exists without --force.
    QStringList inputs = model->files();
    const QString config = ModelProfiler::configBeside(*model);
    if (!config.isEmpty())
        inputs << config;
    const InputFiles protectedFiles(inputs);
    const bool force = parser.isSet(QStringLiteral("force"));
    for (const auto& [file, kind] : outputs) {
        (void)kind;
        if (auto r = protectedFiles.refuseOverwrite(
                file, QStringLiteral("a report never replaces the model it describes"));
            !r) {
            err(r.error());
            return ExitUsage;
        }
        const QFileInfo existing(file);
        if ((existing.exists() || existing.isSymLink()) && !force) {
            err(QStringLiteral("tensorscope-cli: %1 exists; pass --force to replace it")
                    .arg(terminalSafe(file)));
            return ExitUsage;
        }
    }

    ReportBuilder builder(model, path, options);
    showProgress(builder, std::make_shared<std::atomic<ReportPhase>>(ReportPhase::Hashing));
    auto report = builder.run();
    clearScanProgress();
    if (!report) {
        err(report.error());
        return exitFor(report.error());
    }
    for (const auto& [file, kind] : outputs) {
        if (auto written =
                ReportOutput::write(file, ReportOutput::render(*report, kind), protectedFiles, force);
            !written) {
            err(written.error());
            return ExitUsage;
        }
        out(QStringLiteral("wrote %1 (%2)")
                .arg(terminalSafe(file), formatBytes(static_cast<std::uint64_t>(QFileInfo(file).size()))));
    }
    const std::vector<Diagnostic> all = report->allFindings();
    int errors = 0, warnings = 0;
    for (const Diagnostic& d : all) {
        errors += d.severity == Severity::Error;
        warnings += d.severity == Severity::Warning;
    }
    const HubParameterCount& hub = report->profile.hub;
    out(QStringLiteral("%1: %2, %3 parameters as the Hub counts; %4, %5.")
            .arg(terminalSafe(report->title),
                 terminalSafe(report->profile.architecture.recognized()
                                  ? report->profile.architecture.name
                                  : QStringLiteral("architecture not recognised")),
                 hub.counted ? formatGrouped(hub.total()) : QStringLiteral("no"),
                 formatNoun(errors, "error", "errors"), formatNoun(warnings, "warning", "warnings")));
    return errors > 0 ? ExitInvalid : ExitOk;
}

} // namespace ts::cli
