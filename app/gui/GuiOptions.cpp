#include "GuiOptions.h"

#include "HelpText.h"
#include "ManPage.h"

#include <QStringList>

#include <cstdio>

namespace ts::app {
namespace {

using namespace Qt::StringLiterals;

const QString kArguments = u"[FILE|FOLDER|index.json...]"_s;
const QString kArgumentsText = u"A .safetensors file, a sharded model's folder or its index.json."_s;
const QString kDescription =
    u"Inspector for .safetensors model files: tensors, metadata, statistics, NaN/Inf "
    "scans and dtype conversion. Each file opens in a tab; a second launch hands its "
    "files to the running window."_s;

// Options QGuiApplication and QApplication take out of argv themselves. They are registered hidden
// so the early parse accepts them instead of calling them unknown.
QList<QCommandLineOption> qtOptions()
{
    QList<QCommandLineOption> options;
    for (const char* name : {"platform", "platformpluginpath", "platformtheme", "plugin", "qwindowgeometry",
                             "geometry", "qwindowtitle", "title", "qwindowicon", "icon", "session", "display",
                             "name", "style", "stylesheet", "qmljsdebugger"})
        options << QCommandLineOption(QString::fromLatin1(name), {}, u"value"_s);
    for (const char* name : {"reverse", "widgetcount", "nograb", "dograb", "sync", "testability"})
        options << QCommandLineOption(QString::fromLatin1(name));
    for (QCommandLineOption& o : options)
        o.setFlags(QCommandLineOption::HiddenFromHelp);
    return options;
}

QString term(const QCommandLineOption& o)
{
    QStringList names;
    for (const QString& n : o.names())
        names << (n.size() == 1 ? u"-"_s : u"--"_s) + n;
    QString t = names.join(u", "_s);
    if (!o.valueName().isEmpty())
        t += u' ' + o.valueName();
    return t;
}

QString text(const QCommandLineOption& o)
{
    QString t = o.description();
    if (!o.defaultValues().isEmpty())
        t += u" Default: "_s + o.defaultValues().join(u", "_s) + u'.';
    return t;
}

void print(std::FILE* stream, const QString& s)
{
    const QByteArray bytes = s.toUtf8();
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stream);
}

} // namespace

GuiOptions::GuiOptions()
    : m_options{
          QCommandLineOption(u"screenshot"_s, u"Save an image of the window once the files are open, then quit."_s, u"PNG"_s),
          QCommandLineOption(u"page"_s,
                 u"Page to show: summary, tensors, metadata, header, scan (starts a scan) or nan-inf (starts "
                 "the NaN/Inf check)."_s,
                 u"PAGE"_s, u"summary"_s),
          QCommandLineOption(u"select"_s, u"Select a tensor by name."_s, u"NAME"_s),
          QCommandLineOption(u"size"_s, u"Window size, e.g. 1280x820."_s, u"WxH"_s),
          QCommandLineOption(u"dark"_s, u"Use a dark palette."_s),
          QCommandLineOption(u"new-window"_s, u"Open a separate window instead of a tab in the running one."_s),
          QCommandLineOption(u"shot-delay"_s,
                 u"Milliseconds between loading and the screenshot (plots compute off the UI thread)."_s, u"MS"_s,
                 u"400"_s),
          QCommandLineOption(u"compare"_s,
                 u"Compare the model given as FILE (A) with B in a comparison tab, as File > Compare With... "
                 "does; --select names the tensor to show."_s,
                 u"B"_s),
      },
      m_help({u"h"_s, u"help"_s}, u"Show this help and exit."_s),
      m_version({u"v"_s, u"version"_s}, u"Print the version and exit."_s),
      m_helpMan(u"help-man"_s)
{
    m_helpMan.setFlags(QCommandLineOption::HiddenFromHelp); // for the build: it installs the output
    m_parser.addOptions({m_help, m_version, m_helpMan});
    m_parser.addOptions(m_options);
    m_parser.addOptions(qtOptions());
    m_parser.addPositionalArgument(u"paths"_s, kArgumentsText, kArguments);
    // Qt's options are single-dash words (-platform offscreen): read every option that way.
    m_parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
}

std::optional<int> GuiOptions::parse(int argc, char** argv)
{
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    const bool parsed = m_parser.parse(args);
    // Help and version win over a mistake elsewhere on the line, as they did with process().
    if (m_parser.isSet(m_help)) {
        print(stdout, helpText());
        return 0;
    }
    if (m_parser.isSet(m_version)) {
        print(stdout, u"Tensorscope " TENSORSCOPE_VERSION "\n"_s);
        return 0;
    }
    if (m_parser.isSet(m_helpMan)) {
        print(stdout, manPage());
        return 0;
    }
    if (!parsed) {
        print(stderr, u"tensorscope: "_s + m_parser.errorText() + u"\nTry \"tensorscope --help\".\n"_s);
        return 1; // what QCommandLineParser::process() exited with
    }
    return std::nullopt;
}

QString GuiOptions::helpText() const
{
    QString s = u"Usage: tensorscope [OPTIONS] "_s + kArguments + u"\n\n"_s +
                docs::HelpText::wrap(kDescription, 0) + u"\n\nOptions:\n"_s;
    QList<QCommandLineOption> all{m_help, m_version};
    all += m_options;
    for (const QCommandLineOption& o : all)
        s += docs::HelpText::row(term(o), text(o));
    return s + u"\nArguments:\n"_s + docs::HelpText::row(kArguments, kArgumentsText);
}

QString GuiOptions::manPage() const
{
    docs::ManPage page(u"tensorscope"_s, u"Tensorscope " TENSORSCOPE_VERSION ""_s,
                       u"inspector for .safetensors model files"_s);
    page.section(u"SYNOPSIS"_s);
    page.synopsis(u"tensorscope"_s, u"[OPTIONS] "_s + kArguments);
    page.section(u"DESCRIPTION"_s);
    page.paragraph(kDescription);
    page.paragraph(kArgumentsText + u" Without one, a start page lists recent files."_s);
    page.section(u"OPTIONS"_s);
    QList<QCommandLineOption> all{m_help, m_version};
    all += m_options;
    for (const QCommandLineOption& o : all)
        page.item(term(o), text(o));
    page.paragraph(
        u"The standard Qt options, such as -platform offscreen or -style Fusion, are accepted too."_s);
    page.section(u"EXIT STATUS"_s);
    page.item(u"0"_s, u"The window was closed, or a --screenshot was saved."_s);
    page.item(u"1"_s, u"A usage error, or the screenshot could not be saved."_s);
    page.section(u"ENVIRONMENT"_s);
    page.item(u"TENSORSCOPE_INSTANCE_KEY"_s,
              u"Names the running window a second launch hands its files to; launches with different keys "
              "stay separate. Default: " TENSORSCOPE_APP_ID "."_s);
    page.item(u"TENSORSCOPE_TRACE_OPENS"_s,
              u"When set, a line naming each loaded document is printed on standard error (for tests)."_s);
    page.item(u"XDG_RUNTIME_DIR"_s, u"Where the socket of the running window is created."_s);
    page.section(u"FILES"_s);
    page.item(
        u"~/.config/Tensorscope/Tensorscope.conf"_s,
        u"Recent files and preferences ($XDG_CONFIG_HOME/Tensorscope/Tensorscope.conf when that is set)."_s);
    page.section(u"SEE ALSO"_s);
    page.references({u"tensorscope-cli"_s});
    return page.text();
}

} // namespace ts::app
