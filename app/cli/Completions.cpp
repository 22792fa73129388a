#include "Completions.h"

#include "CommandHelp.h"
#include "CommandTable.h"

namespace ts::cli {
namespace {

using namespace Qt::StringLiterals;

QString dashed(const QString& name)
{
    return (name.size() == 1 ? u"-"_s : u"--"_s) + name;
}

// The first sentence, without its full stop: what a menu beside the name has room for.
QString brief(const QString& text)
{
    const qsizetype end = text.indexOf(u". "_s);
    QString s = end < 0 ? text : text.left(end);
    if (s.endsWith(u'.'))
        s.chop(1);
    return s;
}

// A single-quoted word for bash, zsh and fish alike ('it'\''s'); fish reads \' inside quotes, not '\''.
QString posixQuoted(const QString& text)
{
    return u'\'' + QString(text).replace(u"'"_s, u"'\\''"_s) + u'\'';
}

QString fishQuoted(const QString& text)
{
    return u'\'' + QString(text).replace(u"\\"_s, u"\\\\"_s).replace(u"'"_s, u"\\'"_s) + u'\'';
}

} // namespace

QString Completions::bash()
{
    // Self-contained (compgen, no bash-completion helpers), so it also works where that package is
    // missing. '=' is in COMP_WORDBREAKS: "--dtype=B" arrives as "--dtype" "=" "B".
    QString s = u"# bash completion for tensorscope-cli. Generated from its command table; do not edit.\n"
                "_tensorscope_cli()\n"
                "{\n"
                "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
                "    if [[ $cur == = ]]; then prev=${COMP_WORDS[COMP_CWORD-1]}; cur=\n"
                "    elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi\n"
                "    COMPREPLY=()\n"
                "    if [[ $COMP_CWORD -eq 1 ]]; then\n"
                "        mapfile -t COMPREPLY < <(compgen -W '"_s +
                help::commandNames() +
                u" help --help -h --version' -- \"$cur\")\n"
                "        return\n"
                "    fi\n"
                "    local command=${COMP_WORDS[1]} options=\n"
                "    case $command in\n"
                "    help)\n"
                "        [[ $COMP_CWORD -eq 2 ]] && mapfile -t COMPREPLY < <(compgen -W '"_s +
                help::commandNames() + u"' -- \"$cur\")\n        return ;;\n"_s;
    for (const CommandSpec& c : commandTable()) {
        QStringList words;
        QStringList pathOptions, dtypeOptions, valueOptions;
        for (const OptionSpec& o : c.options) {
            for (const QString& n : o.names) {
                words << dashed(n);
                if (!o.takesValue())
                    continue;
                (o.kind == ValueKind::Path    ? pathOptions
                 : o.kind == ValueKind::Dtype ? dtypeOptions
                                              : valueOptions)
                    << dashed(n);
            }
        }
        words << u"-h"_s << u"--help"_s;
        s += u"    "_s + c.name + u")\n        options='"_s + words.join(u' ') +
             u"'\n        case $prev in\n"_s;
        if (!dtypeOptions.isEmpty())
            s += u"        "_s + dtypeOptions.join(u'|') +
                 u")\n            mapfile -t COMPREPLY < <(compgen -W '"_s + convertDtypes().join(u' ') +
                 u"' -- \"$cur\")\n            return ;;\n"_s;
        if (!valueOptions.isEmpty())
            s += u"        "_s + valueOptions.join(u'|') +
                 u")\n            return ;; # free text: nothing to offer\n"_s;
        if (!pathOptions.isEmpty())
            s += u"        "_s + pathOptions.join(u'|') + u")\n            ;; # a path, as below\n"_s;
        s += u"        esac ;;\n"_s;
    }
    s += u"    *)\n"
         "        ;;\n"
         "    esac\n"
         "    if [[ $cur == -* ]]; then\n"
         "        mapfile -t COMPREPLY < <(compgen -W \"$options\" -- \"$cur\")\n"
         "        return\n"
         "    fi\n"
         "    compopt -o filenames 2>/dev/null\n"
         "    mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
         "}\n"
         "complete -F _tensorscope_cli tensorscope-cli\n"_s;
    return s;
}

QString Completions::zsh()
{
    auto bracketed = [](const QString& text) {
        // Inside _arguments' [description]: brackets and colons would end it early.
        QString t = brief(text);
        t.replace(u"["_s, u"\\["_s).replace(u"]"_s, u"\\]"_s).replace(u":"_s, u"\\:"_s);
        return t;
    };
    QString s = u"#compdef tensorscope-cli\n"
                "# zsh completion for tensorscope-cli. Generated from its command table; do not edit.\n"
                "_tensorscope-cli() {\n"
                "  local -a commands\n"
                "  commands=(\n"_s;
    for (const CommandSpec& c : commandTable())
        s += u"    "_s + posixQuoted(c.name + u':' + QString(c.summary).replace(u":"_s, u"\\:"_s)) + u'\n';
    s += u"  )\n"
         "  if (( CURRENT == 2 )); then\n"
         "    _describe -t commands 'tensorscope-cli command' commands\n"
         "    compadd -- help --help -h --version\n"
         "    return\n"
         "  fi\n"
         "  local command=$words[2]\n"
         "  shift words\n"
         "  (( CURRENT-- ))\n"
         "  case $command in\n"
         "  help)\n"
         "    (( CURRENT == 2 )) && _describe -t commands 'tensorscope-cli command' commands ;;\n"_s;
    for (const CommandSpec& c : commandTable()) {
        s += u"  "_s + c.name + u")\n    _arguments -S \\\n"_s;
        QList<OptionSpec> options = c.options;
        options << OptionSpec::flag({u"h"_s, u"help"_s}, u"Show the command's help"_s);
        for (const OptionSpec& o : options) {
            QString action;
            if (o.takesValue()) {
                const QString message = QString(o.valueName).replace(u":"_s, u"\\:"_s);
                QString what = u" "_s; // free text: nothing to offer
                if (o.kind == ValueKind::Path)
                    what = u"_files"_s;
                else if (o.kind == ValueKind::Dtype)
                    what = u'(' + convertDtypes().join(u' ') + u')';
                action = u':' + message + u':' + what;
            }
            QStringList names;
            for (const QString& n : o.names)
                names << dashed(n);
            const QString exclusive = o.repeatable ? u"*"_s : u'(' + names.join(u' ') + u')';
            for (const QString& n : names) {
                const QString equals = o.takesValue() && n.startsWith(u"--"_s) ? u"="_s : QString();
                s += u"      "_s +
                     posixQuoted(exclusive + n + equals + u'[' + bracketed(o.description) + u']' + action) +
                     u" \\\n"_s;
            }
        }
        s += u"      '*:file:_files' ;;\n"_s;
    }
    s += u"  esac\n"
         "}\n"
         "_tensorscope-cli \"$@\"\n"_s;
    return s;
}

QString Completions::fish()
{
    QString s = u"# fish completion for tensorscope-cli. Generated from its command table; do not edit.\n"
                "complete -c tensorscope-cli -f\n"
                "complete -c tensorscope-cli -n __fish_use_subcommand -s h -l help -d 'Show the commands'\n"
                "complete -c tensorscope-cli -n __fish_use_subcommand -l version -d 'Print the version'\n"
                "complete -c tensorscope-cli -n __fish_use_subcommand -a help -d 'Show a command\\'s help'\n"
                "complete -c tensorscope-cli -n '__fish_seen_subcommand_from help' -a '"_s +
                help::commandNames() + u"'\n"_s;
    for (const CommandSpec& c : commandTable()) {
        s += u"complete -c tensorscope-cli -n __fish_use_subcommand -a "_s + c.name + u" -d "_s +
             fishQuoted(c.summary) + u'\n';
        const QString when = u" -n '__fish_seen_subcommand_from "_s + c.name + u"'"_s;
        s += u"complete -c tensorscope-cli"_s + when + u" -F\n"_s; // FILE, IN...: files and folders
        QList<OptionSpec> options = c.options;
        options << OptionSpec::flag({u"h"_s, u"help"_s}, u"Show the command's help."_s);
        for (const OptionSpec& o : options) {
            QString line = u"complete -c tensorscope-cli"_s + when;
            for (const QString& n : o.names)
                line += (n.size() == 1 ? u" -s "_s : u" -l "_s) + n;
            if (o.kind == ValueKind::Path && o.takesValue())
                line += u" -r -F"_s;
            else if (o.kind == ValueKind::Dtype)
                line += u" -x -a "_s + fishQuoted(convertDtypes().join(u' '));
            else if (o.takesValue())
                line += u" -x"_s;
            s += line + u" -d "_s + fishQuoted(brief(o.description)) + u'\n';
        }
    }
    return s;
}

QString Completions::forShell(const QString& shell)
{
    if (shell == u"bash"_s)
        return bash();
    if (shell == u"zsh"_s)
        return zsh();
    if (shell == u"fish"_s)
        return fish();
    return {};
}

} // namespace ts::cli
