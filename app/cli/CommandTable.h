#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <utility>

namespace ts::cli {

// What a shell may offer after an option that takes a value.
enum class ValueKind { Text, Number, Path, Dtype };

struct OptionSpec {
    QStringList names;    // short name first when there is one: {"o", "output"}
    QString valueName;    // empty for a flag
    QString description;  // one or two sentences, ASCII (it also goes into the man page)
    QString defaultValue; // handed to QCommandLineParser; empty when none
    ValueKind kind = ValueKind::Text;
    bool repeatable = false;
    bool required = false; // shown without brackets in the synopsis

    static OptionSpec flag(const QStringList& names, const QString& description)
    {
        OptionSpec o;
        o.names = names;
        o.description = description;
        return o;
    }
    bool takesValue() const { return !valueName.isEmpty(); }
    QString longName() const { return names.back(); }
};

struct CommandSpec {
    QString name;
    QString arguments;   // positionals as the synopsis shows them: "FILE", "IN...", "FILE [TENSOR...]"
    QString summary;     // one line for the command list
    QString description; // paragraphs separated by blank lines
    QList<OptionSpec> options;
};

// The one description of tensorscope-cli's commands. The commands build their parsers from it, and
// the top-level usage, each command's --help, the man page and the shell completions are printed
// from it, so none of them can name an option a command does not take.
const QList<CommandSpec>& commandTable();
const CommandSpec* findCommand(const QString& name);
// The dtypes convert --dtype and --dtype-for accept, as users type them (convertDtypeNames(), the
// core's one list: DtypeConverter::targets()).
const QStringList& convertDtypes();
// The paragraph the top-level help and the man page open with.
QString cliDescription();
// Exit statuses with their meaning, for the help and the man page.
const QList<std::pair<int, QString>>& exitStatuses();

} // namespace ts::cli
