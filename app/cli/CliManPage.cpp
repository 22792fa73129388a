#include "CliManPage.h"

#include "CommandHelp.h"
#include "CommandTable.h"

#include "ManPage.h"

namespace ts::cli {

using namespace Qt::StringLiterals;

QString cliManPage()
{
    docs::ManPage page(u"tensorscope-cli"_s, u"Tensorscope " TENSORSCOPE_VERSION ""_s,
                       u"inspect, check and convert .safetensors models"_s);
    page.section(u"SYNOPSIS"_s);
    page.synopsis(u"tensorscope-cli"_s, u"COMMAND [OPTIONS] FILE..."_s);
    page.synopsis(u"tensorscope-cli"_s, u"COMMAND --help"_s);
    page.synopsis(u"tensorscope-cli"_s, u"help COMMAND"_s);
    page.synopsis(u"tensorscope-cli"_s, u"--version"_s);

    page.section(u"DESCRIPTION"_s);
    page.paragraph(cliDescription());
    page.paragraph(u"Text output escapes every control character taken from a file or from the command line, "
                   "so a tensor name or a metadata value cannot drive the terminal. --json prints the same "
                   "facts for programs."_s);

    page.section(u"COMMANDS"_s);
    for (const CommandSpec& c : commandTable()) {
        page.subsection(c.name);
        page.synopsis(u"tensorscope-cli"_s, help::synopsis(c).mid(u"tensorscope-cli "_s.size()));
        for (const QString& paragraph : c.description.split(u"\n\n"_s))
            page.paragraph(paragraph);
        page.beginIndent();
        for (const OptionSpec& o : c.options)
            page.item(help::optionTerm(o), help::optionText(o));
        page.endIndent();
    }

    page.section(u"OPTIONS"_s);
    page.item(u"-h, --help"_s, u"Print the list of commands and exit. After a command, print that command's "
                               "synopsis, description and options instead."_s);
    page.item(u"--version"_s, u"Print the version and exit."_s);

    page.section(u"EXIT STATUS"_s);
    for (const auto& [code, meaning] : exitStatuses())
        page.item(QString::number(code), meaning);

    page.section(u"EXAMPLES"_s);
    page.paragraph(u"Fail a CI job when a checkpoint holds NaN or Inf:"_s);
    page.example(u"tensorscope-cli scan --nan-inf-only model.safetensors"_s);
    page.paragraph(u"Convert a model to BF16 in shards of at most 2 GB:"_s);
    page.example(u"tensorscope-cli convert model.safetensors --dtype BF16 --shard-size 2GB -o out/"_s);

    page.section(u"SEE ALSO"_s);
    page.references({u"tensorscope"_s});
    return page.text();
}

} // namespace ts::cli
