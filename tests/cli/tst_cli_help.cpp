// tensorscope-cli's help, man page and shell completions: the real binary, the files the build
// generated from its command table (build/share), and the real groff, man, bash, zsh and fish.
#include "ChildProcess.h"
#include "ManPageCheck.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

using ts::test::runCli;
using Run = ts::test::ProcessRun;

// What each command accepted before its parser was built from the table, written out here by hand:
// the table must keep every one of them and add none silently. "o" is -o, the others --NAME.
const QList<std::pair<QString, QStringList>>& expectedOptions()
{
    static const QList<std::pair<QString, QStringList>> commands = {
        {QStringLiteral("info"), {QStringLiteral("json"), QStringLiteral("cache-size")}},
        {QStringLiteral("ls"),
         {QStringLiteral("json"), QStringLiteral("filter"), QStringLiteral("cache-size")}},
        {QStringLiteral("validate"), {QStringLiteral("json"), QStringLiteral("cache-size")}},
        {QStringLiteral("meta"),
         {QStringLiteral("json"), QStringLiteral("set"), QStringLiteral("unset"), QStringLiteral("clear"),
          QStringLiteral("no-metadata"), QStringLiteral("o"), QStringLiteral("output"),
          QStringLiteral("header-slack"), QStringLiteral("no-in-place"), QStringLiteral("force"),
          QStringLiteral("wait")}},
        {QStringLiteral("recover"),
         {QStringLiteral("json"), QStringLiteral("discard"), QStringLiteral("remove-leftovers")}},
        {QStringLiteral("convert"),
         {QStringLiteral("o"), QStringLiteral("output"), QStringLiteral("dtype"), QStringLiteral("dtype-for"),
          QStringLiteral("include"), QStringLiteral("exclude"), QStringLiteral("rename"),
          QStringLiteral("shard-size"), QStringLiteral("set"), QStringLiteral("unset"),
          QStringLiteral("header-slack"), QStringLiteral("dry-run"), QStringLiteral("json"),
          QStringLiteral("allow-unsafe-structure"), // PyTorch pickle checkpoints
          QStringLiteral("cache-size")}},
        {QStringLiteral("export"),
         {QStringLiteral("o"), QStringLiteral("output"), QStringLiteral("force"),
          QStringLiteral("cache-size")}},
        {QStringLiteral("stats"),
         {QStringLiteral("json"), QStringLiteral("bins"), QStringLiteral("cache-size")}},
        {QStringLiteral("scan"),
         {QStringLiteral("json"), QStringLiteral("threads"), QStringLiteral("nan-inf-only"),
          QStringLiteral("quantiles"), QStringLiteral("cache-size")}},
        {QStringLiteral("audit-pickle"), {QStringLiteral("json")}},
        {QStringLiteral("diff"),
         {QStringLiteral("json"), QStringLiteral("rename"), QStringLiteral("rename-file"),
          QStringLiteral("rank"), QStringLiteral("no-suggest"), QStringLiteral("all"),
          QStringLiteral("threads")}},
        {QStringLiteral("report"),
         {QStringLiteral("o"), QStringLiteral("output"), QStringLiteral("json"), QStringLiteral("md"),
          QStringLiteral("no-scan"), QStringLiteral("no-hash"), QStringLiteral("threads"),
          QStringLiteral("force")}},
    };
    return commands;
}

