#include "CliOutput.h"
#include "Commands.h"

#include "TerminalText.h"

#include <QCoreApplication>

#include <functional>
#include <map>

namespace {

const char* const kUsage = R"(Usage: tensorscope-cli COMMAND [OPTIONS] FILE...

Inspect .safetensors models from scripts and CI. FILE may be a .safetensors file, a sharded
model's model.safetensors.index.json, or a folder. Every command takes --json.

Commands:
  info FILE                 tensor count, parameters and bytes per dtype, header size, metadata, warnings
  ls FILE [--filter GLOB]   list tensors (name, dtype, shape, parameters, bytes, offsets)
  validate FILE...          check files against the format; exit 1 if any is invalid
  meta FILE [--set K=V]... [--unset K]... [--clear] [-o OUT] [--header-slack BYTES] [--no-in-place]
            [--force] [--wait SECONDS]
                            print metadata, or write it edited (FILE itself without -o: in place behind a
                            journal when the new header fits, else an atomic full rewrite)
  recover FILE [--discard] [--remove-leftovers]
                            restore the header an interrupted in-place save left in a journal (only when
                            the journal matches the file), or delete the journal; other commands only
                            report it (warning InterruptedSave)
  convert IN... -o OUT [--dtype D] [--dtype-for GLOB=D]... [--include GLOB]... [--exclude GLOB]...
          [--rename REGEX=REPL]... [--shard-size SIZE] [--set K=V]... [--unset K]... [--dry-run]
                            convert dtypes, select, rename, shard or merge; prints a per-tensor report
  export FILE TENSOR -o OUT.npy|OUT.csv [--force]
                            write one tensor as NumPy .npy or CSV (1-D/2-D); an existing OUT only with
                            --force, and never one of the model's own files
  stats FILE [TENSOR...] [--bins N]
                            per-tensor statistics (NaN/Inf/zero counts, min, max, mean, std, L2) and histograms
  scan FILE [--threads N] [--nan-inf-only]
                            scan every tensor on all cores; exit 1 if NaN or Inf is found
                            (--nan-inf-only: that check alone, at memory speed, no statistics)

Exit status: 0 success or valid, 1 invalid file or failed check, 2 usage or I/O error.)";

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("tensorscope-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(TENSORSCOPE_VERSION));
    const QStringList args = QCoreApplication::arguments();
    if (args.size() < 2 || args[1] == QLatin1String("--help") || args[1] == QLatin1String("-h") ||
        args[1] == QLatin1String("help")) {
        ts::cli::out(QString::fromUtf8(kUsage));
        return args.size() < 2 ? ts::cli::ExitUsage : ts::cli::ExitOk;
    }
    if (args[1] == QLatin1String("--version")) {
        ts::cli::out(QStringLiteral("tensorscope-cli ") + QCoreApplication::applicationVersion());
        return ts::cli::ExitOk;
    }
    const std::map<QString, std::function<int(const QStringList&)>> commands = {
        {QStringLiteral("info"), ts::cli::runInfo},
        {QStringLiteral("ls"), ts::cli::runLs},
        {QStringLiteral("validate"), ts::cli::runValidate},
        {QStringLiteral("meta"), ts::cli::runMeta},
        {QStringLiteral("recover"), ts::cli::runRecover},
        {QStringLiteral("convert"), ts::cli::runConvert},
        {QStringLiteral("export"), ts::cli::runExport},
        {QStringLiteral("stats"), ts::cli::runStats},
        {QStringLiteral("scan"), ts::cli::runScan},
    };
    const auto it = commands.find(args[1]);
    if (it == commands.end()) {
        ts::cli::err(
            QStringLiteral("tensorscope-cli: unknown command \"%1\"").arg(ts::terminalSafe(args[1])));
        ts::cli::err(QString::fromUtf8(kUsage));
        return ts::cli::ExitUsage;
    }
    QStringList rest = args;
    rest.removeAt(1); // the parser expects argv[0] first
    return it->second(rest);
}
