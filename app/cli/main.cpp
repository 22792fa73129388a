#include "CliManPage.h"
#include "CliOutput.h"
#include "CommandHelp.h"
#include "Commands.h"
#include "Completions.h"

#include "base/TerminalText.h"
#include "io/RemoteLocation.h"
#include "remote/HttpOpener.h"

#include <QCoreApplication>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("tensorscope-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(TENSORSCOPE_VERSION));
    const QStringList args = QCoreApplication::arguments();
    if (args.size() < 2 || args[1] == QLatin1String("--help") || args[1] == QLatin1String("-h") ||
        (args[1] == QLatin1String("help") && args.size() == 2)) {
        ts::cli::out(ts::cli::help::topUsage());
        return args.size() < 2 ? ts::cli::ExitUsage : ts::cli::ExitOk;
    }
    if (args[1] == QLatin1String("help")) {
        if (const ts::cli::CommandSpec* command = ts::cli::findCommand(args[2]);
            command && args.size() == 3) {
            ts::cli::out(ts::cli::help::commandHelp(*command));
            return ts::cli::ExitOk;
        }
        ts::cli::err(QStringLiteral("tensorscope-cli: help takes one command name, one of: ") +
                     ts::cli::help::commandNames());
        return ts::cli::ExitUsage;
    }
    if (args[1] == QLatin1String("--version")) {
        ts::cli::out(QStringLiteral("tensorscope-cli ") + QCoreApplication::applicationVersion());
        return ts::cli::ExitOk;
    }
    // For the build, which installs their output: roff and shell code, printed as they are (out()
    // would escape their backslashes).
    if (args[1] == QLatin1String("--help-man") && args.size() == 2) {
        ts::cli::outRaw(ts::cli::cliManPage().toUtf8());
        return ts::cli::ExitOk;
    }
    if (args[1] == QLatin1String("--completion") && args.size() == 3) {
        const QString script = ts::cli::Completions::forShell(args[2]);
        if (script.isEmpty()) {
            ts::cli::err(QStringLiteral("tensorscope-cli: --completion takes bash, zsh or fish"));
            return ts::cli::ExitUsage;
        }
        ts::cli::outRaw(script.toUtf8());
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
        {QStringLiteral("audit-pickle"), ts::cli::runAuditPickle},
        {QStringLiteral("diff"), ts::cli::runDiff},
        {QStringLiteral("report"), ts::cli::runReport},
    };
    // FILE may be a URL: the network thread and the opener the core reads URLs through. Only then:
    // the session loads the system's CA certificates, a few milliseconds every local command paid.
    std::optional<ts::remote::RemoteSession> remote;
    if (std::any_of(args.begin(), args.end(),
                    [](const QString& a) { return ts::RemoteLocation::isRemote(a); }))
        remote.emplace();
    const auto it = commands.find(args[1]);
    if (it == commands.end()) {
        ts::cli::err(
            QStringLiteral("tensorscope-cli: unknown command \"%1\"").arg(ts::terminalSafe(args[1])));
        ts::cli::err(ts::cli::help::topUsage());
        return ts::cli::ExitUsage;
    }
    QStringList rest = args;
    rest.removeAt(1); // the parser expects argv[0] first
    return it->second(rest);
}