QString dashed(const QString& name)
{
    return (name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name;
}

// The option names a help text lists under "Options:", and whether each takes a value.
QMap<QString, bool> listedOptions(const QString& help)
{
    QMap<QString, bool> options;
    const qsizetype start = help.indexOf(QStringLiteral("\nOptions:\n"));
    static const QRegularExpression row(QStringLiteral("^  (-[^ ].*?)(?:  |$)"));
    for (const QString& line : help.mid(start).split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch m = row.match(line);
        if (!m.hasMatch())
            continue;
        const QStringList words = m.captured(1).split(QLatin1Char(' '));
        const bool takesValue = !words.back().startsWith(QLatin1Char('-'));
        for (const QString& w : words) {
            if (w.startsWith(QLatin1Char('-')))
                options.insert(
                    QString(w).remove(QLatin1Char(',')).remove(QRegularExpression(QStringLiteral("^-+"))),
                    takesValue);
        }
    }
    return options;
}

struct Proc {
    int exitCode = -1;
    QString out;
    QString err;
};

Proc run(const QString& program, const QStringList& args,
         const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
         const QString& workingDir = {})
{
    ts::test::ProcessOptions options;
    options.environment = env;
    options.workingDirectory = workingDir;
    options.timeoutMs = 60000;
    const ts::test::ProcessRun p = ts::test::runProcess(program, args, options);
    return {p.exitCode, QString::fromUtf8(p.out), QString::fromUtf8(p.err)};
}

// A tool the checks need; its absence fails the test (installer/install-deps.sh installs it).
QString tool(const char* name)
{
    const QString path = QStandardPaths::findExecutable(QString::fromLatin1(name));
    if (path.isEmpty())
        qWarning("%s is missing: run installer/install-deps.sh", name);
    return path;
}

QString generated(const QString& relative)
{
    return QStringLiteral(TS_BINARY_DIR "/share/") + relative;
}

} // namespace

