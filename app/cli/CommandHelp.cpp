#include "CommandHelp.h"

#include "RemoteOptions.h"

#include "CliOutput.h"

#include "HelpText.h"
#include "base/TerminalText.h"

namespace ts::cli {
namespace {

using namespace Qt::StringLiterals;

const OptionSpec& helpOption()
{
    static const OptionSpec option = OptionSpec::flag({u"h"_s, u"help"_s}, u"Show this help and exit."_s);
    return option;
}

QString wrap(const QString& text, qsizetype indent, qsizetype column = 0)
{
    return docs::HelpText::wrap(text, indent, column);
}

QString optionLines(const QList<OptionSpec>& options)
{
    QString text;
    for (const OptionSpec& o : options)
        text += docs::HelpText::row(help::optionTerm(o), help::optionText(o));
    return text;
}

} // namespace

namespace help {

QString optionTerm(const OptionSpec& option)
{
    QStringList names;
    for (const QString& n : option.names)
        names << (n.size() == 1 ? u"-"_s : u"--"_s) + n;
    QString term = names.join(u", "_s);
    if (option.takesValue())
        term += u' ' + option.valueName;
    return term;
}

QString optionText(const OptionSpec& option)
{
    QString text = option.description;
    if (option.kind == ValueKind::Dtype)
        text += u" D is one of "_s + convertDtypes().join(u", "_s) + u'.';
    if (!option.defaultValue.isEmpty())
        text += u" Default: "_s + option.defaultValue + u'.';
    return text;
}

QString synopsis(const CommandSpec& command)
{
    QStringList parts{u"tensorscope-cli"_s, command.name};
    for (const OptionSpec& o : command.options) {
        QString part = (o.names.front().size() == 1 ? u"-"_s : u"--"_s) + o.names.front();
        if (o.takesValue())
            part += u' ' + o.valueName;
        if (!o.required)
            part = u'[' + part + u']';
        if (o.repeatable)
            part += u"..."_s;
        parts << part;
    }
    parts << command.arguments;
    return parts.join(u' ');
}

QString usageLine(const QString& name)
{
    const CommandSpec* command = findCommand(name);
    return command ? wrap(u"usage: "_s + synopsis(*command), 8) : QString();
}

QString commandNames()
{
    QStringList names;
    for (const CommandSpec& c : commandTable())
        names << c.name;
    return names.join(u' ');
}

QString topUsage()
{
    QString text = u"Usage: tensorscope-cli COMMAND [OPTIONS] FILE...\n\n"_s + wrap(cliDescription(), 0) +
                   u"\n\nCommands:\n"_s;
    for (const CommandSpec& c : commandTable()) {
        text += docs::HelpText::row(c.name + u' ' + c.arguments, c.summary);
    }
    text += u"\nOptions:\n"_s +
            optionLines({helpOption(), OptionSpec::flag({u"version"_s}, u"Print the version and exit."_s)});
    text +=
        u"\nRun \"tensorscope-cli COMMAND --help\" or \"tensorscope-cli help COMMAND\" for the options of a "
        "command.\n\nExit status:\n"_s;
    for (const auto& [code, meaning] : exitStatuses())
        text += u"  "_s + QString::number(code) + u"  "_s + meaning + u'\n';
    text.chop(1);
    return text;
}

QString commandHelp(const CommandSpec& command)
{
    QString text = wrap(u"Usage: "_s + synopsis(command), 8) + u"\n\n"_s;
    for (const QString& paragraph : command.description.split(u"\n\n"_s))
        text += wrap(paragraph, 0) + u"\n\n"_s;
    text += u"Options:\n"_s + optionLines(command.options + QList<OptionSpec>{helpOption()});
    text.chop(1);
    return text;
}

} // namespace help

std::optional<int> parseCommand(QCommandLineParser& parser, const QString& name, const QStringList& args)
{
    const CommandSpec* command = findCommand(name);
    if (!command) { // a command main() dispatches to but the table lacks: a bug, said plainly
        err(u"tensorscope-cli: \""_s + name + u"\" is missing from the command table"_s);
        return ExitUsage;
    }
    for (const OptionSpec& o : command->options + QList<OptionSpec>{helpOption()}) {
        QCommandLineOption option(o.names, o.description);
        if (o.takesValue()) {
            option.setValueName(o.valueName);
            if (!o.defaultValue.isEmpty())
                option.setDefaultValue(o.defaultValue);
        }
        parser.addOption(option);
    }
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    if (!parser.parse(args)) {
        err(u"tensorscope-cli: "_s + terminalSafe(parser.errorText())); // quotes the argument
        err(help::usageLine(name));
        return ExitUsage;
    }
    if (parser.isSet(u"help"_s)) {
        out(help::commandHelp(*command));
        return ExitOk;
    }
    return applyRemoteOptions(parser);
}

} // namespace ts::cli
