#include "CheckpointOpening.h"
#include "CliOutput.h"
#include "CommandHelp.h"
#include "Commands.h"

#include "base/TerminalText.h"
#include "checkpoint/Checkpoint.h"
#include "convert/TensorExporter.h"
#include "write/InputFiles.h"

#include <QFileInfo>

namespace ts::cli {

int runExport(const QStringList& args)
{
    QCommandLineParser parser;
    if (const auto answered = parseCommand(parser, QStringLiteral("export"), args))
        return *answered;
    const QString usage = help::usageLine(QStringLiteral("export"));
    if (parser.positionalArguments().size() != 2 || !parser.isSet(QStringLiteral("output"))) {
        err(usage);
        return ExitUsage;
    }
    const QString path = parser.positionalArguments().at(0);
    const QString name = parser.positionalArguments().at(1);
    const QString target = parser.value(QStringLiteral("output"));
    const auto format = TensorExporter::formatForPath(target);
    if (!format) {
        err(QStringLiteral("tensorscope-cli: %1: the output must end in .npy or .csv")
                .arg(terminalSafe(target)));
        return ExitUsage;
    }
    int status = ExitOk;
    const auto opened = openForReading(path, true, &status);
    if (!opened)
        return status;
    const Checkpoint& model = *opened;
    const int index = model.indexOf(name);
    if (index < 0) {
        err(QStringLiteral("tensorscope-cli: %1 has no tensor named \"%2\"")
                .arg(terminalSafe(path), terminalSafe(name)));
        return ExitUsage;
    }
    // The model's own files first: --force does not reach them.
    if (auto r = InputFiles::of(model).refuseOverwrite(
            target, QStringLiteral("export never writes over the model it reads, even with --force"));
        !r) {
        err(r.error());
        return exitFor(r.error());
    }
    // A dangling symlink is there too: the rename would replace it.
    const QFileInfo existing(target);
    if ((existing.exists() || existing.isSymLink()) && !parser.isSet(QStringLiteral("force"))) {
        err(QStringLiteral("tensorscope-cli: %1 exists; pass --force to replace it")
                .arg(terminalSafe(target)));
        return ExitUsage;
    }
    const auto done = TensorExporter::exportFromModel(model, index, target, *format);
    if (!done) {
        err(done.error());
        return exitFor(done.error());
    }
    if (!done->note.isEmpty())
        err(QStringLiteral("note: ") + terminalSafe(done->note));
    out(QStringLiteral("wrote %1").arg(terminalSafe(target)));
    return ExitOk;
}

} // namespace ts::cli