class TestCliHelp : public QObject {
    Q_OBJECT

private slots:
    void commandHelp_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("options");
        for (const auto& [command, options] : expectedOptions())
            QTest::newRow(qPrintable(command)) << command << options;
    }

    // Every command answers --help, -h and `help COMMAND` with its own usage and exit 0, lists exactly
    // the options it had, and its parser accepts each option its help lists.
    void commandHelp()
    {
        QFETCH(QString, command);
        QFETCH(QStringList, options);
        const Run help = runCli({command, QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.err.isEmpty());
        const QString text = QString::fromUtf8(help.out);
        QVERIFY2(text.startsWith(QStringLiteral("Usage: tensorscope-cli ") + command + QLatin1Char(' ')),
                 help.out);
        QCOMPARE(runCli({command, QStringLiteral("-h")}).out, help.out);
        const Run viaHelp = runCli({QStringLiteral("help"), command});
        QCOMPARE(viaHelp.exitCode, 0);
        QCOMPARE(viaHelp.out, help.out);

        const QMap<QString, bool> listed = listedOptions(text);
        QSet<QString> want(options.begin(), options.end());
        want << QStringLiteral("h") << QStringLiteral("help");
        const QList<QString> listedNames = listed.keys();
        QCOMPARE(QSet<QString>(listedNames.begin(), listedNames.end()), want);
        for (auto it = listed.cbegin(); it != listed.cend(); ++it) {
            // Each option is documented with a sentence (beside it or on the next line), shown in the
            // synopsis (-o for --output; -h not), and parses.
            QVERIFY2(text.contains(QRegularExpression(QStringLiteral("\\n  [^\\n]*") +
                                                      QRegularExpression::escape(dashed(it.key())) +
                                                      QStringLiteral("\\b[^\\n]*?(  +|\\n +)[A-Z][^\\n]+"))),
                     qPrintable(it.key()));
            const QString synopsis =
                text.section(QStringLiteral("\n\n"), 0, 0).simplified(); // a long synopsis wraps
            if (it.key() != QStringLiteral("output") && it.key() != QStringLiteral("h") &&
                it.key() != QStringLiteral("help"))
                QVERIFY2(synopsis.contains(QLatin1Char('[') + dashed(it.key()) + QLatin1Char(' ')) ||
                             synopsis.contains(QLatin1Char('[') + dashed(it.key()) + QLatin1Char(']')) ||
                             synopsis.contains(QLatin1Char(' ') + dashed(it.key()) + QLatin1Char(' ')),
                         qPrintable(it.key()));
            QStringList args{command, dashed(it.key())};
            if (it.value())
                args << QStringLiteral("1");
            args << QStringLiteral("--help");
            QVERIFY2(runCli(args).exitCode == 0, qPrintable(args.join(QLatin1Char(' '))));
        }
        // ...which means something: an option the command does not take is refused before help.
        QCOMPARE(runCli({command, QStringLiteral("--no-such-option"), QStringLiteral("--help")}).exitCode, 2);
    }

    void topLevel()
    {
        const Run help = runCli({QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        for (const auto& [command, options] : expectedOptions())
            QVERIFY2(help.out.contains(QByteArray("\n  " + command.toUtf8() + ' ')), qPrintable(command));
        QCOMPARE(runCli({QStringLiteral("-h")}).out, help.out);
        QCOMPARE(runCli({QStringLiteral("help")}).exitCode, 0);
        QCOMPARE(runCli({QStringLiteral("help")}).out, help.out);
        QCOMPARE(runCli({}).exitCode, 2);
        const Run unknown = runCli({QStringLiteral("frobnicate"), QStringLiteral("--help")});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY(unknown.err.contains("unknown command \"frobnicate\""));
        QCOMPARE(runCli({QStringLiteral("help"), QStringLiteral("frobnicate")}).exitCode, 2);
        const Run version = runCli({QStringLiteral("--version")});
        QCOMPARE(version.exitCode, 0);
        QVERIFY(version.out.startsWith("tensorscope-cli "));
        // A usage error still ends with the command's synopsis, and help is not printed on stdout.
        const Run bad = runCli({QStringLiteral("ls"), QStringLiteral("--bogus"), QStringLiteral("x")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.out.isEmpty());
        QVERIFY2(
            bad.err.contains("usage: tensorscope-cli ls [--json] [--filter GLOB] [--cache-size SIZE] FILE"),
            bad.err.constData());
    }

    // The installed page: groff's and lintian's warning checks find nothing, the .gz is the page, and
    // it documents every command and every option.
    void manPage()
    {
        const QString page = generated(QStringLiteral("man/man1/tensorscope-cli.1"));
        QVERIFY2(QFile::exists(page), qPrintable(page));
        const QString warnings = ts::test::manPageWarnings(page, page + QStringLiteral(".gz"));
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings));
        const QString man = tool("man"), gzip = tool("gzip");
        QVERIFY(!man.isEmpty() && !gzip.isEmpty());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
        env.insert(QStringLiteral("MANROFFSEQ"), QString());
        QFile raw(page);
        QVERIFY(raw.open(QIODevice::ReadOnly));
        const QString roff = QString::fromUtf8(raw.readAll());
        QCOMPARE(run(gzip, {QStringLiteral("-dc"), page + QStringLiteral(".gz")}).out, roff);

        // What a reader sees: every section, command and option.
        env.insert(QStringLiteral("MANWIDTH"), QStringLiteral("200"));
        const QString shown = run(man, {QStringLiteral("-l"), QStringLiteral("-Tutf8"), page}, env).out;
        const QString plain = QString(shown).remove(QRegularExpression(QStringLiteral(".\\x08")));
        for (const char* section :
             {"NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "EXIT STATUS", "SEE ALSO"})
            QVERIFY2(plain.contains(QLatin1Char('\n') + QLatin1String(section) + QLatin1Char('\n')), section);
        for (const auto& [command, options] : expectedOptions()) {
            const qsizetype at = plain.indexOf(QStringLiteral("\n   ") + command + QLatin1Char('\n'));
            QVERIFY2(at >= 0, qPrintable(command));
            const qsizetype end =
                plain.indexOf(QRegularExpression(QStringLiteral("\\n   [a-z]+\\n|\\nOPTIONS\\n")), at + 1);
            const QString part = plain.mid(at, end - at);
            for (const QString& o : options)
                QVERIFY2(part.contains(QRegularExpression(QStringLiteral("\\n +(-o, )?") +
                                                          QRegularExpression::escape(dashed(o)) +
                                                          QStringLiteral("\\b"))) ||
                             (o == QStringLiteral("o") && part.contains(QStringLiteral("-o, --output"))),
                         qPrintable(command + QLatin1Char(' ') + o));
        }
    }

    void completionSyntax()
    {
        const QList<std::pair<const char*, QString>> scripts = {
            {"bash", generated(QStringLiteral("bash-completion/completions/tensorscope-cli"))},
            {"zsh", generated(QStringLiteral("zsh/vendor-completions/_tensorscope-cli"))},
            {"fish", generated(QStringLiteral("fish/vendor_completions.d/tensorscope-cli.fish"))},
        };
        for (const auto& [shell, script] : scripts) {
            QVERIFY2(QFile::exists(script), qPrintable(script));
            const QString program = tool(shell);
            QVERIFY(!program.isEmpty());
            const Proc p = run(program, {QStringLiteral("-n"), script});
            QVERIFY2(p.exitCode == 0 && p.err.isEmpty(),
                     qPrintable(QLatin1String(shell) + QLatin1Char(' ') + p.err));
        }
    }

    // bash: the function the script registers, called as bash would on TAB.
    void bashCompletes()
    {
        const QString bash = tool("bash");
        QVERIFY(!bash.isEmpty());
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("shards")));
        QFile(dir.filePath(QStringLiteral("model.safetensors"))).open(QIODevice::WriteOnly);
        auto complete = [&](const QStringList& words) {
            QString script =
                QStringLiteral("source \"$1\"; [ \"$(complete -p tensorscope-cli)\" = "
                               "'complete -F _tensorscope_cli tensorscope-cli' ] || exit 3; COMP_WORDS=(");
            for (const QString& w : words)
                script += QLatin1Char('\'') + w + QStringLiteral("' ");
            script += QStringLiteral("); COMP_CWORD=%1; _tensorscope_cli; printf '%s\\n' \"${COMPREPLY[@]}\"")
                          .arg(words.size() - 1);
            const Proc p = run(bash,
                               {QStringLiteral("-c"), script, QStringLiteral("bash"),
                                generated(QStringLiteral("bash-completion/completions/tensorscope-cli"))},
                               QProcessEnvironment::systemEnvironment(), dir.path());
            if (p.exitCode != 0)
                qWarning("bash: %d %s", p.exitCode, qPrintable(p.err));
            QStringList got = p.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            got.sort();
            return got;
        };
        const QString cli = QStringLiteral("tensorscope-cli");
        QCOMPARE(complete({cli, QStringLiteral("in")}), QStringList{QStringLiteral("info")});
        QCOMPARE(complete({cli, QStringLiteral("s")}),
                 (QStringList{QStringLiteral("scan"), QStringLiteral("stats")}));
        QCOMPARE(complete({cli, QStringLiteral("convert"), QStringLiteral("--dt")}),
                 (QStringList{QStringLiteral("--dtype"), QStringLiteral("--dtype-for")}));
        QCOMPARE(complete({cli, QStringLiteral("convert"), QStringLiteral("--dtype"), QStringLiteral("F8")}),
                 (QStringList{QStringLiteral("F8_E4M3"), QStringLiteral("F8_E5M2")}));
        QCOMPARE(complete({cli, QStringLiteral("convert"), QStringLiteral("--dtype"), QStringLiteral("="),
                           QStringLiteral("BF")}),
                 QStringList{QStringLiteral("BF16")});
        QCOMPARE(complete({cli, QStringLiteral("scan"), QStringLiteral("--n")}),
                 QStringList{QStringLiteral("--nan-inf-only")});
        QCOMPARE(complete({cli, QStringLiteral("info"), QStringLiteral("mo")}),
                 QStringList{QStringLiteral("model.safetensors")});
        QCOMPARE(complete({cli, QStringLiteral("convert"), QStringLiteral("-o"), QStringLiteral("sh")}),
                 QStringList{QStringLiteral("shards")});
        QCOMPARE(complete({cli, QStringLiteral("ls"), QStringLiteral("--filter"), QStringLiteral("mo")}),
                 QStringList{});
        QCOMPARE(complete({cli, QStringLiteral("help"), QStringLiteral("ex")}),
                 QStringList{QStringLiteral("export")});
    }

    // fish: `complete -C` asks fish what it would offer on the command line.
    void fishCompletes()
    {
        const QString fish = tool("fish");
        QVERIFY(!fish.isEmpty());
        QTemporaryDir dir;
        QFile(dir.filePath(QStringLiteral("model.safetensors"))).open(QIODevice::WriteOnly);
        auto complete = [&](const QString& line) {
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("HOME"), dir.path()); // no user's fish configuration
            env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral(".config")));
            env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral(".local")));
            const Proc p =
                run(fish,
                    {QStringLiteral("--no-config"), QStringLiteral("-c"),
                     QStringLiteral("source $argv[1]; complete -C $argv[2]"),
                     generated(QStringLiteral("fish/vendor_completions.d/tensorscope-cli.fish")), line},
                    env, dir.path());
            if (p.exitCode != 0)
                qWarning("fish: %d %s", p.exitCode, qPrintable(p.err));
            QStringList got;
            for (const QString& l : p.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
                got << l.section(QLatin1Char('\t'), 0, 0);
            got.sort();
            return got;
        };
        const QStringList commands = complete(QStringLiteral("tensorscope-cli "));
        for (const auto& [command, options] : expectedOptions())
            QVERIFY2(commands.contains(command), qPrintable(commands.join(QLatin1Char(' '))));
        QVERIFY2(!commands.contains(QStringLiteral("model.safetensors")),
                 "files offered in place of a command");
        QCOMPARE(complete(QStringLiteral("tensorscope-cli convert --dtype B")),
                 QStringList{QStringLiteral("BF16")});
        QCOMPARE(complete(QStringLiteral("tensorscope-cli scan --n")),
                 QStringList{QStringLiteral("--nan-inf-only")});
        QCOMPARE(complete(QStringLiteral("tensorscope-cli info mo")),
                 QStringList{QStringLiteral("model.safetensors")});
        const QStringList metaOptions = complete(QStringLiteral("tensorscope-cli meta --"));
        for (const QString& o : expectedOptions().at(3).second)
            QVERIFY2(o.size() == 1 || metaOptions.contains(dashed(o)), qPrintable(o));
    }

    // zsh: loading the function through compinit registers it for tensorscope-cli (the #compdef line
    // and the file name are right)...
    void zshRegisters()
    {
        const QString zsh = tool("zsh");
        QVERIFY(!zsh.isEmpty());
        QTemporaryDir dir;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), dir.path());
        env.insert(QStringLiteral("ZDOTDIR"), dir.path());
        const Proc p = run(zsh,
                           {QStringLiteral("-f"), QStringLiteral("-c"),
                            QStringLiteral("fpath=($1 $fpath); autoload -U compinit; compinit -u -D; "
                                           "print -r -- $_comps[tensorscope-cli]"),
                            QStringLiteral("zsh"), generated(QStringLiteral("zsh/vendor-completions"))},
                           env, dir.path());
        QCOMPARE(p.exitCode, 0);
        QCOMPARE(p.out.trimmed(), QStringLiteral("_tensorscope-cli"));
    }

    // ...and TAB in a real interactive zsh (driven through a pty by zsh_complete.zsh) offers what it
    // should.
    void zshCompletes()
    {
        const QString zsh = tool("zsh");
        QVERIFY(!zsh.isEmpty());
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("shards")));
        QFile(dir.filePath(QStringLiteral("model.safetensors"))).open(QIODevice::WriteOnly);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), dir.path());
        env.insert(QStringLiteral("ZDOTDIR"), dir.path());
        env.insert(QStringLiteral("TERM"), QStringLiteral("dumb"));
        auto complete = [&](const QString& line) {
            const Proc p = run(zsh,
                               {QStringLiteral("-f"), QStringLiteral(TS_CLI_TESTS_DIR "/zsh_complete.zsh"),
                                generated(QStringLiteral("zsh/vendor-completions")), line},
                               env, dir.path());
            if (p.exitCode != 0)
                qWarning("zsh: %d %s", p.exitCode, qPrintable(p.err));
            QSet<QString> got;
            static const QRegularExpression match(QStringLiteral("<<([^>]*)>>"));
            for (auto it = match.globalMatch(p.out); it.hasNext();)
                got << it.next().captured(1);
            QStringList sorted(got.begin(), got.end());
            sorted.sort();
            return sorted;
        };
        QCOMPARE(complete(QStringLiteral("tensorscope-cli conv")), QStringList{QStringLiteral("convert")});
        QCOMPARE(complete(QStringLiteral("tensorscope-cli convert --dt")),
                 (QStringList{QStringLiteral("--dtype"), QStringLiteral("--dtype-for")}));
        QCOMPARE(complete(QStringLiteral("tensorscope-cli convert --dtype B")),
                 QStringList{QStringLiteral("BF16")});
        QCOMPARE(complete(QStringLiteral("tensorscope-cli scan --n")),
                 QStringList{QStringLiteral("--nan-inf-only")});
        QCOMPARE(complete(QStringLiteral("tensorscope-cli info mo")),
                 QStringList{QStringLiteral("model.safetensors")});
        QCOMPARE(complete(QStringLiteral("tensorscope-cli help ex")), QStringList{QStringLiteral("export")});
    }
};

QTEST_GUILESS_MAIN(TestCliHelp)
#include "tst_cli_help.moc"
