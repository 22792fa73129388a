#pragma once

#include "CommandTable.h"

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include <optional>

namespace ts::cli {

// Terminal help for tensorscope-cli, all of it printed from commandTable().
namespace help {

// "tensorscope-cli meta [--json] [--set KEY=VALUE]... FILE", unwrapped.
QString synopsis(const CommandSpec& command);
// "-o, --output OUT" / "--json"
QString optionTerm(const OptionSpec& option);
// The sentence shown for an option: its description, the dtypes it takes, its default.
QString optionText(const OptionSpec& option);
// "info ls validate ...": the command names in the table's order.
QString commandNames();
// What `tensorscope-cli --help` prints.
QString topUsage();
// What `tensorscope-cli COMMAND --help` and `tensorscope-cli help COMMAND` print.
QString commandHelp(const CommandSpec& command);
// "usage: ..." wrapped for a terminal: what a usage error prints after its message.
QString usageLine(const QString& command);

} // namespace help

// Gives `parser` the options of `command` from the table (and -h/--help), parses `args` (argv without
// the program name's command word). Returns an exit status when the command is answered here:
// ExitOk after printing its help, ExitUsage after explaining a usage error; nullopt when the command
// should run.
std::optional<int> parseCommand(QCommandLineParser& parser, const QString& command, const QStringList& args);

} // namespace ts::cli
